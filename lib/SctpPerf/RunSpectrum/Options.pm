# SPDX-License-Identifier: Apache-2.0
# run_spectrum.pl's own options: the command line read, each rule checked with
# one sentence, the sizes of the sweep, the config file, the two sides of
# --compare. What the script passes on to the client is the client's to check
# (ClientCheck).
package SctpPerf::RunSpectrum::Options;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);
use File::Spec;
use Getopt::Long ();
use Text::ParseWords ();

use SctpPerf::RunSpectrum::Commands qw(server_command);
use SctpPerf::RunSpectrum::Errors qw(usage_error bytes_text);

our @EXPORT_OK = qw(parse_arguments validate_options power_size size_text size_key is_cpu_list
                    placement_text placement_note parse_config_text read_config_file);

use constant {
    DEFAULT_MAX_POWER      => 16,    # a sweep's top by default: the client's largest payload, 2^16 = 64 KiB
    # The most --min-power and --max-power take: the script's own bound, so that a
    # typo makes no sweep of a thousand sizes. Which powers the client takes is the
    # client's to say (ClientCheck).
    MAX_POWER_WORD         => 63,
    LOAD_DEFAULT_MIN_POWER => 4,     # a load sweep's start by default: the load modes' smallest payload, 16 bytes
    DEFAULT_COMPARE_REPEAT => 5,     # runs per side and size: sctp-perf-compare gives no verdict below 5
};

# The client's long names the script takes for its own options of the same meaning
# (underscores too, as the programs take them): run_spectrum.pl --test-iterations 500
# reads as the client's -c 500 does. The other options of both have no counterpart:
# the client's -s and the script's --min-power/--max-power differ (one size against
# a sweep), and its --cpu pins the client only, which the script calls --client-cpu.
my %ALIAS = (
    protocol   => 'test-transport-protocol|test_transport_protocol',
    iterations => 'test-iterations|test_iterations',
    host       => 'server-host|server_host',
    port       => 'server-port|server_port',
);

# The client's short options given to the script, where they mean something to it:
# what to write instead. The script takes no short options but -h: one letter each
# for some options and not others would be a rule to remember, and -H would be -h.
my %CLIENT_SHORT = (
    t => 'run_spectrum.pl takes --protocol (or --test-transport-protocol)',
    c => 'run_spectrum.pl takes --iterations (or --test-iterations)',
    H => 'run_spectrum.pl takes --host (or --server-host)',
    p => 'run_spectrum.pl takes --port (or --server-port)',
    s => 'the sweep sets the payload size; give --min-power and --max-power, or --sizes',
    map { $_ => "client options go after '--'" } qw(n m M x b C i),
);

# Parses the command line (without the program name). Returns a hash of the raw
# option values plus `client_args`, the words after `--`. Dies with a usage error.
sub parse_arguments(@all) {
    my ($args, $client_args) = split_at_double_dash(@all);
    my @args = @$args;
    my %opt = (
        service      => 'stream',
        protocol     => 'sctp',
        plot         => 1,
        keep_going   => 0,
        start_server => 0,
    );
    my @spec = (
        'service=s'                   => \$opt{service},
        "protocol|$ALIAS{protocol}=s" => \$opt{protocol},
        'config-file|config_file=s'   => \$opt{config_file},
        'min-power|min_power=s'       => \$opt{min_power},
        'max-power|max_power=s'       => \$opt{max_power},
        'sizes=s'                     => \$opt{sizes},
        "iterations|$ALIAS{iterations}=s" => \$opt{iterations},
        'rate=s'                      => \$opt{rate},
        'throughput'                  => \$opt{throughput},
        'duration=s'                  => \$opt{duration},
        'flows=s'                     => \$opt{flows},
        "host|$ALIAS{host}=s"         => \$opt{host},
        "port|$ALIAS{port}=s"         => \$opt{port},
        'output-dir|output_dir=s'     => \$opt{output_dir},
        'start-server|start_server!'  => \$opt{start_server},
        'plot!'                       => \$opt{plot},
        'keep-going|keep_going!'      => \$opt{keep_going},
        'bin-dir|bin_dir=s'           => \$opt{bin_dir},
        'compare=s{2}'                => \my @compare,
        'repeat=s'                    => \$opt{repeat},
        'client-cpu|client_cpu=s'     => \$opt{client_cpu},
        'server-cpu|server_cpu=s'     => \$opt{server_cpu},
        'help|h|?'                    => \$opt{help},
        'manual|man'                  => \$opt{manual},
    );
    my @problems;
    # Case matters in option names, as in the programs': -H is not -h (help).
    my $parser = Getopt::Long::Parser->new(config => [qw(no_auto_abbrev no_getopt_compat no_ignore_case)]);
    my $parsed = do {
        local $SIG{__WARN__} = sub ($w) {
            chomp $w;
            push @problems, $w =~ /\AUnknown option: (\S+)\z/ && defined $CLIENT_SHORT{$1}
                            ? "-$1 is the client's short option: $CLIENT_SHORT{$1}"
                          : $w =~ /\AInsufficient arguments for option compare\z/
                            ? "--compare takes two words, the client options of A and of B, each quoted "
                              . "as one word: --compare '-t tcp' '-t sctp' ('' for the client's defaults)"
                          : $w;
        };
        $parser->getoptionsfromarray(\@args, @spec);
    };
    die usage_error(join '; ', map { lcfirst } @problems) if !$parsed || @problems;
    check_compare_words(\@compare, @spec[ grep { $_ % 2 == 0 } 0 .. $#spec ]);
    die usage_error("unexpected argument '$args[0]' (options for the client go after '--')") if @args;
    die usage_error('--compare is given once, with two words: the client options of A and of B')
        if @compare > 2;
    $opt{compare} = \@compare if @compare;
    $opt{client_args} = $client_args;
    return \%opt;
}

# The script's arguments and the client's, which follow '--'.
sub split_at_double_dash(@args) {
    for my $i (0 .. $#args) {
        return ([ @args[ 0 .. $i - 1 ] ], [ @args[ $i + 1 .. $#args ] ]) if $args[$i] eq '--';
    }
    return (\@args, []);
}

# --compare '-n' --repeat 3, with B forgotten, takes --repeat for B's options.
sub check_compare_words($compare, @specs) {
    my %own = map { $_ => 1 } own_option_words(@specs);
    for my $i (grep { $own{ $compare->[$_] } } 0 .. $#$compare) {
        die usage_error("--compare takes two words, the client options of A and of B, each quoted as one word, "
                        . "but its " . ('A', 'B')[$i] . " is '$compare->[$i]', run_spectrum.pl's own option: "
                        . "write e.g. --compare '-t tcp' '-t sctp'");
    }
}

# The words that name the script's own options, from Getopt::Long's specifications:
# 'min-power|min_power=s' gives --min-power and --min_power, 'help|h|?' -h and -?.
sub own_option_words(@specs) {
    return map { map { (length > 1 ? '--' : '-') . $_ } split /\|/, s/[=!].*//sr } @specs;
}

# Checks the script's own options, one sentence per rule, and normalises the
# enumerated values (they are case-insensitive; paths and host names are left as
# given). Reads the config file. Returns the settings the sweep runs with.
#
# What the client is given (the payload sizes, --iterations, --rate, --duration,
# --flows, --host, --client-cpu, the options after '--' and in --config-file) is
# the client's to check: it checks every command line of the sweep itself, before
# the first run (ClientCheck), so that no copy of its rules here can
# drift from them. The script reads only what it needs: plain numbers for the
# values spectrum.json records, and the powers it counts through.
sub validate_options($opt) {
    my %s = %$opt;
    validate_service(\%s);
    validate_recorded_numbers(\%s);
    $s{mode} = $s{throughput} ? 'throughput' : defined $s{rate} ? 'rate' : 'ping-pong';
    my $load = $s{mode} ne 'ping-pong';
    # The client runs ping-pong over several flows framed, with a load report
    # and no ACE histogram; a ping-pong sweep's table is made from the latter.
    die usage_error('--flows above 1 needs --rate or --throughput in a sweep: a ping-pong sweep '
                    . 'reads the one-flow ACE histogram report')
        if !$load && defined $s{flows} && $s{flows} > 1;

    $s{sizes} = defined $s{sizes} ? sizes_from_list(\%s) : sizes_from_powers(\%s, $load);
    validate_port_and_paths(\%s);
    $s{config_args} = defined $s{config_file} ? read_config_file($s{config_file}) : [];
    check_client_args(\%s, 'in --config-file', $s{config_args});
    check_client_args(\%s, "after '--'", $s{client_args});
    validate_compare(\%s);
    return \%s;
}

# --service and --protocol, which choose the programs: lower-cased, 'seqpacket'
# read as 'seqpack'.
sub validate_service($s) {
    my ($service, $protocol) = @{$s}{qw(service protocol)};
    $s->{service} = lc $service;
    $s->{service} = 'seqpack' if $s->{service} eq 'seqpacket';
    die usage_error("--service must be 'stream' or 'seqpack', not '$service'")
        unless $s->{service} =~ /\A(?:stream|seqpack)\z/;
    $s->{protocol} = lc $protocol;
    die usage_error("--protocol must be 'tcp' or 'sctp', not '$protocol'")
        unless $s->{protocol} =~ /\A(?:tcp|sctp)\z/;
    die usage_error('--service seqpack runs over SCTP only; drop --protocol tcp or use --service stream')
        if $s->{service} eq 'seqpack' && $s->{protocol} eq 'tcp';
    return;
}

# --iterations, --flows, --rate and --duration go to the client, which checks
# their limits; spectrum.json records them as numbers, so the script takes them
# written in digits (the client would also take 100k or 1e5).
sub validate_recorded_numbers($s) {
    for my $name (qw(iterations flows rate duration)) {
        my $value = $s->{$name} // next;
        my $whole = $name eq 'iterations' || $name eq 'flows';
        die usage_error("--$name must be written in digits, " . ($whole ? 'a whole number such as 1000' : 'such as 2000 or 0.5')
                        . ", as spectrum.json records it, not '$value'")
            unless $whole ? $value =~ /\A\+?[0-9]+\z/ : is_decimal($value);
        $s->{$name} += 0;
    }
    return;
}

# --min-power/--max-power: the sizes of the sweep, each { power, bytes }.
sub sizes_from_powers($s, $load) {
    $s->{min_power} //= $load ? LOAD_DEFAULT_MIN_POWER : 0;
    $s->{max_power} //= DEFAULT_MAX_POWER;
    for my $name (qw(min_power max_power)) {
        (my $flag = "--$name") =~ tr/_/-/;
        die usage_error("$flag must be a whole number from 0 to ${\ MAX_POWER_WORD}, not '$s->{$name}'")
            unless $s->{$name} =~ /\A\+?[0-9]+\z/ && $s->{$name} <= MAX_POWER_WORD;
        $s->{$name} += 0;
    }
    die usage_error("--min-power ($s->{min_power}) must not be larger than --max-power ($s->{max_power})")
        if $s->{min_power} > $s->{max_power};
    return [ map { power_size($_) } $s->{min_power} .. $s->{max_power} ];
}

# The size of payload power $power: { power, bytes }.
sub power_size($power) { return { power => $power, bytes => 2**$power } }

# --sizes LIST: payload sizes in bytes, comma-separated, ascending (the plot's
# line joins them in that order), each given to the client as --payload-bytes.
# Each is { power (its base-2 logarithm for a power of two, else undef), bytes }.
sub sizes_from_list($s) {
    die usage_error('--sizes and --min-power/--max-power exclude each other: give a list of sizes or a '
                    . 'range of powers of two')
        if defined $s->{min_power} || defined $s->{max_power};
    my @sizes;
    for my $word (split /,/, $s->{sizes}, -1) {
        die usage_error("--sizes takes payload sizes in bytes, comma-separated, such as 32,64,100,1000, "
                        . "each a whole number, not '$word'")
            unless $word =~ /\A\+?[0-9]+\z/;
        my $bytes = $word + 0;
        die usage_error("--sizes must list each size once, in ascending order: $bytes comes after "
                        . "$sizes[-1]{bytes}")
            if @sizes && $bytes <= $sizes[-1]{bytes};
        my $power = $bytes >= 1 && ($bytes & ($bytes - 1)) == 0 ? int(log($bytes) / log(2) + 0.5) : undef;
        push @sizes, { power => $power, bytes => $bytes };
    }
    $s->{by_bytes} = 1;
    return \@sizes;
}

# --port, --output-dir, --bin-dir and the server's CPUs.
sub validate_port_and_paths($s) {
    my %s = %$s;
    # The port of both programs: the client's -p, and the server's with --start-server.
    if (defined $s{port}) {
        die usage_error("--port must be a whole number from 1 to 65535, not '$s{port}'")
            unless $s{port} =~ /\A\+?[0-9]+\z/ && $s{port} >= 1 && $s{port} <= 65535;
        $s{port} += 0;
    }
    die usage_error('--output-dir must not be empty') if defined $s{output_dir} && $s{output_dir} eq '';
    $s{output_dir} //= File::Spec->curdir;
    die usage_error("--output-dir '$s{output_dir}' exists and is not a directory")
        if -e $s{output_dir} && !-d _;
    die usage_error("--bin-dir '$s{bin_dir}' is not a directory")
        if defined $s{bin_dir} && !-d $s{bin_dir};

    # The client checks its --cpu itself; the server has no --check, so its list
    # is read here, as the server reads it.
    die usage_error("--server-cpu must list CPU numbers and ascending ranges, comma-separated, "
                    . "such as 0, 0-1 or 0,2-3, not '$s{server_cpu}'")
        if defined $s{server_cpu} && !is_cpu_list($s{server_cpu});
    die usage_error('--server-cpu needs --start-server: the script places only a server it starts '
                    . '(give a server started by hand its own --cpu)')
        if defined $s{server_cpu} && !$s{start_server};
    %$s = %s;
    return;
}

# A size as the progress lines and messages name it: "payload 2^7 (128 bytes)" or
# "payload 100 bytes".
sub size_text($size) {
    return defined $size->{power} ? "payload 2^$size->{power} (" . bytes_text($size->{bytes}) . ')'
                                  : 'payload ' . bytes_text($size->{bytes});
}

# The part of a work file's name that tells the sizes apart: the power in a sweep
# of powers (client-7.json), the bytes with --sizes (client-100B.json).
sub size_key($s, $size) { return $s->{by_bytes} ? "$size->{bytes}B" : $size->{power} }

# A plain decimal number such as 2000, 0.5 or .25: what --rate and --duration take.
sub is_decimal($text) { return $text =~ /\A\+?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\z/ }

# A CPU list as the programs' --cpu (and taskset -c) take it: CPU numbers and
# ranges LOW-HIGH with LOW <= HIGH, comma-separated, no blanks: 0, 0-1, 0,2-3.
sub is_cpu_list($text) {
    return 0 unless $text =~ /\A[0-9]+(?:-[0-9]+)?(?:,[0-9]+(?:-[0-9]+)?)*\z/;
    return !grep { /\A([0-9]+)-([0-9]+)\z/ && $1 > $2 } split /,/, $text;
}

# How the sweep places the two programs, in words: "client CPU 0, server CPUs 0-1",
# "client CPU 0" (a server not started by the script is placed by whoever started
# it), or "unpinned" when neither is given.
sub placement_text($client_cpu, $server_cpu, $started_server) {
    return 'unpinned' unless defined $client_cpu || defined $server_cpu;
    my $cpus = sub ($list) { return defined $list ? ($list =~ /\A[0-9]+\z/ ? 'CPU ' : 'CPUs ') . $list : 'unpinned' };
    return join ', ', 'client ' . $cpus->($client_cpu), $started_server ? 'server ' . $cpus->($server_cpu) : ();
}

# Where the two programs run, said once at the start: on a machine of several CPUs
# the scheduler's choices move the figures as much as the transport does.
sub placement_note($s) {
    return 'placement: ' . placement_text($s->{client_cpu}, $s->{server_cpu}, $s->{start_server})
        if defined $s->{client_cpu} || defined $s->{server_cpu};
    return 'placement: unpinned. On a machine of several CPUs the results depend on where the scheduler '
         . 'puts the client and the server, which can change from size to size; for figures that compare, '
         . 'pin both ends, e.g. '
         . ($s->{start_server} ? '--client-cpu 0 --server-cpu 0' : "--client-cpu 0 and the server's own --cpu 0");
}

# Options the script sets on the client itself (short and long names as the client
# spells them): given again, they would clash with the script's own value or break
# what it reads back. Returns why $name may not be given, or nothing.
sub client_option_conflict($s, $name) {
    my $is = sub (@names) { return grep { $_ eq $name } @names };
    return 'the script sets the payload size; use --min-power and --max-power, or --sizes'
        if $is->(qw(-s --payload-size-power-of-2 --payload-bytes));
    return "the script reads the ACE report from the client's stdout and the JSON report from --json-file"
        if $is->(qw(--format --json-file));
    return 'the script sets the iterations from --iterations'
        if defined $s->{iterations} && $is->(qw(-c --test-iterations));
    return 'the script runs each size for --duration, and a run lasts either a time or a count'
        if defined $s->{duration} && $is->(qw(-c --test-iterations));
    # The load options decide the CSV columns and the plot, so the script must know them.
    return "the script sets the load mode; use run_spectrum.pl's own $name option"
        if $is->(qw(--rate --throughput));
    return "the script sets the run length; use run_spectrum.pl's own --duration option"
        if $is->('--duration');
    return "the script sets the flows; use run_spectrum.pl's own --flows option"
        if $is->('--flows');
    return "--compare runs each side --repeat times, alternating A and B; use run_spectrum.pl's own --repeat"
        if $s->{compare} && $is->(qw(--repeat --pause));
    # The placement goes into spectrum.json and the plot title, so the script must know it.
    return 'the script places the client; use --client-cpu'
        if $is->('--cpu');
    return 'the script sets the transport; use --protocol'
        if $s->{service} eq 'stream' && $is->(qw(-t --test-transport-protocol));
    return 'the script sets the server host; use --host'
        if (defined $s->{host} || $s->{start_server}) && $is->(qw(-H --server-host));
    return 'the script sets the server port; use --port'
        if (defined $s->{port} || $s->{start_server}) && $is->(qw(-p --server-port));
    return;
}

sub check_client_args($s, $where, $args) {
    for my $word (@$args) {
        my $name;
        if    ($word =~ /\A(--[A-Za-z0-9][\w-]*)/) { ($name = $1) =~ tr/_/-/ }
        elsif ($word =~ /\A(-[A-Za-z])/)           { $name = $1 }
        next unless defined $name;
        my $why = client_option_conflict($s, $name);
        die usage_error("client option '$word' $where cannot be used: $why") if defined $why;
    }
    return;
}

# --compare: the client options of A and of B, each split into words as a shell
# splits them (quotes and backslashes; nothing is expanded or run) and checked as
# the options after '--' are, with one exception: a side may choose its transport
# with -t, which for it replaces --protocol. Sets $s->{sides}, each { name, text,
# words, settings }: settings are the sweep's settings as that side runs them.
sub validate_compare($s) {
    if (!$s->{compare}) {
        die usage_error('--repeat needs --compare: it counts the runs of each side per size')
            if defined $s->{repeat};
        return;
    }
    $s->{repeat} //= DEFAULT_COMPARE_REPEAT;
    die usage_error("--repeat must be a whole number of at least 1, not '$s->{repeat}'")
        unless $s->{repeat} =~ /\A\+?[0-9]+\z/ && $s->{repeat} >= 1;
    $s->{repeat} += 0;
    $s->{sides} = [ compare_side($s, 'A', $s->{compare}[0]), compare_side($s, 'B', $s->{compare}[1]) ];
    my ($a, $b) = map { $_->{settings} } @{ $s->{sides} };
    $s->{servers_needed} = join("\0", server_command($a, '')) eq join("\0", server_command($b, '')) ? 1 : 2;
    die usage_error("A and B need servers of their own (they differ in transport or Nagle), which cannot both "
                    . "listen on --port $s->{port}: drop --port, and each server takes a free port")
        if $s->{start_server} && $s->{servers_needed} == 2 && defined $s->{port};
    return if $a->{protocol} eq $b->{protocol} || $s->{start_server};
    die usage_error("A runs over $a->{protocol} and B over $b->{protocol}, so they need two servers: add "
                    . '--start-server, or give each side the port of its server (-p PORT in its options)')
        unless grep { /\A(?:-[pH]|--server[-_](?:port|host))/ } map { @{ $_->{words} } } @{ $s->{sides} };
    return;
}

sub compare_side($s, $name, $text) {
    my @words = Text::ParseWords::shellwords($text);
    die usage_error("--compare: the options of $name have an unbalanced quote: $text")
        if !@words && $text =~ /\S/;
    my ($protocol, @rest);
    for (my $i = 0; $i < @words; ++$i) {
        if ($words[$i] =~ /\A(?:-t|--test[-_]transport[-_]protocol)(?:=?(.+))?\z/s) {
            $protocol = $1 // $words[ ++$i ];
            die usage_error("--compare: -t in the options of $name needs a value, tcp or sctp") unless defined $protocol;
        } else {
            push @rest, $words[$i];
        }
    }
    if (defined $protocol) {
        die usage_error("--compare: the options of $name choose a transport with -t, but --service seqpack "
                        . 'runs over SCTP only') if $s->{service} eq 'seqpack';
        die usage_error("--compare: -t in the options of $name must be 'tcp' or 'sctp', not '$protocol'")
            unless $protocol =~ /\A(?:tcp|sctp)\z/i;
    }
    check_client_args($s, "in $name of --compare", \@rest);
    my %settings = (%$s, protocol => lc($protocol // $s->{protocol}), client_args => [ @{ $s->{client_args} }, @rest ]);
    return { name => $name, text => $text, words => \@words, settings => \%settings };
}

# The config file format of the original script: the first double-quoted string on a
# line that is not commented out holds client options, split at white space (no shell
# quoting). A `#` before the string comments it out. Returns the list of words; dies
# with a usage error when the file holds no such string.
sub parse_config_text($text, $name) {
    for my $line (split /\n/, $text) {
        next unless $line =~ /\A[^"#]*"([^"]*)"/;
        return [ split ' ', $1 ];
    }
    die usage_error("config file '$name' holds no double-quoted string of client options (e.g. \"-c 1000\")");
}

sub read_config_file($path) {
    die usage_error("config file '$path' is a directory, not a file") if -d $path;
    open my $fh, '<', $path or die usage_error("cannot read config file '$path': $!");
    my $text = do { local $/; <$fh> };
    die usage_error("cannot read config file '$path': $!") unless defined $text;
    close $fh;
    return parse_config_text($text, $path);
}

1;
