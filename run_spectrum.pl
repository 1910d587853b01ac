#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Sweep the payload size over powers of two with the sctp-perf client and collect
# every run into a table, a JSON file and a plot.
#
# The script orchestrates and collects only: every number it writes comes from the
# client's JSON report. It is a modulino: run as a program it calls main(); loaded
# with `require` (as the tests do) it only defines the functions.
package SctpPerf::RunSpectrum;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use B ();
use Cwd ();
use Errno ();
use File::Basename qw(basename dirname);
use File::Path qw(make_path);
use File::Spec;
use File::Temp ();
use Getopt::Long ();
use JSON::PP ();
use POSIX qw(:sys_wait_h);
use Text::ParseWords ();
use Time::HiRes ();

our $VERSION = '1.0.0';

my $SCRIPT_FILE = File::Spec->rel2abs(__FILE__);
my $SCRIPT_NAME = 'run_spectrum.pl';

use constant {
    DEFAULT_MAX_POWER     => 16,    # a sweep's top by default: the client's largest payload, 2^16 = 64 KiB
    # The most --min-power and --max-power take: the script's own bound, so that a
    # typo makes no sweep of a thousand sizes. Which powers the client takes is the
    # client's to say (check_client_commands).
    MAX_POWER_WORD        => 63,
    SERVER_PORT_WAIT_S    => 10,    # for the server's "starting server at port P" line
    CHILD_STOP_GRACE_S    => 5,     # between SIGTERM and SIGKILL
    CHILD_POLL_S          => 0.005, # between looks at a child waited for with a bound
    GNUPLOT_TIMEOUT_S     => 60,
    STDERR_TAIL_LINES     => 40,    # of a failed program's output shown
    DATA_FORMAT_VERSION   => 2,     # of spectrum.json
    REPORT_FORMAT_VERSION => 2,     # of the client's JSON report: the only one the script reads
    LOAD_DEFAULT_MIN_POWER => 4,    # a load sweep's start by default: the load modes' smallest payload, 16 bytes
    CLIENT_CHECK_TIMEOUT_S => 30,   # for the client's answer to --check, which connects nowhere
    SERVER_MAX_CLIENTS    => 10000, # the server's own default for --max-clients
    DEFAULT_COMPARE_REPEAT => 5,    # runs per side and size: sctp-perf-compare gives no verdict below 5
    COMPARE_FORMAT_VERSION => 1,    # of compare.json
    COMPARE_PROGRAM        => 'sctp-perf-compare',
};

# The CSV columns, in order; spectrum.json uses the same names for its rows.
our @CSV_COLUMNS = qw(payload_bytes iterations min_us mean_us p50_us p90_us p99_us
                      p99_9_us max_us stddev_us outliers);

# A load sweep (--rate or --throughput) appends these, so a reader of the ping-pong
# columns reads a load sweep's CSV unchanged.
our @LOAD_CSV_COLUMNS = qw(mode flows rate_asked_per_s rate_achieved_per_s messages_lost
                           payload_mb_per_s_sent latency_kind);

# Where each column comes from in the client's JSON report. `outliers` is the one
# derived column: samples outside the histogram range, histogram.below + histogram.above.
my %COLUMN_SOURCE = (
    payload_bytes => [qw(config payload_bytes)],
    iterations    => [qw(config iterations)],
    min_us        => [qw(summary min_us)],
    mean_us       => [qw(summary mean_us)],
    p50_us        => [qw(percentiles p50_us)],
    p90_us        => [qw(percentiles p90_us)],
    p99_us        => [qw(percentiles p99_us)],
    p99_9_us      => [qw(percentiles p99_9_us)],
    max_us        => [qw(summary max_us)],
    stddev_us     => [qw(summary stddev_us)],
);

# In a load mode the latency columns come from one of the report's load.latency_*
# objects. A rate run's headline is the corrected latency, timed from the moment each
# message was due, so a sender that falls behind its schedule shows the wait it caused
# instead of hiding it (coordinated omission). A throughput run has no schedule: every
# latency is timed from the actual send, uncorrected.
my %LATENCY_KIND = (rate => 'corrected', throughput => 'uncorrected');

my %LOAD_LATENCY_SOURCE = (
    iterations => 'num_points',
    min_us     => 'min_us',
    mean_us    => 'mean_us',
    p50_us     => 'p50_us',
    p90_us     => 'p90_us',
    p99_us     => 'p99_us',
    p99_9_us   => 'p99_9_us',
    max_us     => 'max_us',
    stddev_us  => 'stddev_us',
);

my %LOAD_COLUMN_SOURCE = (
    flows                 => [qw(load flows)],
    rate_asked_per_s      => [qw(load rate_asked_per_s)],
    rate_achieved_per_s   => [qw(load rate_achieved_per_s)],
    messages_lost         => [qw(load messages_lost)],
    payload_mb_per_s_sent => [qw(load payload_mb_per_s_sent)],
);

# Fixed output names: a directory holds the results of its latest sweep.
my %OUTPUT_NAME = (
    csv     => 'spectrum.csv',
    json    => 'spectrum.json',
    gnuplot => 'spectrum.gp',
    png     => 'spectrum.png',
);

# ---------------------------------------------------------------------------
# Errors: a usage error exits with 2, a runtime failure with 1, an interrupt
# re-raises its signal once the children are stopped.

sub usage_error($message)   { return bless { status => 2, message => $message }, 'SctpPerf::RunSpectrum::Error' }
sub runtime_error($message) { return bless { status => 1, message => $message }, 'SctpPerf::RunSpectrum::Error' }
sub interrupted($signal)    { return bless { signal => $signal }, 'SctpPerf::RunSpectrum::Interrupted' }

# An eval that handles a failure of its own must not swallow an interrupt that
# happened to arrive inside it: the sweep would record a garbled failure and
# go on (with --keep-going, Ctrl-C would be ignored altogether).
sub rethrow_interrupt($error) {
    die $error if ref $error eq 'SctpPerf::RunSpectrum::Interrupted';
    return;
}

sub note($message) {
    $message =~ s/\n+\z//;
    print STDERR "$SCRIPT_NAME: $message\n";
    return;
}

sub bytes_text($bytes) { return $bytes == 1 ? '1 byte' : "$bytes bytes" }

# ---------------------------------------------------------------------------
# Options

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
# the first run (check_client_commands), so that no copy of its rules here can
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

# ---------------------------------------------------------------------------
# Programs

sub program_names($service) {
    my $prefix = $service eq 'seqpack' ? 'SOCK_SEQPACK' : 'SOCK_STREAM';
    return ("${prefix}_clt", "${prefix}_srv");
}

sub default_bin_dirs() {
    my $script_dir = dirname(Cwd::realpath($SCRIPT_FILE) // $SCRIPT_FILE);
    my @path = grep { length } File::Spec->path;
    return (File::Spec->catdir($script_dir, 'build', 'bin'), File::Spec->catdir($script_dir, 'bin'),
            $script_dir, @path);
}

# The first directory holding every program in @$names, so a client and server come
# from the same build. Returns the directory or undef.
sub find_bin_dir($names, $dirs) {
    for my $dir (@$dirs) {
        return $dir unless grep { my $p = File::Spec->catfile($dir, $_); !(-f $p && -x _) } @$names;
    }
    return;
}

sub find_in_path($name) {
    for my $dir (grep { length } File::Spec->path) {
        my $p = File::Spec->catfile($dir, $name);
        return $p if -f $p && -x _;
    }
    return;
}

# The client's command line for one size. JSON goes to $json_path, the ACE report to stdout.
sub client_command($s, $client, $size, $json_path) {
    my @cmd = ($client, $s->{by_bytes} ? ('--payload-bytes', $size->{bytes}) : ('-s', $size->{power}),
               '--json-file', $json_path);
    push @cmd, '-t', $s->{protocol} if $s->{service} eq 'stream';
    push @cmd, '-c', $s->{iterations} if defined $s->{iterations};
    push @cmd, '--rate', $s->{rate} if defined $s->{rate};
    push @cmd, '--throughput' if $s->{throughput};
    push @cmd, '--duration', $s->{duration} if defined $s->{duration};
    push @cmd, '--flows', $s->{flows} if defined $s->{flows};
    push @cmd, '-H', $s->{host} if defined $s->{host};
    push @cmd, '-p', $s->{port} if defined $s->{port};
    push @cmd, '--cpu', $s->{client_cpu} if defined $s->{client_cpu};
    return (@cmd, @{ $s->{config_args} }, @{ $s->{client_args} });
}

# The server's command line for --start-server. It binds to loopback unless --host
# was given, and mirrors the client's -n: Nagle is set on each end's own socket, so a
# test of Nagle needs it on both. Every flow is a client of the server, and the flows
# of one size may still be closing there when those of the next size connect, so with
# many --flows the server admits twice as many clients as one run opens.
sub server_command($s, $server) {
    my @cmd = ($server, '-p', $s->{port} // 0);
    push @cmd, '-a', '127.0.0.1' unless defined $s->{host};
    push @cmd, '-t', $s->{protocol} if $s->{service} eq 'stream';
    push @cmd, '-n' if grep { /\A(?:-n|--test[-_]enable[-_]nagle)\z/ } @{ $s->{config_args} }, @{ $s->{client_args} };
    push @cmd, '--max-clients', 2 * $s->{flows} if defined $s->{flows} && 2 * $s->{flows} > SERVER_MAX_CLIENTS;
    push @cmd, '--cpu', $s->{server_cpu} if defined $s->{server_cpu};
    return @cmd;
}

# ---------------------------------------------------------------------------
# Child processes: every child the script starts is recorded here so an error or an
# interrupt can stop it.
#
# Each child runs in a process group of its own. A terminal's Ctrl-C (SIGINT to
# the foreground process group) then reaches the script alone, and the script
# decides what each child gets: the client measuring a size gets the script's
# signal passed on, once (stop_interrupted_client); it stops measuring, writes its
# report marked interrupted and exits 128 + the signal. Were the client in the
# script's group, it would get the Ctrl-C itself and then the script's signal as
# a second one, which ends it at once, without its report. The server it started
# gets SIGTERM only after the client has ended: a client under load sends each
# flow's end of test and reads the server's account as it stops, which a server
# hit by the same Ctrl-C would no longer answer.
#
# What that changes: a signal sent to the script's process group no longer
# reaches the children. The script catches SIGINT, SIGTERM and SIGHUP and stops
# them itself; for the signals it cannot catch (kill -9, also a Ctrl-\), each
# child asks the kernel for SIGKILL when the script dies (Linux's
# PR_SET_PDEATHSIG), so nothing it started outlives it, as nothing did when they
# shared its group. A Ctrl-Z stops the script alone: the running client finishes
# its size, and the next starts once the script is continued.

my %children;             # pid => { name, number }: number counts the children started
my $children_started = 0;

# The number of the prctl system call, or undef where the system has none that
# Perl can call (the sweep then works as well, but a kill -9 of the script leaves
# its children running). Looked up once, at the first child.
my $sys_prctl;
sub sys_prctl() {
    # h2ph's files define their constants in the package that requires them.
    $sys_prctl //= [ eval { package main; require 'syscall.ph'; main::SYS_prctl() } ];
    return $sys_prctl->[0];
}
use constant PR_SET_PDEATHSIG => 1;

# The signals the script handles, as a set for sigprocmask.
sub stop_signal_set() { return POSIX::SigSet->new(POSIX::SIGINT(), POSIX::SIGTERM(), POSIX::SIGHUP()) }

sub spawn($cmd, %io) {
    my $prctl = sys_prctl();
    my $parent = $$;
    # Blocked from before the fork until the child has its own group and is
    # recorded: a Ctrl-C meanwhile is not lost to the script and cannot leave
    # a child it does not know of.
    my $old_mask = POSIX::SigSet->new;
    POSIX::sigprocmask(POSIX::SIG_BLOCK(), stop_signal_set(), $old_mask)
        or die runtime_error("cannot block signals to run $cmd->[0]: $!");
    my $pid = fork;
    if (!defined $pid) {
        my $error = "$!";
        POSIX::sigprocmask(POSIX::SIG_SETMASK(), $old_mask);
        die runtime_error("cannot fork to run $cmd->[0]: $error");
    }
    if ($pid == 0) {
        POSIX::setpgid(0, 0);
        syscall($prctl, PR_SET_PDEATHSIG, POSIX::SIGKILL(), 0, 0, 0) if defined $prctl;
        POSIX::_exit(127) if getppid() != $parent;    # the script died before the prctl
        # Ignoring a signal drops it if pending: a Ctrl-C that came while the child
        # was still in the script's group is the script's, not the child's.
        $SIG{$_} = 'IGNORE' for qw(INT TERM HUP);
        $SIG{$_} = 'DEFAULT' for qw(INT TERM HUP);
        POSIX::sigprocmask(POSIX::SIG_SETMASK(), $old_mask);
        chdir $io{dir} or POSIX::_exit(127) if defined $io{dir};
        open STDIN, '<', File::Spec->devnull or POSIX::_exit(127);
        open STDOUT, '>', $io{stdout} or POSIX::_exit(127);
        if   (defined $io{stderr}) { open STDERR, '>', $io{stderr} or POSIX::_exit(127) }
        else                       { open STDERR, '>&', \*STDOUT or POSIX::_exit(127) }
        exec { $cmd->[0] } @$cmd or do {
            print STDERR "cannot run $cmd->[0]: $!\n";
            POSIX::_exit(127);
        };
    }
    POSIX::setpgid($pid, $pid);    # here too, so the group exists whichever of the two runs first
    $children{$pid} = { name => basename($cmd->[0]), number => ++$children_started };
    ${ $io{pid_to} } = $pid if $io{pid_to};    # known to the caller before an interrupt can strike
    POSIX::sigprocmask(POSIX::SIG_SETMASK(), $old_mask);
    return $pid;
}

# Waits for a child; with $timeout_s, gives up after that many seconds and returns
# undef. Returns the wait status.
sub wait_child($pid, $timeout_s = undef) {
    if (!defined $timeout_s) {
        my $got;
        do { $got = waitpid $pid, 0 } while $got == -1 && $!{EINTR};
        delete $children{$pid};
        return $got == $pid ? $? : -1;
    }
    my $deadline = Time::HiRes::time() + $timeout_s;
    while (1) {
        my $got = waitpid $pid, WNOHANG;
        if ($got == $pid || $got == -1) { delete $children{$pid}; return $got == $pid ? $? : -1 }
        return if Time::HiRes::time() >= $deadline;
        Time::HiRes::sleep(CHILD_POLL_S);
    }
}

# SIGTERM, then SIGKILL if the child has not gone after a grace period. Returns the
# wait status, or undef for a child already waited for.
sub stop_child($pid) {
    return unless exists $children{$pid};
    # No signal for a child that has ended, nor for one already reaped: an
    # interrupt can come between a wait and the bookkeeping after it.
    my $ended = wait_child($pid, 0);
    return $ended if defined $ended;
    return signal_child($pid, 'TERM');
}

# Sends $signal to a running child, waits for it for the grace period, then kills it.
# Returns the wait status.
sub signal_child($pid, $signal) {
    my $name = $children{$pid}{name};
    kill $signal, $pid;
    my $status = wait_child($pid, CHILD_STOP_GRACE_S);
    return $status if defined $status;
    note("$name (pid $pid) ignored SIG$signal for ${\ CHILD_STOP_GRACE_S} s; killing it");
    kill 'KILL', $pid;
    return wait_child($pid);
}

# The last started first: a client before the server it talks to.
sub stop_all_children() {
    stop_child($_) for sort { $children{$b}{number} <=> $children{$a}{number} } keys %children;
    return;
}

sub describe_status($status) {
    return 'could not be waited for' if $status == -1;
    return 'was killed by signal ' . ($status & 127) if $status & 127;
    return 'exited with status ' . ($status >> 8);
}

sub read_text($path) {
    open my $fh, '<', $path or return '';
    local $/;
    my $text = <$fh> // '';
    close $fh;
    return $text;
}

sub tail_lines($text, $count = STDERR_TAIL_LINES) {
    my @lines = split /\n/, $text;
    my $cut = @lines > $count ? "  [... " . (@lines - $count) . " earlier lines left out]\n" : '';
    @lines = @lines[ -$count .. -1 ] if @lines > $count;
    return @lines ? $cut . join('', map { "  | $_\n" } @lines) : "  (nothing)\n";
}

# ---------------------------------------------------------------------------
# The client's check of its own options (--check)
#
# The limits of the client's options are the client's. Before the first run, and
# before a server is started, each command line the sweep or the comparison will
# run goes to the client with --check, which validates it exactly as a run would
# (the descriptor and port limits included) and exits 0, or 2 with the run's own
# sentences, without connecting or resolving a host. A mistake is found at once
# and said in the client's words, not at the first size or the seventeenth, and
# the script keeps no copy of the client's rules to drift from them. Every size is
# checked, since the client's rules depend on the payload (-s 0..16, 16 bytes or
# more under load, --echo of 2 or more); a check costs milliseconds, a run seconds.

sub check_client_commands($s, $programs, $work_dir) {
    my %checked;
    for my $planned (planned_client_commands($s, $programs, $work_dir)) {
        my ($label, $cmd) = @$planned;
        check_client_command($label, $cmd, $work_dir) unless $checked{ join "\0", @$cmd }++;
    }
    return;
}

# Each client command line the sweep or the comparison will run, as [ label,
# command ], in the order they run. A server the script starts listens on
# loopback, on a port known once it has started: until then the client's default
# port stands in, as no rule depends on it. The JSON file's name, which differs
# from run to run, is one name for every check: --check opens no file.
sub planned_client_commands($s, $programs, $work_dir) {
    my @sides = $s->{compare} ? @{ $s->{sides} } : ({ settings => $s });
    my $json = File::Spec->catfile($work_dir, 'client-check.json');
    my @planned;
    for my $size (@{ $s->{sizes} }) {
        for my $side (@sides) {
            my %settings = %{ $side->{settings} };
            $settings{host} //= '127.0.0.1' if $s->{start_server};
            my $label = size_text($size) . (defined $side->{name} ? " in $side->{name}" : '');
            push @planned, [ $label, [ client_command(\%settings, $programs->{client}, $size, $json) ] ];
        }
    }
    return @planned;
}

# Asks the client whether it takes one command line (--check). Returns when it
# does; dies with a usage error in the client's words when it does not.
sub check_client_command($label, $cmd, $work_dir) {
    my ($client, @args) = @$cmd;
    my $name = basename($client);
    my $err = File::Spec->catfile($work_dir, 'client-check.err');
    my $pid = spawn([ $client, '--check', @args ], stdout => File::Spec->devnull, stderr => $err);
    my $status = wait_child($pid, CLIENT_CHECK_TIMEOUT_S);
    if (!defined $status) {
        stop_child($pid);
        die runtime_error("$name --check did not answer within ${\ CLIENT_CHECK_TIMEOUT_S} s for $label");
    }
    return if $status == 0;
    my $said = read_text($err);
    die runtime_error("$client takes no --check: it is older than $SCRIPT_NAME; use the programs of the same "
                      . 'sctp-perf release (--bin-dir)')
        if $said =~ /unrecognised option '--check'/;
    die runtime_error("$name --check for $label " . describe_status($status) . "; its stderr:\n" . tail_lines($said))
        unless ($status & 127) == 0 && $status >> 8 == 2;
    # One sentence a line, each after the program's name, then a pointer to its --help.
    my @sentences = map { in_script_terms($_) } $said =~ /^\Q$name\E: (.+)$/mg;
    die usage_error("$name refuses the options of $label, before any run: "
                    . (@sentences ? join('; ', @sentences) : "its stderr:\n" . tail_lines($said)));
}

# ---------------------------------------------------------------------------
# Server for --start-server

# The port from the server's log line `(pid|tid) starting server at port P`, or undef.
# Newer servers put a timestamp before the `(pid|tid)`: `2026-01-02T03:04:05.678Z (pid|tid) ...`.
sub parse_server_port($log_text) {
    return $log_text =~ /^(?:\S+[ \t]+)?\([^)]*\)[ \t]*starting server at port ([1-9][0-9]*)[ \t]*$/m ? $1 + 0 : undef;
}

sub start_server($s, $server, $work_dir, $log_name = 'server.log') {
    my @cmd = server_command($s, $server);
    my $log = File::Spec->catfile($work_dir, $log_name);
    my $pid = spawn(\@cmd, stdout => $log);
    my $deadline = Time::HiRes::time() + SERVER_PORT_WAIT_S;
    while (1) {
        my $port = parse_server_port(read_text($log));
        if (defined $port) {
            note("started " . basename($server) . " (pid $pid) on port $port");
            return { pid => $pid, port => $port, log => $log, name => basename($server) };
        }
        my $status = wait_child($pid, 0);
        die runtime_error(basename($server) . " " . describe_status($status)
                          . " before reporting its port; its log:\n" . tail_lines(read_text($log)))
            if defined $status;
        if (Time::HiRes::time() >= $deadline) {
            stop_child($pid);
            die runtime_error(basename($server) . " did not report its port within ${\ SERVER_PORT_WAIT_S} s"
                              . " (expected a line 'starting server at port P'); its log:\n"
                              . tail_lines(read_text($log)));
        }
        Time::HiRes::sleep(CHILD_POLL_S);
    }
}

sub stop_server($server) {
    my $status = wait_child($server->{pid}, 0);
    if (defined $status) {
        note("$server->{name} had stopped by itself during the sweep: it " . describe_status($status)
             . "; its log:\n" . tail_lines(read_text($server->{log})));
        return;
    }
    stop_child($server->{pid});
    return;
}

# ---------------------------------------------------------------------------
# Reports and output files

# Numbers are decoded as Perl numbers (doubles), which print with up to 15
# significant digits. That keeps the client's digits: a report of format 2 rounds
# its floats (microseconds to 3 decimals, seconds to 6, rates and the like to 6
# significant digits), so none has more than 15. Exact decoding (allow_bignum),
# which the 17-digit floats of format 1 needed, cost more than the rest of a
# sweep's bookkeeping together.
# The settings spectrum.json and compare.json both record: how the runs were
# made, as key-value pairs to put into either file's settings.
sub run_settings_json {
    my ($s, $programs) = @_;
    return (
        started_server   => $s->{start_server} ? JSON::PP::true : JSON::PP::false,
        client_cpu       => $s->{client_cpu},
        server_cpu       => $s->{server_cpu},
        min_power        => $s->{min_power},
        max_power        => $s->{max_power},
        sizes            => [ map { $_->{bytes} } @{ $s->{sizes} } ],
        iterations       => $s->{iterations},
        mode             => $s->{mode},
        rate_per_s       => $s->{rate},
        duration_s       => $s->{duration},
        flows            => $s->{flows},
        config_file      => $s->{config_file},
        config_options   => $s->{config_args},
        client_options   => $s->{client_args},
        client_program   => $programs->{client},
        keep_going       => $s->{keep_going} ? JSON::PP::true : JSON::PP::false,
    );
}

# The lines every plot script of this program opens with: its data file and
# image, a PNG terminal (pngcairo where gnuplot has it), CSV input. Both
# arguments are gnuplot strings already (gnuplot_string).
sub gnuplot_png_output {
    my ($csv, $png) = @_;
    return <<"GP";
data_file = $csv
image_file = $png

if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1000,650 noenhanced font ',10'
} else {
    set terminal png size 1000,650 noenhanced
}
set output image_file
set datafile separator comma
GP
}

sub json_codec() { return JSON::PP->new->utf8->canonical->pretty }

# A JSON number decodes to a Perl number and a JSON string to a Perl string, even
# "20"; the scalar's flags tell them apart where a pattern could not. Only freshly
# decoded values are asked: using a string as a number would give it the flag.
sub is_json_number($value) {
    return 0 if ref $value || !defined $value;
    return B::svref_2object(\$value)->FLAGS & (B::SVp_IOK | B::SVp_NOK) ? 1 : 0;
}

# Looks up a path of keys in a decoded JSON report; dies naming the path if absent,
# or naming the part that is null where an object was expected.
sub report_node($report, @keys) {
    my $node = $report;
    for my $i (0 .. $#keys) {
        die "its JSON report's '" . join('.', @keys[ 0 .. $i - 1 ]) . "' is null\n"
            if $i > 0 && !defined $node;
        die "its JSON report has no '" . join('.', @keys) . "'\n"
            unless ref $node eq 'HASH' && exists $node->{ $keys[$i] };
        $node = $node->{ $keys[$i] };
    }
    return $node;
}

# As report_node, for a number or null.
sub report_value($report, @keys) {
    my $node = report_node($report, @keys);
    die "its JSON report's '" . join('.', @keys) . "' is not a number\n"
        unless !defined $node || is_json_number($node);
    return $node;
}

# The CSV columns of a sweep in $mode ('ping-pong', 'rate' or 'throughput').
sub csv_columns($mode = 'ping-pong') {
    return $mode eq 'ping-pong' ? @CSV_COLUMNS : (@CSV_COLUMNS, @LOAD_CSV_COLUMNS);
}

# One CSV/JSON row from one client report of a run in $mode. Values are copied, never
# recomputed; null (a statistic the client could not compute, e.g. stddev of one
# sample) stays null.
sub row_from_report($report, $mode = 'ping-pong') {
    return load_row_from_report($report, $mode) if $mode ne 'ping-pong';
    my %row = map { $_ => report_value($report, @{ $COLUMN_SOURCE{$_} }) }
              grep { $COLUMN_SOURCE{$_} } @CSV_COLUMNS;
    my $below = report_value($report, qw(histogram below));
    my $above = report_value($report, qw(histogram above));
    die "its JSON report has no histogram counts\n" unless defined $below && defined $above;
    $row{outliers} = $below + $above;
    return \%row;
}

# A load run has no fixed-bin histogram, so `outliers` stays empty.
sub load_row_from_report($report, $mode) {
    my $mode_seen = report_node($report, qw(load mode));
    die "its JSON report is for mode '" . ($mode_seen // 'null') . "', not '$mode'\n"
        unless defined $mode_seen && !ref $mode_seen && $mode_seen eq $mode;
    my $kind = $LATENCY_KIND{$mode};
    my %row = (
        payload_bytes => report_value($report, @{ $COLUMN_SOURCE{payload_bytes} }),
        (map { $_ => report_value($report, 'load', "latency_$kind", $LOAD_LATENCY_SOURCE{$_}) } keys %LOAD_LATENCY_SOURCE),
        (map { $_ => report_value($report, @{ $LOAD_COLUMN_SOURCE{$_} }) } keys %LOAD_COLUMN_SOURCE),
        outliers     => undef,
        mode         => $mode,
        latency_kind => $kind,
    );
    return \%row;
}

# A client report of another format: every size would fail alike, so the sweep
# stops even with --keep-going.
sub wrong_format($message) { return bless { message => $message }, 'SctpPerf::RunSpectrum::WrongFormat' }

sub read_report($json_path, $size) {
    die "it wrote no JSON report to $json_path (does this client support --json-file?)\n"
        unless -s $json_path;
    my $report = eval { json_codec()->decode(read_text($json_path)) };
    rethrow_interrupt($@);
    die "its JSON report is not valid JSON: $@" unless defined $report;
    die "its JSON report is not an object\n" unless ref $report eq 'HASH';
    die 'its JSON report is an error report: ' . error_text($report->{error}) . "\n" if exists $report->{error};
    my $version = $report->{format_version};
    die wrong_format('its JSON report is of format_version ' . (defined $version ? error_text($version) : 'none')
                     . "; $SCRIPT_NAME reads format_version ${\ REPORT_FORMAT_VERSION} only: "
                     . 'run it with the programs of the same sctp-perf release')
        unless defined $version && !ref $version && $version eq REPORT_FORMAT_VERSION;
    my $bytes_seen = report_value($report, qw(config payload_bytes));
    die 'its JSON report is for a payload of ' . error_text($bytes_seen) . " bytes, not $size->{bytes}\n"
        unless defined $bytes_seen && !ref $bytes_seen && $bytes_seen == $size->{bytes};
    return $report;
}

# A value from a report shown in a message: a string or number as it is, anything
# else as compact JSON.
sub error_text($value) {
    return 'null' unless defined $value;
    return JSON::PP->new->canonical->allow_nonref->encode($value) if ref $value;
    my $copy = $value;
    return "$copy";
}

# What a client that failed says in the error report it writes to --json-file
# ({"error": "...", "exit_code": N}), or undef if it wrote none.
sub client_error_message($json_path) {
    return unless -s $json_path;
    my $report = eval { JSON::PP->new->utf8->decode(read_text($json_path)) };
    rethrow_interrupt($@);
    return unless ref $report eq 'HASH' && defined $report->{error};
    return error_text($report->{error});
}

# The signal named by a client's report marked interrupted ("SIGINT"), or undef.
sub client_interrupted_by($json_path) {
    return unless -s $json_path;
    my $report = eval { JSON::PP->new->utf8->decode(read_text($json_path)) };
    rethrow_interrupt($@);
    return unless ref $report eq 'HASH' && $report->{interrupted};
    my $by = $report->{interrupted_by};
    return defined $by && !ref $by ? "$by" : 'a signal';
}

sub csv_field($value) {
    return '' unless defined $value;
    my $copy = $value;    # stringify a copy, so the JSON writer still sees a plain number
    return "$copy";
}

sub csv_header($mode = 'ping-pong') { return join(',', csv_columns($mode)) . "\n" }

sub csv_line($row, $mode = 'ping-pong') {
    return join(',', map { csv_field($_) } @{$row}{ csv_columns($mode) }) . "\n";
}

sub csv_text($rows, $mode = 'ping-pong') {
    return join '', csv_header($mode), map { csv_line($_, $mode) } @$rows;
}

# spectrum.csv grows with the sweep: the header when it starts, then each row as
# its size ends, each line in one write(2) straight to the file, so a crash or a
# kill -9 leaves every finished size on disk. Nothing written is written again.
sub open_csv($path, $mode, $header = csv_header($mode)) {
    open my $fh, '>', $path or die runtime_error("cannot create $path: $!");
    append_line($fh, $path, $header);
    return $fh;
}

sub append_line($fh, $path, $text) {
    my $written = do { no warnings 'io'; syswrite $fh, $text };
    return if defined $written && $written == length $text;
    my $why = defined $written ? "wrote $written of " . length($text) . ' bytes' : "$!";
    die runtime_error("cannot write $path: $why");
}

sub json_text($document) {
    return json_codec()->encode($document);
}

# spectrum.json: the sweep's configuration, the rows as in the CSV, every run's full
# client report and the sizes that failed. %a: sweep, rows, runs, failed, and mode
# (default ping-pong), which picks the columns.
sub sweep_document(%a) {
    return {
        tool           => 'sctp-perf',
        program        => $SCRIPT_NAME,
        tool_version   => $VERSION,
        format_version => DATA_FORMAT_VERSION,
        units          => 'microseconds',
        sweep          => $a{sweep},
        columns        => [ csv_columns($a{mode} // 'ping-pong') ],
        rows           => $a{rows},
        runs           => $a{runs},
        failed         => $a{failed},
    };
}

# Writes through a temporary file and a rename, so a reader never sees half a file.
# A write that fails (a full disk) removes the temporary file and names the
# file it was for; an interrupt meanwhile removes it too.
sub write_file_atomically($path, $text) {
    my ($fh, $tmp) = eval {
        File::Temp::tempfile('.' . basename($path) . '.XXXXXX', DIR => dirname($path));
    };
    rethrow_interrupt($@);
    die runtime_error("cannot create a temporary file beside $path: " . ($@ =~ s/ at .*//sr))
        unless $fh;
    my $written = eval {
        chmod 0666 & ~umask, $tmp;    # tempfile makes it private; results are ordinary files
        # Quietly: a failed print is reported below, in a sentence, not as a warning.
        no warnings 'io';
        print {$fh} $text or die "$!\n";
        close $fh or die "$!\n";
        rename $tmp, $path or die "$!\n";
        1;
    };
    if (!$written) {
        my $error = $@;
        close $fh;
        unlink $tmp;
        rethrow_interrupt($error);
        chomp $error;
        die runtime_error("cannot write $path: $error");
    }
    return;
}

sub size_label($bytes) {
    return $bytes % 1024 == 0 ? ($bytes / 1024) . 'K' : "$bytes";
}

sub gnuplot_string($text) {
    (my $quoted = $text) =~ s/'/''/g;
    return "'$quoted'";
}

# The plot's y axis: which latency the CSV's latency columns hold in $mode.
sub latency_label($mode = 'ping-pong') {
    return {
        'ping-pong' => 'round-trip latency',
        rate        => 'corrected round-trip latency, from each message\'s due time',
        throughput  => 'uncorrected round-trip latency, from the actual send',
    }->{$mode};
}

# A gnuplot script that reads spectrum.csv and writes spectrum.png from the directory
# it is run in. %a: title, payload_bytes (list for the x tics), mode (default
# ping-pong; it names the latency on the y axis).
sub gnuplot_script(%a) {
    my @sizes = @{ $a{payload_bytes} };
    my $xtics = join ', ', map { gnuplot_string(size_label($_)) . " $_" } @sizes;
    my $title = gnuplot_string($a{title});
    my $ylabel = gnuplot_string(latency_label($a{mode} // 'ping-pong') . ' (microseconds, log10 scale)');
    my ($csv, $png) = map { gnuplot_string($_) } @OUTPUT_NAME{qw(csv png)};
    return <<"GP";
# Written by $SCRIPT_NAME. Restyle freely and redraw with: gnuplot $OUTPUT_NAME{gnuplot}
# (run it in the directory that holds $OUTPUT_NAME{csv}).
# Both axes are logarithmic: x on a log2 scale (payload bytes, a tic at each size), y in powers of ten
# (round-trip latency in microseconds).
${\ gnuplot_png_output($csv, $png) }set title $title noenhanced
set xlabel 'payload size (bytes, log2 scale)'
set ylabel $ylabel
set logscale x 2
set logscale y 10
# Half a power of two of room on either side, so the end points are not on the frame.
set xrange [$sizes[0] / sqrt(2) : $sizes[-1] * sqrt(2)]
set xtics ($xtics)
set grid xtics ytics mytics
set key outside right top vertical
set style data linespoints

plot data_file using 'payload_bytes':'min_us' title 'min' pointtype 7, \\
     ''        using 'payload_bytes':'p50_us' title 'p50 (median)' pointtype 5, \\
     ''        using 'payload_bytes':'p99_us' title 'p99' pointtype 9, \\
     ''        using 'payload_bytes':'max_us' title 'max' pointtype 11
GP
}

# Values are copied before they are put in the text: a number once used as a string
# would be written to spectrum.json as a string. The title ends with where the
# programs ran (placement_text), which moves the figures as much as the options do.
sub plot_title($sweep, $rows, $runs) {
    my $report = @$runs ? $runs->[0]{report} : {};
    my $config = $report->{config} // {};
    my $transport = uc($config->{transport} // $sweep->{transport});
    my $service   = $config->{service} // $sweep->{service};
    my $hosts     = $config->{server_hosts};
    my $host      = (ref $hosts eq 'ARRAY' && @$hosts ? join(',', @$hosts) : undef)
                 // $sweep->{server_host} // 'the default host';
    my $mode      = $sweep->{mode} // 'ping-pong';
    my $placement = placement_text($sweep->{client_cpu}, $sweep->{server_cpu}, $sweep->{started_server});
    if ($mode eq 'ping-pong') {
        my $iters = $rows->[0]{iterations} // $sweep->{iterations};
        return "sctp-perf round-trip latency: $transport $service to $host, "
             . (defined $iters ? "$iters iterations per size" : 'client default iterations') . ", $placement";
    }
    # In a load run the row's iterations are the latency samples, not the count asked for.
    my $load     = ref $report->{load} eq 'HASH' ? $report->{load} : {};
    my $rate     = $sweep->{rate_per_s} // $load->{rate_asked_per_s};
    my $flows    = $load->{flows} // $sweep->{flows};
    my $duration = $sweep->{duration_s};
    my $iters    = $sweep->{iterations};
    my @parts = (
        $mode eq 'rate' ? 'rate mode, ' . ($rate // '?') . ' messages/s per flow'
                        : 'throughput mode, as fast as the transport accepts',
        defined $flows    ? ($flows == 1 ? '1 flow' : "$flows flows")
                          : 'client default flows',
        defined $duration ? "$duration s per size"
      : defined $iters    ? "$iters iterations per size"
                          : 'client default length',
        $placement,
    );
    return "sctp-perf latency under load: $transport $service to $host, " . join(', ', @parts);
}

# Runs gnuplot on the kept script. Returns 1 if the image was drawn, 0 if gnuplot
# is not installed; dies if gnuplot fails.
sub draw_plot($output_dir, $work_dir, $names = \%OUTPUT_NAME) {
    my $plot = start_plot($output_dir, $work_dir, $names) // return 0;
    return finish_plot($plot);
}

# The two halves of draw_plot, so a sweep can write spectrum.json and stop the
# server while gnuplot draws. start_plot returns what finish_plot needs, or undef
# if gnuplot is not installed. $names: the file names, { gnuplot, png }.
sub start_plot($output_dir, $work_dir, $names = \%OUTPUT_NAME) {
    my $gnuplot = find_in_path('gnuplot');
    if (!defined $gnuplot) {
        note("gnuplot not found in PATH, so no $names->{png}; the data files are written. "
             . "Install gnuplot-nox and run 'gnuplot $names->{gnuplot}' in $output_dir to draw it");
        return;
    }
    my $log = File::Spec->catfile($work_dir, 'gnuplot.log');
    my $pid = spawn([ $gnuplot, $names->{gnuplot} ], stdout => $log, dir => $output_dir);
    return { pid => $pid, log => $log, output_dir => $output_dir, png => $names->{png},
             deadline => Time::HiRes::time() + GNUPLOT_TIMEOUT_S };
}

sub finish_plot($plot) {
    my $left_s = $plot->{deadline} - Time::HiRes::time();
    my $status = wait_child($plot->{pid}, $left_s > 0 ? $left_s : 0);
    if (!defined $status) {
        stop_child($plot->{pid});
        die runtime_error("gnuplot did not finish within ${\ GNUPLOT_TIMEOUT_S} s");
    }
    my $png = File::Spec->catfile($plot->{output_dir}, $plot->{png});
    die runtime_error("gnuplot " . describe_status($status) . " drawing $png; its output:\n"
                      . tail_lines(read_text($plot->{log})))
        if $status != 0 || !-s $png;
    return 1;
}

# ---------------------------------------------------------------------------
# The sweep

sub timestamp(@time) {
    return POSIX::strftime('%Y%m%dT%H%M%S', @time ? @time : localtime);
}

sub iso_utc() { return POSIX::strftime('%Y-%m-%dT%H:%M:%SZ', gmtime) }

# One line per finished size: p50 and max, and in a load mode which latency they are,
# the rate each flow achieved and the messages lost.
sub progress_line($row, $number, $count) {
    my $us = sub ($value) { return defined $value ? sprintf('%.1f', $value) : 'n/a' };
    my $line = sprintf '[%d/%d] %6d bytes: p50 %s us, max %s us', $number, $count, $row->{payload_bytes},
                       map { $us->($_) } @{$row}{qw(p50_us max_us)};
    return $line unless defined $row->{latency_kind};
    my $lost = $row->{messages_lost};    # a copy: the row's own number must stay a number
    return sprintf '%s %s; %s messages/s per flow, %s lost', $line, $row->{latency_kind},
                   $us->($row->{rate_achieved_per_s}), $lost // 'n/a';
}

# The client's advice names the client's options ("measure TCP instead with
# '-t tcp'"), but whoever reads it ran run_spectrum.pl, which sets those options
# itself from its own: the advice is given in the script's terms.
sub in_script_terms($text) {
    # SOCK_SEQPACK_clt sends TCP to the other pair of programs.
    $text =~ s{\bSOCK_STREAM_clt/SOCK_STREAM_srv -t (tcp|sctp)\b}{--service stream --protocol $1}g;
    $text =~ s{(?<![\w-])(?:-t|--test[-_]transport[-_]protocol) (tcp|sctp)\b}{--protocol $1}g;
    return $text;
}

# What to do about a client failure the script recognises in $text (the client's
# error and stderr), in the script's options: { text, every_size } or nothing.
# `every_size` marks a failure no later size can escape, so the sweep stops even
# with --keep-going.
sub failure_advice($s, $text) {
    if ($text =~ /no SCTP support/) {
        my $tcp = $s->{service} eq 'seqpack' ? '--service stream --protocol tcp' : '--protocol tcp';
        return { every_size => 1,
                 text => "this kernel has no SCTP: load it with 'modprobe sctp', or sweep TCP with $tcp" };
    }
    # A server the script started and lost is reported with its own log instead.
    if (!$s->{start_server} && $text =~ /connection refused/i) {
        my (undef, $server) = program_names($s->{service});
        return { every_size => 0,
                 text => "no server answered: start $server where the client looks for it, "
                       . 'or add --start-server to have run_spectrum.pl start one on loopback' };
    }
    return;
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

# A client run that failed ($error: why its report is no row, or its exit status):
# says so with the client's error and stderr, what became of a server the script
# started, and advice of the script's own. $run: client_name, label, status, json,
# err, and later_sizes (whether sizes are left to run). Returns { reason, stop }:
# stop is the exit status of a sweep that cannot go on whatever --keep-going says,
# or undef.
sub client_failure($s, $state, $error, $run) {
    my ($client_name, $status) = @{$run}{qw(client_name status)};
    my $wrong_format = ref $error eq 'SctpPerf::RunSpectrum::WrongFormat';
    chomp(my $reason = "$client_name " . ($status == 0 ? 'exited with status 0 but ' : '')
                       . ($wrong_format ? $error->{message} : $error));
    if ($status != 0 && defined(my $said = client_error_message($run->{json}))) {
        $reason .= ': ' . in_script_terms($said);
    } elsif ($status != 0 && defined(my $by = client_interrupted_by($run->{json}))) {
        $reason .= ": $by from outside the sweep cut its run short; its partial report is not a row";
    }
    my $stderr = read_text($run->{err});
    my $shown = in_script_terms($stderr);
    my $message = "$run->{label} failed: $reason; its stderr"
                . ($shown eq $stderr ? '' : ", its advice in run_spectrum.pl's options")
                . ":\n" . tail_lines($shown);
    my $server_gone;
    for my $server (@{ $state->{servers} }) {
        my $gone = wait_child($server->{pid}, 0) // next;
        $server_gone = "$server->{name}, which the sweep started, " . describe_status($gone);
        $message .= "$server_gone; its log:\n" . tail_lines(read_text($server->{log}));
        $server->{gone} = 1;
    }
    @{ $state->{servers} } = grep { !$_->{gone} } @{ $state->{servers} };
    note($message);
    my $advice = failure_advice($s, "$reason\n$stderr");
    note($advice->{text}) if $advice && !$state->{advised}{ $advice->{text} }++;
    my %failure = (reason => $reason);
    if ($status != -1 && ($status & 127) == 0 && ($status >> 8) == 2) {
        note("$client_name rejected its options; every size would fail the same way, so the sweep stops");
        $failure{stop} = 2;
    } elsif ($wrong_format || ($advice && $advice->{every_size})) {
        note("every size would fail the same way, so the sweep stops");
        $failure{stop} = 1;
    } elsif ($server_gone && $run->{later_sizes}) {
        # Each later size would only fail to connect, each with a message that no
        # longer says why; the sweep stops even with --keep-going.
        note("$server_gone: no later size can run, so the sweep stops");
        $failure{stop} = 1;
    }
    return \%failure;
}

# Runs the client once per size. Appends each success to the .spectrum file,
# spectrum.csv, $state->{rows} and {runs}, each failure to {failed}. Returns the
# exit status of a sweep that stops early, or undef when it went through every
# size. Its work per size does not grow with the sizes done: the files are
# appended to, never reread, and nothing is encoded twice.
sub sweep_sizes($s, $programs, $work_dir, $state) {
    my $client_name = basename($programs->{client});
    my @sizes = @{ $s->{sizes} };
    my $spectrum;    # the .spectrum file, opened when the first size succeeds
    for my $at (0 .. $#sizes) {
        my $size = $sizes[$at];
        my ($power, $bytes) = @{$size}{qw(power bytes)};
        my $label = size_text($size);
        my $key = size_key($s, $size);
        my %file = map { $_ => File::Spec->catfile($work_dir, "client-$key.$_") } qw(json out err);
        my @cmd = client_command($s, $programs->{client}, $size, $file{json});
        # The size an interrupt would cut short, until its row or failure is recorded.
        $state->{current} = { payload_power_of_2 => $power, payload_bytes => $bytes, label => $label,
                              command => \@cmd, json => $file{json} };
        my $pid = spawn(\@cmd, stdout => $file{out}, stderr => $file{err}, pid_to => \$state->{current}{pid});
        my $status = $state->{current}{status} = wait_child($pid);

        my ($report, $row);
        my $ok = eval {
            die describe_status($status) . "\n" if $status != 0;
            $report = read_report($file{json}, $size);
            $row    = row_from_report($report, $s->{mode});
            1;
        };
        if (!$ok) {
            my $error = $@;
            rethrow_interrupt($error);
            my $failure = client_failure($s, $state, $error,
                                         { client_name => $client_name, label => $label, status => $status,
                                           json => $file{json}, err => $file{err},
                                           later_sizes => $at < $#sizes });
            push @{ $state->{failed} }, { payload_power_of_2 => $power, payload_bytes => $bytes,
                                          command => \@cmd, reason => $failure->{reason} };
            delete $state->{current};
            return $failure->{stop} if defined $failure->{stop};
            return 1 unless $s->{keep_going};
            next;
        }
        if (!$spectrum) {
            open $spectrum, '>>', $state->{spectrum_path}
                or die runtime_error("cannot append to $state->{spectrum_path}: $!");
        }
        append_line($spectrum, $state->{spectrum_path}, read_text($file{out}));
        append_line($state->{csv}, $state->{csv_path}, csv_line($row, $s->{mode}));
        push @{ $state->{rows} }, $row;
        push @{ $state->{runs} }, { payload_power_of_2 => $power, payload_bytes => $bytes, command => \@cmd,
                                    report => $report };
        delete $state->{current};
        note(progress_line($row, $at + 1, scalar @sizes));
    }
    return;
}

# The signal passed on to a client for the one the script got. The client stops
# its measurement and reports it on SIGINT or SIGTERM; SIGHUP would end it at once.
my %PASSED_ON = (INT => 'INT', TERM => 'TERM', HUP => 'TERM');

# An interrupt came while $current (from sweep_sizes) ran: passes the script's
# signal on to its client, once, so that the client ends as it does when a user
# stops it (its report written, marked interrupted, exit 128 + the signal), and
# waits for it within the grace, then SIGKILL. Its partial report is not a row of
# the table. Says what became of the size; returns that for spectrum.json.
sub stop_interrupted_client($current, $signal, $client_name) {
    my %size = (payload_power_of_2 => $current->{payload_power_of_2}, payload_bytes => $current->{payload_bytes},
                command => $current->{command}, signal_passed_on => undef, client_ended => undef,
                client_report_interrupted_by => undef);
    my $pid = $current->{pid};
    # The client may have ended as the interrupt came: given the same signal by
    # whoever sent it (a kill naming both), or waited for just before. Then there is
    # nothing to pass on; a wait status lost to the interrupt is left unknown.
    my $status = !defined $pid             ? undef
               : exists $children{$pid}    ? wait_child($pid, 0)
               :                             $current->{status} // -1;
    my $said;
    if (!defined $pid) {
        $said = "$client_name had not started";
    } elsif (!defined $status) {
        my $passed = $PASSED_ON{$signal};
        $size{signal_passed_on} = "SIG$passed";
        $size{client_ended} = describe_status(signal_child($pid, $passed));
        $said = "$client_name was given SIG$passed once and $size{client_ended}";
    } else {
        $size{client_ended} = describe_status($status) if $status != -1;
        $said = "$client_name had ended" . ($status != -1 ? ": it $size{client_ended}" : '');
    }
    if (defined $pid) {
        $size{client_report_interrupted_by} = client_interrupted_by($current->{json});
        $said .= defined $size{client_report_interrupted_by} ? ', its report marked interrupted' : ', with no report';
    }
    # A compared run says what its loss means for its size (fate, with %s for 'partial and ').
    my $partial = defined $size{signal_passed_on} ? 'partial and ' : '';
    my $fate = defined $current->{fate} ? sprintf($current->{fate}, $partial) : "that size is ${partial}not in the table";
    $size{$_} = $current->{$_} for grep { exists $current->{$_} } qw(side round);
    note("interrupted by SIG$signal during $current->{label}: $said; $fate");
    return \%size;
}

sub run_sweep($s, $programs, $work_dir) {
    my $out = $s->{output_dir};
    my %path = map { $_ => File::Spec->catfile($out, $OUTPUT_NAME{$_}) } keys %OUTPUT_NAME;
    unlink values %path;    # what is left in the directory afterwards belongs to this sweep
    my $spectrum_name = timestamp() . '.spectrum';
    my %state = (rows => [], runs => [], failed => [], servers => [], csv_path => $path{csv},
                 spectrum_path => File::Spec->catfile($out, $spectrum_name));
    start_sweep_server($s, $programs, $work_dir, \%state);
    my $sweep = sweep_settings($s, $programs, $spectrum_name);
    # spectrum.json holds every run's full report, so it is written once, when the
    # sweep ends, however it ends; rewritten after every size, its encoding grew with
    # the sizes done until it took more time than the runs themselves.
    my $write_json = sub {
        $sweep->{finished_at} = iso_utc();
        write_file_atomically($path{json}, json_text(sweep_document(
            sweep => $sweep, rows => $state{rows}, runs => $state{runs}, failed => $state{failed},
            mode  => $s->{mode})));
    };
    note(placement_note($s));

    my ($stop_status, $plot);
    my $swept = eval {
        $state{csv} = open_csv($path{csv}, $s->{mode});
        $stop_status = sweep_sizes($s, $programs, $work_dir, \%state);
        close $state{csv} or die runtime_error("cannot write $path{csv}: $!");
        # gnuplot draws while the server stops and spectrum.json is written.
        $plot = start_sweep_plot($s, $sweep, \%state, $path{gnuplot}, $work_dir);
        stop_server($_) for @{ $state{servers} };
        $write_json->();
        1;
    };
    keep_after_error(error => $@, doc => $sweep, cut_short => 'interrupted_size', state => \%state,
                     client_name => basename($programs->{client}), write_json => $write_json,
                     json_path => $path{json}) unless $swept;
    finish_plot($plot) if $plot;

    note('wrote ' . join(', ', grep { -e File::Spec->catfile($out, $_) }
                         $spectrum_name, @OUTPUT_NAME{qw(csv json gnuplot png)}) . " in $out");
    my @failed = @{ $state{failed} };
    return 0 unless @failed;
    note('failed sizes: ' . join(', ', map { size_text({ power => $_->{payload_power_of_2}, bytes => $_->{payload_bytes} }) =~ s/\Apayload //r } @failed));
    return $stop_status // 1;
}

# With --start-server: the server, whose port (and loopback, unless --host) the
# clients are given.
sub start_sweep_server($s, $programs, $work_dir, $state) {
    return unless $s->{start_server};
    $state->{servers} = [ start_server($s, $programs->{server}, $work_dir) ];
    $s->{port} = $state->{servers}[0]{port};
    $s->{host} //= '127.0.0.1';
    return;
}

# The sweep's settings for spectrum.json; the times and the interrupt are filled
# in as it ends.
sub sweep_settings($s, $programs, $spectrum_name) {
    return {
        service          => $s->{service},
        transport        => $s->{protocol},
        server_host      => $s->{host},
        server_port      => $s->{port},
        run_settings_json($s, $programs),
        spectrum_file    => $spectrum_name,
        started_at       => iso_utc(),
        finished_at      => undef,
        interrupted_by   => undef,
        interrupted_size => undef,
    };
}

# Writes spectrum.gp for the rows measured and, unless --no-plot, starts gnuplot
# on it; returns what finish_plot needs, or undef (also when no row was measured).
sub start_sweep_plot($s, $sweep, $state, $gnuplot_path, $work_dir) {
    my @rows = @{ $state->{rows} };
    return unless @rows;
    write_file_atomically($gnuplot_path, gnuplot_script(
        title         => plot_title($sweep, \@rows, $state->{runs}),
        payload_bytes => [ map { $_->{payload_bytes} } @rows ],
        mode          => $s->{mode}));
    return $s->{plot} ? start_plot($s->{output_dir}, $work_dir) : undef;
}

# After an error or an interrupt ends a sweep or a comparison: keeps what it had
# done, and dies with the error again. An interrupt is recorded in the settings
# `doc` (interrupted_by, and under `cut_short` what became of the client run it
# cut short, state->{current}); every child is stopped, the JSON file written
# (write_json, to json_path) and `also` called. A second Ctrl-C must not cut that
# short.
sub keep_after_error(%a) {
    my $error = $a{error};
    local @SIG{qw(INT TERM HUP)} = ('IGNORE') x 3;
    if (ref $error eq 'SctpPerf::RunSpectrum::Interrupted') {
        $a{doc}{interrupted_by} = "SIG$error->{signal}";
        $a{doc}{ $a{cut_short} } = stop_interrupted_client($a{state}{current}, $error->{signal}, $a{client_name})
            if $a{state}{current};
    }
    stop_all_children();
    eval { $a{write_json}->(); 1 } or note(ref $@ ? $@->{message} : "cannot write $a{json_path}: $@");
    $a{also}->() if $a{also};
    die $error;
}

# ---------------------------------------------------------------------------
# Interleaved comparison (--compare 'OPTIONS A' 'OPTIONS B')
#
# For every size, --repeat rounds, each running A's client once and then B's, so
# that a drift of the machine over the minutes of a comparison (other work, the
# CPU's clock) falls on both sides alike instead of on the side run last. Each
# run's report is kept in OUTPUT-DIR/compare/BYTES/a or .../b; once a size's
# rounds are done, sctp-perf-compare compares the two directories and the script
# copies its figures into compare.csv and compare.json. As in the sweep, the
# script computes no statistic itself.

my %COMPARE_OUTPUT_NAME = (
    csv     => 'compare.csv',
    json    => 'compare.json',
    gnuplot => 'compare.gp',
    png     => 'compare.png',
    runs    => 'compare',    # a directory: BYTES/a/run-K.json, BYTES/b/run-K.json
);

# compare.csv: one row per size and percentile, every figure sctp-perf-compare's.
our @COMPARE_CSV_COLUMNS = qw(payload_bytes percentile a_median_us b_median_us ratio ratio_low ratio_high
                              p_value verdict a_runs b_runs);

# The percentiles the plot draws, with the offset of each on the x axis (in powers
# of two), so that the intervals of one size stand side by side.
my @COMPARE_PLOTTED = ([ p50 => -0.06, 'p50 (median)' ], [ p99 => 0.06, 'p99' ]);

# The rows of compare.csv for one size from sctp-perf-compare's JSON output: values
# copied, never recomputed.
sub compare_rows($doc, $bytes) {
    my $percentiles = $doc->{percentiles};
    die "its JSON output has no list of percentiles\n" unless ref $percentiles eq 'ARRAY' && @$percentiles;
    my %runs = map { $_ => report_value($doc, $_, 'runs') } qw(a b);
    return [ map {
        my $p = $_;
        +{ payload_bytes => $bytes,
           percentile    => error_text(report_node($p, 'percentile')),
           a_median_us   => report_value($p, qw(a median_us)),
           b_median_us   => report_value($p, qw(b median_us)),
           (map { $_ => report_value($p, $_) } qw(ratio ratio_low ratio_high p_value)),
           verdict       => error_text(report_node($p, 'verdict')),
           a_runs        => $runs{a},
           b_runs        => $runs{b} }
    } @$percentiles ];
}

sub compare_csv_line($row) {
    return join(',', map { csv_field($_) } @{$row}{@COMPARE_CSV_COLUMNS}) . "\n";
}

# A p-value as sctp-perf-compare's table shows it.
sub p_value_text($p) {
    return 'n/a' unless defined $p;
    return $p < 1e-4 ? '<0.0001' : sprintf '%.2g', $p;
}

# The words of a list, each once, in the order first seen.
sub distinct(@words) {
    my %seen;
    return grep { !$seen{$_}++ } @words;
}

# The comparison as a table for stdout: the two sides, one line per size and
# percentile, then what sctp-perf-compare said of the sides (their differences,
# which it compared all the same, and its warnings). $sizes: as in compare.json.
sub compare_table_text($compare, $sizes) {
    my $confidence = @$sizes ? $sizes->[0]{comparison}{method}{confidence_percent} // 95 : 95;
    my $options = sub ($side) { return $side->{options_text} eq '' ? "'' (the client's defaults)" : $side->{options_text} };
    my @lines = ('A: ' . $options->($compare->{a}), 'B: ' . $options->($compare->{b}),
                 "$compare->{repeat} runs of each side per size, interleaved A B A B ...; "
                 . 'B/A is the ratio of the medians over the runs');
    my @table = ([ 'payload bytes', 'percentile', 'A median us', 'B median us', 'B/A',
                   "$confidence % interval of B/A", 'U test p', 'verdict for B' ]);
    for my $size (@$sizes) {
        push @table, map {
            [ $_->{payload_bytes}, $_->{percentile}, sprintf('%.3f', $_->{a_median_us}), sprintf('%.3f', $_->{b_median_us}),
              sprintf('%.3f', $_->{ratio}), sprintf('[%.3f, %.3f]', $_->{ratio_low}, $_->{ratio_high}),
              p_value_text($_->{p_value}), $_->{verdict} ]
        } @{ $size->{rows} };
    }
    my @widths = map { my $i = $_; (sort { $b <=> $a } map { length $_->[$i] } @table)[0] } 0 .. 7;
    push @lines, '', map {
        my $cells = $_;
        join('  ', (map { sprintf $_ == 1 ? '%-*s' : '%*s', $widths[$_], $cells->[$_] } 0 .. 6), $cells->[7])
    } @table;
    push @lines, '(no size was compared)' unless @$sizes;
    my @differences = distinct(map { @{ $_->{comparison}{differences} // [] } } @$sizes);
    push @lines, '', @differences
        ? 'differences named by sctp-perf-compare, compared all the same (--allow-different): '
          . join('; ', @differences)
        : 'differences named by sctp-perf-compare: none (same service, transport, mode, payload and reply size)';
    push @lines, map { "warning: $_" } distinct(map { @{ $_->{comparison}{warnings} // [] } } @$sizes);
    return join("\n", @lines) . "\n";
}

# To stdout, at once: a script that ends by its signal leaves no buffer to flush.
sub print_text($text) {
    local $| = 1;
    print $text or die runtime_error("cannot write to standard output: $!");
    return;
}

# compare.gp: draws compare.png from compare.csv, in the directory it is run in.
# %a: title, payload_bytes (the sizes compared), threshold_percent, confidence_percent.
sub compare_gnuplot_script(%a) {
    my @sizes = @{ $a{payload_bytes} };
    my $xtics = join ', ', map { gnuplot_string(size_label($_)) . " $_" } @sizes;
    my ($csv, $png) = map { gnuplot_string($_) } @COMPARE_OUTPUT_NAME{qw(csv png)};
    my $threshold = $a{threshold_percent} / 100;
    my @plots = map {
        my ($percentile, $shift, $label) = @$_;
        "data_file using (column('payload_bytes') * 2**($shift)):"
        . "(strcol('percentile') eq '$percentile' ? column('ratio') : NaN):'ratio_low':'ratio_high' "
        . "with yerrorlines pointtype 7 title " . gnuplot_string("$label, with its $a{confidence_percent} % interval")
    } @COMPARE_PLOTTED;
    my $plot = join ", \\\n     ", @plots,
        "1 with lines dashtype 2 linecolor 'black' title 'B/A = 1: no difference'",
        "1 + $threshold with lines dashtype 3 linecolor 'gray40' title "
        . gnuplot_string("noise threshold, 1 +/- $a{threshold_percent} %"),
        "1 - $threshold with lines dashtype 3 linecolor 'gray40' notitle";
    return <<"GP";
# Written by $SCRIPT_NAME. Restyle freely and redraw with: gnuplot $COMPARE_OUTPUT_NAME{gnuplot}
# (run it in the directory that holds $COMPARE_OUTPUT_NAME{csv}).
# x: payload bytes, log2 scale; y: the ratio B/A of the medians over the runs, with
# its interval as error bars. Each percentile's points are shifted a little along x
# so that the bars of one size do not cover each other.
${\ gnuplot_png_output($csv, $png) }set datafile missing NaN
set title ${\ gnuplot_string($a{title}) } noenhanced
set xlabel 'payload size (bytes, log2 scale)'
set ylabel 'B/A: median of B over median of A (1 = the same; above 1, B is slower)'
set logscale x 2
set xrange [$sizes[0] / sqrt(2) : $sizes[-1] * sqrt(2)]
set xtics ($xtics)
set grid xtics ytics
set key below

plot $plot
GP
}

sub compare_plot_title($s) {
    my ($a, $b) = map { $_->{text} eq '' ? "(the client's defaults)" : $_->{text} } @{ $s->{sides} };
    my $placement = placement_text($s->{client_cpu}, $s->{server_cpu}, $s->{start_server});
    return "sctp-perf B/A per payload size: A $a, B $b; $s->{repeat} runs of each, interleaved; $placement";
}

# With --start-server, the server each side needs (server_command mirrors its
# transport and Nagle): one when A and B need the same, else one for each, both
# running from the start to the end, so that no run waits for a server to start.
# Each side's settings get the host and port of its server.
sub start_compare_servers($s, $programs, $work_dir, $state) {
    return unless $s->{start_server};
    my %by_command;
    for my $side (@{ $s->{sides} }) {
        my $settings = $side->{settings};
        my $key = join "\0", server_command($settings, $programs->{server});
        my $server = $by_command{$key} //= do {
            my $started = start_server($settings, $programs->{server}, $work_dir, 'server-' . lc($side->{name}) . '.log');
            push @{ $state->{servers} }, $started;
            $started;
        };
        $settings->{port} = $server->{port};
        $settings->{host} //= '127.0.0.1';
    }
    return;
}

# One run of one side: its client, round $at{round} of 2^$at{power}. A report that
# reads well is kept as side_dir/run-ROUND.json. Returns { report, file, command },
# or { failure } (client_failure's) after recording it in $state->{failed}.
sub run_side_once($s, $side, $programs, $state, %at) {
    my ($size, $round, $name) = ($at{size}, $at{round}, $side->{name});
    my ($power, $bytes) = @{$size}{qw(power bytes)};
    my $label = size_text($size) . ", run $round of $s->{repeat} of $name";
    my $key = size_key($s, $size);
    my $stem = File::Spec->catfile($at{work_dir}, "client-$key-$round-\L$name");
    my %file = map { $_ => "$stem.$_" } qw(json out err);
    my @cmd = client_command($side->{settings}, $programs->{client}, $size, $file{json});
    my $compared = defined $power ? "2^$power" : bytes_text($bytes);
    $state->{current} = { payload_power_of_2 => $power, payload_bytes => $bytes, side => $name, round => $round,
                          label => $label, command => \@cmd, json => $file{json},
                          fate => "that run is %snot kept, and $compared is not compared" };
    my $pid = spawn(\@cmd, stdout => $file{out}, stderr => $file{err}, pid_to => \$state->{current}{pid});
    my $status = $state->{current}{status} = wait_child($pid);
    my $report;
    my $ok = eval {
        die describe_status($status) . "\n" if $status != 0;
        $report = read_report($file{json}, $size);
        1;
    };
    if ($ok) {
        my $kept = File::Spec->catfile($at{side_dir}, "run-$round.json");
        write_file_atomically($kept, read_text($file{json}));
        delete $state->{current};
        return { report => $report, file => $kept, command => \@cmd };
    }
    my $error = $@;
    rethrow_interrupt($error);
    my $failure = client_failure($s, $state, $error,
                                 { client_name => basename($programs->{client}), label => $label, status => $status,
                                   json => $file{json}, err => $file{err}, later_sizes => $at{later_sizes} });
    push @{ $state->{failed} }, { payload_power_of_2 => $power, payload_bytes => $bytes, side => $name,
                                  round => $round, command => \@cmd, reason => $failure->{reason} };
    delete $state->{current};
    return { failure => $failure };
}

# sctp-perf-compare over the runs of one size, A against B. Fills $size->{comparison}
# (its JSON output) and {rows}; returns 1, or 0 after recording why it failed.
sub compare_one_size($programs, $work_dir, $state, $size) {
    my $power = $size->{payload_power_of_2};
    my $key = defined $power ? $power : "$size->{payload_bytes}B";
    my %file = map { $_ => File::Spec->catfile($work_dir, "compare-$key.$_") } qw(json err);
    # The sides differ on purpose, perhaps in transport: the differences it names go
    # into the table.
    my @cmd = ($programs->{compare}, '--a', $size->{dirs}{A}, '--b', $size->{dirs}{B}, '--allow-different',
               '--format', 'json');
    my $status = wait_child(spawn(\@cmd, stdout => $file{json}, stderr => $file{err}));
    my $ok = eval {
        die describe_status($status) . "\n" if $status != 0;
        my $doc = eval { json_codec()->decode(read_text($file{json})) };
        rethrow_interrupt($@);
        die "its output is not a JSON object\n" unless ref $doc eq 'HASH';
        $size->{rows} = compare_rows($doc, $size->{payload_bytes});
        $size->{comparison} = $doc;
        1;
    };
    return 1 if $ok;
    my $error = $@;
    rethrow_interrupt($error);
    chomp(my $reason = basename($programs->{compare}) . " $error");
    note('comparing ' . size_text({ power => $power, bytes => $size->{payload_bytes} }) . " failed: $reason; its stderr:\n"
         . tail_lines(read_text($file{err})));
    push @{ $state->{failed} }, { payload_power_of_2 => $power, payload_bytes => $size->{payload_bytes},
                                  command => \@cmd, reason => $reason };
    return 0;
}

# One progress line per compared size: B/A with its interval and the verdict at the
# percentiles plotted.
sub compare_progress_line($size, $number, $count) {
    my %row = map { $_->{percentile} => $_ } @{ $size->{rows} };
    return sprintf '[%d/%d] %6d bytes: %s', $number, $count, $size->{payload_bytes}, join '; ', map {
        my $r = $row{ $_->[0] };
        $r ? sprintf('%s B/A %.3f [%.3f, %.3f] %s', $_->[0], @{$r}{qw(ratio ratio_low ratio_high verdict)}) : ()
    } @COMPARE_PLOTTED;
}

# Runs the rounds of every size and compares each size. Appends each compared size
# to compare.csv and $state->{sizes}, each failure to {failed}. Returns the exit
# status of a comparison that stops early, or undef when it went through every size.
sub compare_sizes($s, $programs, $work_dir, $state) {
    my @sizes = @{ $s->{sizes} };
    SIZE: for my $at (0 .. $#sizes) {
        my ($power, $bytes) = @{ $sizes[$at] }{qw(power bytes)};
        my %dirs = map { $_ => File::Spec->catdir($state->{runs_dir}, $bytes, lc $_) } qw(A B);
        make_path(values %dirs, { error => \my $mkdir_errors });
        die runtime_error("cannot create $dirs{A} and $dirs{B}: " . join('; ', map { values %$_ } @$mkdir_errors))
            if grep { !-d } values %dirs;
        my %size = (payload_power_of_2 => $power, payload_bytes => $bytes, dirs => \%dirs, runs => []);
        for my $round (1 .. $s->{repeat}) {
            my @said;
            for my $side (@{ $s->{sides} }) {
                my $run = run_side_once($s, $side, $programs, $state, size => $sizes[$at], round => $round,
                                        work_dir => $work_dir, side_dir => $dirs{ $side->{name} },
                                        later_sizes => $at < $#sizes);
                if (my $failure = $run->{failure}) {
                    return $failure->{stop} if defined $failure->{stop};
                    return 1 unless $s->{keep_going};
                    next SIZE;
                }
                push @{ $size{runs} }, { round => $round, side => $side->{name}, command => $run->{command},
                                         report_file => File::Spec->abs2rel($run->{file}, $s->{output_dir}) };
                my $p50 = $run->{report}{percentiles}{p50_us};
                push @said, "$side->{name} p50 " . (defined $p50 ? sprintf('%.1f us', $p50) : 'n/a');
            }
            note(sprintf '%6d bytes, round %d of %d: %s', $bytes, $round, $s->{repeat}, join(', ', @said));
        }
        if (!compare_one_size($programs, $work_dir, $state, \%size)) {
            return 1 unless $s->{keep_going};
            next SIZE;
        }
        append_line($state->{csv}, $state->{csv_path}, compare_csv_line($_)) for @{ $size{rows} };
        push @{ $state->{sizes} }, \%size;
        note(compare_progress_line(\%size, $at + 1, scalar @sizes));
    }
    return;
}

# compare.json: the comparison's settings, the rows as in the CSV, and for every
# size compared its runs (each report's file under the output directory) and
# sctp-perf-compare's whole output.
sub compare_document(%a) {
    my $out = $a{output_dir};
    return {
        tool           => 'sctp-perf',
        program        => $SCRIPT_NAME,
        tool_version   => $VERSION,
        format_version => COMPARE_FORMAT_VERSION,
        units          => 'microseconds',
        compare        => $a{compare},
        columns        => [@COMPARE_CSV_COLUMNS],
        rows           => [ map { @{ $_->{rows} } } @{ $a{sizes} } ],
        sizes          => [ map {
            +{ payload_power_of_2 => $_->{payload_power_of_2}, payload_bytes => $_->{payload_bytes},
               a_dir => File::Spec->abs2rel($_->{dirs}{A}, $out), b_dir => File::Spec->abs2rel($_->{dirs}{B}, $out),
               runs => $_->{runs}, comparison => $_->{comparison} }
        } @{ $a{sizes} } ],
        failed         => $a{failed},
    };
}

# The comparison's settings for compare.json.
sub compare_settings($s, $programs) {
    my %side = map {
        my $settings = $_->{settings};
        $_->{name} => { options_text => $_->{text}, options => $_->{words}, transport => $settings->{protocol},
                        server_host => $settings->{host}, server_port => $settings->{port} }
    } @{ $s->{sides} };
    return {
        a => $side{A}, b => $side{B},
        repeat           => $s->{repeat},
        order            => 'each round runs A once, then B once',
        service          => $s->{service},
        run_settings_json($s, $programs),
        servers_started  => $s->{start_server} ? $s->{servers_needed} : 0,
        compare_program  => $programs->{compare},
        started_at       => iso_utc(),
        finished_at      => undef,
        interrupted_by   => undef,
        interrupted_run  => undef,
    };
}

# Writes compare.gp for the sizes compared and, unless --no-plot, starts gnuplot on
# it; returns what finish_plot needs, or undef.
sub start_compare_plot($s, $sizes, $gnuplot_path, $work_dir) {
    my $doc = $sizes->[0]{comparison};
    write_file_atomically($gnuplot_path, compare_gnuplot_script(
        title              => compare_plot_title($s),
        payload_bytes      => [ map { $_->{payload_bytes} } @$sizes ],
        threshold_percent  => $doc->{threshold_percent} // 5,
        confidence_percent => $doc->{method}{confidence_percent} // 95));
    return $s->{plot} ? start_plot($s->{output_dir}, $work_dir, \%COMPARE_OUTPUT_NAME) : undef;
}

sub run_compare($s, $programs, $work_dir) {
    my $out = $s->{output_dir};
    my %path = map { $_ => File::Spec->catfile($out, $COMPARE_OUTPUT_NAME{$_}) } qw(csv json gnuplot png);
    my $runs_dir = File::Spec->catdir($out, $COMPARE_OUTPUT_NAME{runs});
    # What is left in the directory afterwards belongs to this comparison; an earlier
    # one's runs would also be read by sctp-perf-compare, which takes whole directories.
    unlink values %path;
    File::Path::remove_tree($runs_dir, { error => \my $rm_errors });
    die runtime_error("cannot remove the runs of an earlier comparison in $runs_dir: "
                      . join('; ', map { values %$_ } @$rm_errors)) if -e $runs_dir;

    my %state = (sizes => [], failed => [], servers => [], runs_dir => $runs_dir, csv_path => $path{csv});
    note(placement_note($s));
    start_compare_servers($s, $programs, $work_dir, \%state);
    my $compare = compare_settings($s, $programs);
    my $write_json = sub {
        $compare->{finished_at} = iso_utc();
        write_file_atomically($path{json}, json_text(compare_document(
            compare => $compare, sizes => $state{sizes}, failed => $state{failed}, output_dir => $out)));
    };

    my ($stop_status, $plot);
    my $done = eval {
        $state{csv} = open_csv($path{csv}, undef, join(',', @COMPARE_CSV_COLUMNS) . "\n");
        $stop_status = compare_sizes($s, $programs, $work_dir, \%state);
        close $state{csv} or die runtime_error("cannot write $path{csv}: $!");
        # gnuplot draws while the servers stop and compare.json is written.
        $plot = start_compare_plot($s, $state{sizes}, $path{gnuplot}, $work_dir) if @{ $state{sizes} };
        stop_server($_) for @{ $state{servers} };
        $write_json->();
        1;
    };
    keep_after_error(error => $@, doc => $compare, cut_short => 'interrupted_run', state => \%state,
                     client_name => basename($programs->{client}), write_json => $write_json,
                     json_path => $path{json},
                     also => sub { print_text(compare_table_text($compare, $state{sizes})) if @{ $state{sizes} } })
        unless $done;
    finish_plot($plot) if $plot;
    print_text(compare_table_text($compare, $state{sizes}));

    note('wrote ' . join(', ', grep { -e File::Spec->catfile($out, $_) } @COMPARE_OUTPUT_NAME{qw(csv json gnuplot png runs)})
         . " in $out");
    return 0 unless @{ $state{failed} };
    note('failed: ' . join(', ', map {
        "2^$_->{payload_power_of_2} (" . bytes_text($_->{payload_bytes}) . ')'
        . (defined $_->{side} ? ", run $_->{round} of $_->{side}" : ', the comparison')
    } @{ $state{failed} }));
    return $stop_status // 1;
}

sub run(@argv) {
    my $opt = parse_arguments(@argv);
    if ($opt->{help} || $opt->{manual}) {
        require Pod::Usage;    # only here: loading it costs every sweep a moment
        Pod::Usage::pod2usage(-input => $SCRIPT_FILE, -verbose => $opt->{manual} ? 2 : 1, -exitval => 'NOEXIT',
                              -output => \*STDOUT, -noperldoc => 1);
        return 0;
    }
    my $s = validate_options($opt);
    my $programs = find_programs($s);

    my $work_dir = File::Temp->newdir('run_spectrum-XXXXXX', TMPDIR => 1);
    # From the first interrupt on, the sweep only stops; the signals that follow are
    # ignored at once, so that none cuts the clean-up short: a second Ctrl-C, or the
    # same signal twice in an instant (timeout(1) sends it to the script and to its
    # process group).
    local @SIG{qw(INT TERM HUP)} = map {
        my $sig = $_;
        sub { $SIG{$_} = 'IGNORE' for qw(INT TERM HUP); die interrupted($sig) }
    } qw(INT TERM HUP);
    my $status = eval {
        # Before anything is made or started: a mistake in the options is found now.
        check_client_commands($s, $programs, $work_dir->dirname);
        make_output_dir($s->{output_dir});
        $s->{compare} ? run_compare($s, $programs, $work_dir->dirname) : run_sweep($s, $programs, $work_dir->dirname)
    };
    my $error = $@;
    # On success no child is left; after an error or interrupt, stop them, and let a
    # second Ctrl-C not cut that short.
    local @SIG{qw(INT TERM HUP)} = ('IGNORE') x 3;
    stop_all_children();
    die $error unless defined $status;
    return $status;
}

# The programs the run needs, from one directory, so that they come from one
# build: { client, server, compare }, each an absolute path.
sub find_programs($s) {
    my ($client_name, $server_name) = program_names($s->{service});
    my @needed = ($client_name, $s->{start_server} ? $server_name : (), $s->{compare} ? COMPARE_PROGRAM : ());
    my @dirs = defined $s->{bin_dir} ? ($s->{bin_dir}) : default_bin_dirs();
    my $bin_dir = find_bin_dir(\@needed, \@dirs)
        // die runtime_error(join(' and ', @needed) . ' not found in ' . join(', ', @dirs)
                             . '; build the programs or point --bin-dir at them');
    my %path = (client => $client_name, server => $server_name, compare => COMPARE_PROGRAM);
    return { map { $_ => File::Spec->rel2abs(File::Spec->catfile($bin_dir, $path{$_})) } keys %path };
}

sub make_output_dir($dir) {
    make_path($dir, { error => \my $mkdir_errors });
    die runtime_error("cannot create --output-dir '$dir': " . join('; ', map { values %$_ } @$mkdir_errors))
        unless -d $dir;
    return;
}

sub main(@argv) {
    my $status = eval { run(@argv) };
    return $status if defined $status;
    my $error = $@;
    if (ref $error eq 'SctpPerf::RunSpectrum::Interrupted') {
        note("interrupted by SIG$error->{signal}; stopped the programs it had started");
        $SIG{ $error->{signal} } = 'DEFAULT';
        # An interrupt seen as spawn blocked the signals may have cut it short
        # before it unblocked them.
        POSIX::sigprocmask(POSIX::SIG_UNBLOCK(), stop_signal_set());
        kill $error->{signal}, $$;    # die of the same signal, so callers see the interrupt
        return 1;
    }
    if (ref $error eq 'SctpPerf::RunSpectrum::Error') {
        note(($error->{status} == 2 ? 'error: ' : '') . $error->{message});
        note("try '$SCRIPT_NAME --help' for the options") if $error->{status} == 2;
        return $error->{status};
    }
    chomp $error;
    note("internal error: $error");
    return 1;
}

exit main(@ARGV) unless caller;

1;

__END__

=head1 NAME

run_spectrum.pl - sweep the payload size of the sctp-perf latency test over powers of two or a list of sizes

=head1 SYNOPSIS

  run_spectrum.pl [--service stream|seqpack] [--protocol tcp|sctp]
                  [--min-power N] [--max-power N | --sizes LIST] [--iterations N]
                  [--rate R | --throughput] [--duration S] [--flows N]
                  [--host HOST] [--port PORT] [--start-server]
                  [--client-cpu LIST] [--server-cpu LIST]
                  [--config-file FILE] [--output-dir DIR] [--bin-dir DIR]
                  [--[no-]plot] [--keep-going] [-- CLIENT-OPTIONS...]
  run_spectrum.pl --compare 'OPTIONS A' 'OPTIONS B' [--repeat N] [the options above]
  run_spectrum.pl --help | --manual

=head1 OPTIONS

Option values are case-insensitive (C<--protocol TCP> works); file paths and host
names are used as given. Option names are not: C<-h> is the help, C<-H> an error.

Where an option means what one of the client's does, the client's long name is taken
too, with dashes or underscores: B<--test-transport-protocol> for B<--protocol>,
B<--test-iterations> for B<--iterations>, B<--server-host> for B<--host> and
B<--server-port> for B<--port>. The client's short names (C<-t>, C<-c>, C<-H>, C<-p>)
are not: the script takes no one-letter options but C<-h>, and given before C<-->
they are refused with the script's name for them. The client's C<-s> and C<--cpu>
have no alias: the script sweeps the size (B<--min-power>, B<--max-power>, or
B<--sizes>, which it passes as the client's C<--payload-bytes>), and pins
the client with B<--client-cpu>, apart from the server's B<--server-cpu>.

The script checks its own options. What it passes on to the client (the sizes, the
count or time of a run, the rate, the flows, the host, the client's CPUs, the options
of the config file and those after the double dash) the client checks itself: before
the first run, and before a server is started, the script gives every command line it
will run to the client with its C<--check> option, which validates it exactly as a
run would and connects nowhere. A mistake is then reported at once in the client's
words, with the size (and, comparing, the side) it was found for, and nothing runs:
exit status 2.

=over 4

=item B<--service> stream|seqpack

Which pair of programs to run: C<SOCK_STREAM_clt>/C<SOCK_STREAM_srv> (default) or
C<SOCK_SEQPACK_clt>/C<SOCK_SEQPACK_srv>. C<seqpacket> is accepted for C<seqpack>.

=item B<--protocol> tcp|sctp (also B<--test-transport-protocol>)

Transport of the stream programs, passed to them as C<-t>. Default C<sctp>, as in the
programs. The seqpack programs always use SCTP, so C<--service seqpack --protocol tcp>
is an error.

=item B<--min-power> N, B<--max-power> N

The sweep runs payloads of 2^N bytes for every N from min to max. Default 0 and 16
(1 byte to 64 KiB, the client's largest payload); whole numbers up to 63, min not
above max, and the client refuses a power it does not take (above 16). With
B<--rate> or B<--throughput> the minimum defaults to 4: the client's load modes need
payloads of at least 16 bytes, and refuse a smaller one.

=item B<--sizes> LIST

The sweep runs the payload sizes of LIST instead, in bytes, comma-separated, such as
C<--sizes 32,64,100,1000,63000>: each a whole number, each once, in ascending order,
which the client takes from 1 to 65536 (16 with B<--rate> or B<--throughput>). Each
reaches the client
as C<--payload-bytes N>, so any size can be measured, not only powers of two, as
RTI Perftest's C<-datalen> and TransportPerf's C<-msgSize> take them. Excludes
B<--min-power> and B<--max-power>. The table, the CSV and F<spectrum.json> have a
row per size (C<payload_power_of_2> is null for a size that is no power of two),
F<spectrum.json>'s C<sweep.sizes> lists them, and the plot has a tic at each.

=item B<--iterations> N (also B<--test-iterations>)

Timed iterations per size, a whole number written in digits, passed to the client as
C<-c N>. Without it the client's own default (or a C<-c> in the config file) applies.
Not with B<--duration>.

=item B<--rate> R

Load mode: every flow sends open loop at R messages per second (written in digits,
such as 2000 or 0.5; the client takes more than 0 and at most 10000000), message k of a flow due at k/R seconds after the start, whether or not
earlier replies have come back. Passed to the client as C<--rate R>. The latency in
the CSV and the plot is the I<corrected> one, timed from each message's due time, so
a sender that falls behind its schedule shows the wait it caused. Not with
B<--throughput>.

=item B<--throughput>

Load mode: every flow sends as fast as the transport accepts; the latency is that of
every Nth message (the client's C<--echo-every>), timed from its actual send
(I<uncorrected>). Passed to the client as C<--throughput>. Not with B<--rate>.

=item B<--duration> S

Run every size for S seconds (written in digits, such as 3 or 0.5; the client takes
more than 0 and at most 86400) instead of a count of iterations; passed to the client as C<--duration S>. Not with B<--iterations>, nor
with a C<-c> among the client options.

=item B<--flows> N

Connections (SCTP: associations) the client opens, a whole number written in digits
(the client takes 1 to 100000); passed to the client as C<--flows N>. A B<--rate> is per flow. Above 1 it needs B<--rate> or
B<--throughput>: a ping-pong sweep reads the one-flow ACE histogram report. With B<--start-server> and more than 5000
flows, the server is started with C<--max-clients> twice N, so the flows of one size
still closing do not make the next size's flows find it busy.

=item B<--host> HOST, B<--port> PORT (also B<--server-host>, B<--server-port>)

Where the server runs, passed to the client as C<-H> and C<-p>. Without them the
client's defaults apply. With B<--start-server>, B<--host> defaults to 127.0.0.1 and
B<--port> defaults to a free port chosen by the server.

=item B<--start-server>

Start the matching server before the sweep and stop it afterwards (SIGTERM, then
SIGKILL if it has not exited within 5 s), also when a run fails or the script is
interrupted (then after the client has ended; see L</SIGNALS>). If the server dies
during the sweep, the size that fails with it says so, with the server's log, and the
sweep stops there, even with B<--keep-going>: every later size would only fail to
connect. The server is started with C<-p 0> (or C<-p PORT>); the script reads the
real port from its log line C<(pid|tid) starting server at port P>, waiting at most
10 s. Without B<--host> the server is bound to 127.0.0.1 (C<-a 127.0.0.1>); with it,
the server listens on all addresses. A C<-n> (or C<--test-enable-nagle>) among the
client options is given to the server too, so both ends use the same Nagle setting.
Without B<--start-server>, the server must already be running, as with the original
script. Other server options need a server started by hand.

=item B<--client-cpu> LIST, B<--server-cpu> LIST

Pin the client (every size) and the server the script starts to the CPUs in LIST,
passed to them as C<--cpu LIST> (the programs pin themselves with
sched_setaffinity). LIST is CPU numbers and ascending ranges, comma-separated, as
C<taskset -c> takes them: C<0>, C<0-1>, C<0,2-3>. B<--server-cpu> needs
B<--start-server>; pin a server started by hand with its own C<--cpu>. The
placement is recorded in F<spectrum.json> and in the plot title.

On a machine of several CPUs, loopback latency depends on where the two ends run
(sharing one CPU or not, and which), and unpinned the scheduler may choose
differently from one size to the next; the script says so when neither option is
given. C<--client-cpu 0 --server-cpu 0> puts both ends on one CPU, as the sample
results are taken.

=item B<--config-file> FILE (also B<--config_file>)

Read client options from FILE in the format of the original script: the first
double-quoted string on a line that is not commented out holds the options, e.g.
C<"-c 1000">. A C<#> before the string comments it out. The string is split at white
space; no shell quoting applies. Unlike the original, no config file is read unless
this option is given.

=item B<--output-dir> DIR

Where the results go; created if missing. Default: the current directory.

=item B<--bin-dir> DIR

Where to find the programs. Default: the first of F<build/bin> and F<bin> under the
script's directory, the script's directory itself, then every directory in PATH, that
holds the programs needed (with B<--start-server>, client and server must be in the
same directory; with B<--compare>, C<sctp-perf-compare> too).

=item B<--plot>, B<--no-plot>

Draw F<spectrum.png> with gnuplot (default) or not. The gnuplot script is written
either way.

=item B<--keep-going>

Go on with the next size when a run fails, instead of stopping. The failed sizes are
listed at the end and the exit status is 1. A failure no size can escape still stops
the sweep: a client that rejects its options, a report of another format, a kernel
without SCTP, the death of the server the script started (B<--start-server>). An
interrupt of the script (Ctrl-C) ends the sweep whatever this option says; a client
interrupted by a signal sent to it alone is a failed size, so with B<--keep-going>
C<kill -INT> of the client skips the rest of its size.

When a client fails, the script shows its error and the end of its stderr, with the
client's advice given in the script's options (C<--protocol tcp> where the client
says C<-t tcp>), then advice of its own where it recognises the failure: on a kernel
without SCTP, B<--protocol tcp>; when the connection is refused and the script did
not start the server, B<--start-server>.

=item B<--compare> 'OPTIONS A' 'OPTIONS B'

Compare two client configurations, A and B, size by size, instead of sweeping one:
for every size, B<--repeat> rounds, each running A's client once and then B's (A B A
B ...), so that a drift of the machine meets both sides; then C<sctp-perf-compare>
judges each size (see L</COMPARING>). The two words are client options, each quoted
as one word (C<''> for the client's defaults); each is split as a shell splits words,
quotes and backslashes included, without expanding or running anything. They go to
the client after the options the script sets and those after C<-->, which both sides
share. They are checked as the options after C<--> are, except that a side may
choose its transport with C<-t> (C<--protocol> for the other). Sides of different
transports need B<--start-server>, or a C<-p PORT> of their own server in their
options.

=item B<--repeat> N

With B<--compare>: the runs of each side per size, N rounds of A then B (default 5,
at least 1). Below 5, sctp-perf-compare gives no verdict: each row of compare.csv says
"too few runs", since its bootstrap interval is then narrower than any the runs can
support at 95 %. The client's own C<--repeat> and C<--pause> are refused with
B<--compare>.

=item B<--> CLIENT-OPTIONS...

Everything after C<--> is passed to the client unchanged, after the options from the
config file. Options the script sets itself are refused there and in the config file
(short or long names): C<-s>, C<--format>, C<--json-file>, C<--rate>,
C<--throughput>, C<--duration>, C<--flows> and C<--cpu> always (give the last five to
the script itself, C<--cpu> as B<--client-cpu>); C<-t> for the stream client; C<-c> with B<--iterations> or B<--duration>; C<-H>
and C<-p> with B<--host>, B<--port> or B<--start-server>. The client's other load
options, such as C<--echo-every>, C<--threads> and C<--interval>, go here.

=item B<--help>, B<--manual>

Print the synopsis and options, or this whole manual, and exit.

=back

=head1 DESCRIPTION

For every payload power of two from B<--min-power> to B<--max-power> (or every size of
B<--sizes>, given as C<--payload-bytes N> instead of C<-s P>), the script runs
the client once (with B<--compare>, two configurations several times each: see
L</COMPARING>):

  SOCK_STREAM_clt -s P --json-file TMP -t PROTOCOL [-c N] \
                  [--rate R | --throughput] [--duration S] [--flows N] \
                  [-H HOST] [-p PORT] [--cpu LIST] CONFIG-FILE-OPTIONS CLIENT-OPTIONS

(C<SOCK_SEQPACK_clt> takes no C<-t>). Before the first of them, the script gives
each of these command lines to the client with C<--check> (see L</OPTIONS>): a
client that refuses one stops the sweep before anything runs. The client prints its
ACE-format report on
standard output and writes its JSON report to the C<--json-file>; the script keeps
both. The next size starts as soon as the previous client has exited; there is no
pause between runs.

The script computes no statistics: every number in its output is copied from the
client's JSON report. The one derived column, C<outliers>, is the sum of the report's
C<histogram.below> and C<histogram.above> counts. It reads reports of
C<format_version> 2 only (that of sctp-perf's programs since percentile keys such as
C<p99_9_us>); a client that writes another format fails the run, and the sweep stops
there even with B<--keep-going>, since every size would fail the same way.

Without B<--rate> or B<--throughput> every run is a ping-pong test: one message in
flight per connection, the next sent when the reply to the last has come back. With
one of them the sweep runs under load, and its latency columns come from the report's
C<load.latency_corrected> (B<--rate>) or C<load.latency_uncorrected> (B<--throughput>)
instead of C<summary> and C<percentiles>; a report of another mode fails the run.

A run fails when the client exits with a non-zero status, is killed, or writes no
usable JSON report. The script names the size and shows the client's standard error
(and the message of the error report a failed client writes to its JSON file), then
stops, or with B<--keep-going> goes on with the next size. The script waits for each
client without a limit of its own; the client bounds every wait on its server by its
C<--io-timeout> (default 10 s), so a server that dies or goes silent mid-size fails
that size within that time, in every mode, instead of hanging the sweep. A client
interrupted by someone else's signal (exit status 130 or 143, its report marked
interrupted) fails its size too: its report covers part of the run only. If a
run exits with status 2 all the same (its client rejected options that its
C<--check> took) the sweep stops even with B<--keep-going>, since every size would
fail the same way. The data files and the plot are written for
the sizes that succeeded.

At the start the script says on standard error where the programs run (the
placement), and one progress line per size follows, with the payload size, the median
(p50) and the maximum round-trip time; under load also which latency that is
(corrected or uncorrected), the rate each flow achieved and the messages lost.

Between two sizes the script does the same small amount of work however many sizes
are done: it appends a line to F<spectrum.csv> and the ACE report to the
F<.spectrum> file, and keeps the client's JSON report in memory for
F<spectrum.json>, which it writes once, at the end.

Differences from the original ACE script: it sweeps 1 byte to 64 KiB for both
transports by default, does not sleep 5 s between runs, reads no config file unless
asked, keeps the case of paths and host names, parses the results and draws the plot.

=head1 COMPARING

  run_spectrum.pl --compare 'OPTIONS A' 'OPTIONS B' --repeat N ...

One configuration measured after another lets whatever changes on the machine in
the meantime (other work, the CPU's clock, the cache) fall on one side only. With
B<--compare> the script runs, for each size from B<--min-power> to B<--max-power>, N
rounds of one run of A followed by one run of B, each run a client started anew
(its own connection and primer), with no pause; the next size starts when the
previous one is compared. Every run writes its JSON report, kept as
F<compare/BYTES/a/run-K.json> or F<compare/BYTES/b/run-K.json> in the output
directory once it has read well.

Once a size's rounds are done, the script runs

  sctp-perf-compare --a compare/BYTES/a --b compare/BYTES/b --allow-different --format json

(found as the client is, see B<--bin-dir>) and copies its figures, for p50, p90,
p99, p99.9 and max: each side's median over its runs, the ratio B/A of the medians
with its 95 % bootstrap interval, the Mann-Whitney U test's p-value, and the verdict
(C<slower> or C<faster> only when the whole interval lies beyond the noise
threshold of 5 %, else C<no difference>). The script computes none of them. A and
B differ on purpose, so C<--allow-different> is always given: the differences
sctp-perf-compare names (such as C<A is tcp, B is sctp>) are printed under the
table, as are its warnings. sctp-perf-compare's man page states its methods.

With B<--start-server> each side gets the server it needs: the script starts one
for A and one for B when they differ in transport or Nagle (C<-n> goes to the
server of the side that has it), else one for both. Both run from the start of the
comparison to its end, each on a free port; B<--server-cpu> pins both.

A run that fails is reported as a failed size of a sweep is, naming the size, the
round and the side, and ends its size, which is then not compared; the comparison
stops there, or with B<--keep-going> goes on with the next size. A failure of
sctp-perf-compare fails its size alike. An interrupt is handled as in a sweep (see
L</SIGNALS>): the running client is given the signal once, every program the
script started is stopped, and F<compare.json> is written with the sizes compared
and the run cut short (C<compare.interrupted_run>), whose report is not kept.

The files, in the output directory (those of an earlier comparison there, the
F<compare/> directory included, are removed when a comparison starts; the files of a
sweep are left alone):

=over 4

=item F<compare.csv>

A header, then for every size compared five rows, one per percentile, appended as
each size is compared: C<payload_bytes>, C<percentile> (C<p50>, C<p90>, C<p99>,
C<p99.9>, C<max>), C<a_median_us>, C<b_median_us>, C<ratio> (B/A), C<ratio_low> and
C<ratio_high> (its interval), C<p_value>, C<verdict> (C<slower>, C<faster> or
C<no difference>), C<a_runs> and C<b_runs> (the runs behind each median).

=item F<compare.json>

C<format_version> 1. C<compare>: the settings: C<a> and C<b> (C<options_text> as
given, C<options> as split, C<transport>, C<server_host>, C<server_port>),
C<repeat>, C<order>, the sweep's settings as in F<spectrum.json>, C<client_program>
and C<compare_program>, C<started_at>, C<finished_at>, C<interrupted_by> and
C<interrupted_run> (as C<interrupted_size> of F<spectrum.json>, with C<side> and
C<round>). C<columns> and C<rows>: the CSV's content. C<sizes>: for every size
compared, its C<a_dir> and C<b_dir>, its C<runs> in the order they ran (C<round>,
C<side>, C<command>, C<report_file>), and C<comparison>, sctp-perf-compare's whole
JSON output. C<failed>: every run or comparison that failed, with its command and
the reason.

=item F<compare.gp>, F<compare.png>

The ratio B/A against the payload size (log2 x axis), for p50 and p99, each with its
interval as error bars, a dashed line at 1 (no difference) and dotted lines at the
noise threshold. As with F<spectrum.gp>, B<--no-plot> writes the script only, and
without gnuplot the script says so and writes the rest.

=back

The comparison is also printed as a table on standard output, at the end (after an
interrupt too, for the sizes compared); the progress lines, one per round and one
per size, go to standard error.

=head1 OUTPUT

All files go to B<--output-dir>. The four F<spectrum.*> files of an earlier sweep in
the same directory are removed when a sweep starts, so the directory never mixes two
sweeps.

=over 4

=item F<YYYYMMDDTHHMMSS.spectrum>

The ACE-format report of every successful run, appended as the runs finish, as the
original script did. The name is the local start time, e.g. F<20261122T054000.spectrum>.

=item F<spectrum.csv>

A header row, written when the sweep starts, then one row per successful size, in
increasing size, each appended as its size ends, so the file holds every size
finished even if the script is killed. Columns:
C<payload_bytes>, C<iterations> (timed iterations asked of the client), C<min_us>,
C<mean_us>, C<p50_us>, C<p90_us>, C<p99_us>, C<p99_9_us>, C<max_us>, C<stddev_us>
(all round-trip times in microseconds), and C<outliers>: the number of samples outside
the histogram's range (below its minimum plus at or above its maximum), which the
client counts but does not place in a bin. A statistic the client could not compute
(e.g. the standard deviation of a single sample) is left empty.

A load sweep (B<--rate> or B<--throughput>) has the same columns, then seven more, so
a reader of the ping-pong columns reads it unchanged. There C<iterations> is the number
of latency samples, the latency columns hold the corrected (rate) or uncorrected
(throughput) latency, and C<outliers> is empty, since a load run has no fixed-bin
histogram. The added columns, from the report's C<load> object: C<mode> (C<rate> or
C<throughput>), C<flows>, C<rate_asked_per_s> and C<rate_achieved_per_s> (messages per
second per flow; the asked rate is empty in throughput mode), C<messages_lost>,
C<payload_mb_per_s_sent>, and C<latency_kind> (C<corrected> or C<uncorrected>).

=item F<spectrum.json>

C<format_version> 2. C<sweep>: the sweep's configuration (service, transport, host,
port, C<client_cpu> and C<server_cpu> (the CPU lists given, null where not given),
powers, iterations, C<mode> (C<ping-pong>, C<rate> or C<throughput>), C<rate_per_s>,
C<duration_s> and C<flows> (null where not given), config-file and client options,
client program, C<started_at> and C<finished_at>, C<interrupted_by>: the signal
that ended the sweep early, such as C<SIGINT>, or null, and C<interrupted_size>: null,
or the size that was running then, which is not among the rows (see L</SIGNALS>):
C<payload_power_of_2>, C<payload_bytes>, C<command>, C<signal_passed_on> (the signal
the script passed on to its client, null if the client had ended),
C<client_ended> (such as C<exited with status 130>) and C<client_report_interrupted_by>
(the signal named by the client's own report, null if it wrote none marked
interrupted)); C<columns> and C<rows>: the CSV's content, with null for an empty field; C<runs>: for every successful size, its
client command line and the client's full JSON report; C<failed>: for every failed
size, its command line and the reason.

The file is written once, when the sweep ends: after the last size, after a failed
size that stops it, or after an interrupt or error (once the programs are stopped),
so it holds every run that finished in every case but a C<kill -9> of the script,
which leaves F<spectrum.csv> and the F<.spectrum> file. (Format 1 rewrote the file
after every size, which took longer than the runs at 10,000 iterations.) Numbers are
written with the client's digits (a double prints the floats of a format 2 report as
the client wrote them; the tiniest, below 0.0001, in exponent form).

=item F<spectrum.gp>

The gnuplot script that draws the plot from F<spectrum.csv>. Edit it to restyle the
plot and redraw with C<gnuplot spectrum.gp> in the output directory.

=item F<spectrum.png>

Round-trip latency against payload size, with lines for min, p50, p99 and max. Both
axes are logarithmic: the x axis in bytes on a log2 scale (a tic at each size swept,
powers of two or not), the y axis in powers of ten
(microseconds), so that the minimum and a maximum hundreds of times larger both stay
readable. The title gives the transport, service, server host and iterations per size;
under load, the mode and rate, the flows and the length of each run; and the
placement: C<client CPU 0, server CPU 0>, C<unpinned>, or which end is pinned where.
Under load the y axis says whether the latency is corrected (from each message's due
time) or uncorrected.
If gnuplot is not installed, the script says so on standard error and writes every
other file; the exit status is unaffected.

=back

=head1 EXAMPLES

A quick TCP sweep against a server the script starts itself, both ends on CPU 0:

  run_spectrum.pl --protocol tcp --start-server --iterations 10000 \
                  --client-cpu 0 --server-cpu 0 --output-dir results/tcp

SCTP, sizes 4 bytes to 32 KiB, against a server already running on another host, with
client options from a config file and one more given directly:

  run_spectrum.pl --host 192.0.2.10 --min-power 2 --max-power 15 \
                  --config-file run_spectrum.config -- -n

Under load: every size from 16 bytes to 64 KiB for 3 s, 8 TCP connections each paced
at 2000 messages per second, then the same as fast as TCP accepts, echoing every 10th:

  run_spectrum.pl --protocol tcp --start-server --rate 2000 --flows 8 --duration 3 \
                  --output-dir results/rate
  run_spectrum.pl --protocol tcp --start-server --throughput --duration 3 \
                  --output-dir results/throughput -- --echo-every 10

The sizes an application sends, whatever they are, with a full echo (each reply the
request sent back, as RTI Perftest's echo and TransportPerf's C<-reflectMsgs> are):

  run_spectrum.pl --protocol tcp --start-server --sizes 32,64,100,1000,63000 \
                  --iterations 10000 -- --echo

TCP against SCTP, 16 bytes to 16 KiB, five runs of each side per size, interleaved,
with a server of each transport started by the script, both ends on CPU 0:

  run_spectrum.pl --compare '-t tcp' '-t sctp' --repeat 5 --start-server \
                  --min-power 4 --max-power 14 --iterations 10000 \
                  --client-cpu 0 --server-cpu 0 --output-dir results/tcp-vs-sctp

Nagle off (the default, A) against on (B) over TCP:

  run_spectrum.pl --protocol tcp --start-server --compare '' '-n' \
                  --min-power 4 --max-power 10 --iterations 2000

The seqpack programs on a multi-homed pair, going on past failures:

  run_spectrum.pl --service seqpack --host 192.0.2.10,198.51.100.10 --keep-going

=head1 EXIT STATUS

=over 4

=item B<0>

Every size ran and the files are written (also when gnuplot is not installed).

=item B<1>

A runtime failure: a run failed (with or without B<--keep-going>; also a client
report of another format than 2), a comparison by sctp-perf-compare failed, a
program was not found, the server did not start, or an output file could not be
written.

=item B<2>

A usage error: a bad option or value, an unreadable config file, or client options
the client itself rejected (asked with C<--check> before any run; its sentences are
quoted).

=back

When interrupted by SIGINT, SIGTERM or SIGHUP, the script stops the client and any
server it started, writes F<spectrum.json> with the runs finished, then ends by the
same signal (see L</SIGNALS>).

=head1 SIGNALS

On SIGINT (Ctrl-C), SIGTERM or SIGHUP the script stops the sweep:

=over 4

=item 1.

It passes the signal on to the client of the size that is running, once (SIGHUP as
SIGTERM: the client stops cleanly on SIGINT and SIGTERM only). The client stops
measuring, writes its report marked interrupted and exits with status 130 (SIGINT)
or 143 (SIGTERM). The script waits for it at most 5 s, then kills it with SIGKILL.
That size is partial: it is not a row of the CSV, nor a run of F<spectrum.json>,
and the script names it on standard error and in C<sweep.interrupted_size>.

=item 2.

Then it stops the server it started (SIGTERM, SIGKILL after 5 s), only now, since a
client under load reads the server's account of the run as it stops.

=item 3.

It writes F<spectrum.json> with every size finished (F<spectrum.csv> and the
F<.spectrum> file hold them already), says what it did, and ends by the signal it
got, so that a shell or a calling script sees the interrupt.

=back

A second Ctrl-C while it does so is ignored: the clean-up is short and bounded, and
cutting it short would lose the report of the runs done.

The client and the server run in process groups of their own, so a terminal's
Ctrl-C, which goes to the whole foreground process group, reaches the script alone.
Were the client to get the Ctrl-C too, the script's signal would be a second one, and
a second signal ends the client at once, without its report; and a server hit by the
same Ctrl-C would no longer answer the client that stops. A signal sent to the
script's process group (C<kill -INT -PGID>) is therefore handled as one sent to the
script. Signals the script cannot catch do not leave its programs running: each asks
the kernel (Linux's C<PR_SET_PDEATHSIG>) to kill it with SIGKILL when the script
dies, so after a C<kill -9> of the script, or a Ctrl-\, the client and server end
too (the files then hold the sizes finished, but F<spectrum.json> is not written).
Ctrl-Z stops the script alone; the running client completes its size meanwhile, and
the next size starts when the script is continued.

=cut
