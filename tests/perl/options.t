# SPDX-License-Identifier: Apache-2.0
# Command-line options: usage errors exit with 2 and say what is wrong; values are
# case-insensitive; --help and --manual print the documented sections. The limits
# of what the client is given are the client's, checked by it before any run
# (client_check.t).
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);
no warnings qw(qw);    # CPU lists such as 0,2-3 are single words in qw() here

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Temp ();
use Test::More;
use SctpPerf::TestSweep qw(load_script run_script);

load_script();

sub parse(@args) { return SctpPerf::RunSpectrum::Options::validate_options(SctpPerf::RunSpectrum::Options::parse_arguments(@args)) }

# Returns the error object the parser died with, or undef.
sub parse_error(@args) {
    return eval { parse(@args); undef } // $@;
}

subtest 'defaults' => sub {
    my $s = parse();
    is $s->{service}, 'stream', 'service stream';
    is $s->{protocol}, 'sctp', 'protocol sctp, as in the programs';
    is $s->{min_power}, 0, 'min power 0';
    is $s->{max_power}, 16, 'max power 16';
    is $s->{plot}, 1, 'plot on';
    ok !$s->{keep_going}, 'keep-going off';
    ok !$s->{start_server}, 'start-server off';
    is $s->{iterations}, undef, 'iterations left to the client';
    is $s->{mode}, 'ping-pong', 'ping-pong, no load';
    is_deeply [ @{$s}{qw(rate throughput duration flows)} ], [ undef, undef, undef, undef ],
        'rate, throughput, duration and flows left to the client';
    is_deeply [ @{$s}{qw(client_cpu server_cpu)} ], [ undef, undef ], 'neither end pinned';
    is_deeply $s->{client_args}, [], 'no client options';
};

subtest 'load options' => sub {
    my $s = parse(qw(--rate 2000));
    is $s->{mode}, 'rate', '--rate: rate mode';
    is $s->{rate}, 2000, 'the rate';
    is $s->{min_power}, 4, 'a load mode starts at 16 bytes';
    is $s->{max_power}, 16, 'and ends at 64 KiB';

    $s = parse(qw(--throughput --min-power 6 --max-power 6));
    is $s->{mode}, 'throughput', '--throughput: throughput mode';
    is_deeply [ @{$s}{qw(min_power max_power)} ], [ 6, 6 ], 'powers of 4 or more as given';

    $s = parse(qw(--rate +0.5 --duration .25 --flows 100000));
    is_deeply [ @{$s}{qw(rate duration flows)} ], [ 0.5, 0.25, 100000 ], 'decimal rate and duration, the most flows';

    $s = parse(qw(--duration 2 --flows 1));
    is $s->{mode}, 'ping-pong', '--duration and --flows alone leave ping-pong';
    is $s->{min_power}, 0, 'so the sweep starts at 1 byte';

    is parse(qw(--rate 10 --iterations 500))->{iterations}, 500, '--iterations with a load mode';
    is_deeply parse(qw(--throughput -- --echo-every 10 --threads 2 --interval 1))->{client_args},
              [qw(--echo-every 10 --threads 2 --interval 1)], 'the client\'s other load options pass after --';
    is_deeply parse(qw(-- -c 10))->{client_args}, [qw(-c 10)], '-c after -- without --duration';
};

subtest 'values are case-insensitive; paths and hosts keep their case' => sub {
    my $dir = File::Temp->newdir;
    my $s = parse('--protocol', 'TCP', '--service', 'Stream', '--host', 'LocalHost',
                  '--output-dir', "$dir/Results/TCP");
    is $s->{protocol}, 'tcp', '--protocol TCP';
    is $s->{service}, 'stream', '--service Stream';
    is $s->{host}, 'LocalHost', 'host as given';
    is $s->{output_dir}, "$dir/Results/TCP", 'output dir as given';
    is parse('--service', 'SEQPACKET')->{service}, 'seqpack', 'seqpacket means seqpack';
    is parse('--service', 'SeqPack', '--protocol', 'SCTP')->{protocol}, 'sctp', 'seqpack with sctp';
};

subtest 'numbers and switches' => sub {
    my $s = parse(qw(--min-power 2 --max-power 15 --iterations 1000 --port 5000 --no-plot --keep-going --start-server));
    is_deeply [ @{$s}{qw(min_power max_power iterations port plot keep_going start_server)} ],
              [ 2, 15, 1000, 5000, 0, 1, 1 ], 'all taken';
    is parse(qw(--min_power 3 --max_power 3))->{max_power}, 3, 'underscore spellings';
};

subtest 'placement: --client-cpu and --server-cpu' => sub {
    my $s = parse(qw(--start-server --client-cpu 0 --server-cpu 0));
    is_deeply [ @{$s}{qw(client_cpu server_cpu)} ], [ '0', '0' ], 'both ends on CPU 0';
    $s = parse(qw(--start-server --client_cpu 0,2-3 --server_cpu 1-1));
    is_deeply [ @{$s}{qw(client_cpu server_cpu)} ], [ '0,2-3', '1-1' ], 'lists and ranges kept as given; underscore spellings';
    is parse(qw(--client-cpu 3))->{client_cpu}, '3', '--client-cpu without --start-server: the client only';
    for my $list (qw(0 7 0-1 0,1 0,2-3 10-12,15 0-0)) {
        ok SctpPerf::RunSpectrum::Options::is_cpu_list($list), "'$list' is a CPU list";
    }
    for my $list ('', qw(-1 a 0- -0 1-0 0,,1 0, ,0 0-1-2 0;1 1.5 +1), '0 1', ' 0') {
        ok !SctpPerf::RunSpectrum::Options::is_cpu_list($list), "'$list' is not";
    }

    is_deeply [ SctpPerf::RunSpectrum::Commands::client_command(parse(qw(--client-cpu 0,2-3 --iterations 5 -- -m 0)), '/bin/clt', SctpPerf::RunSpectrum::Options::power_size(3), '/t.json') ],
              [qw(/bin/clt -s 3 --json-file /t.json -t sctp -c 5 --cpu 0,2-3 -m 0)],
              'the client gets --cpu LIST before the options after --';
    $s = parse(qw(--start-server --protocol tcp --server-cpu 1));
    is_deeply [ SctpPerf::RunSpectrum::Commands::server_command($s, '/bin/srv') ], [qw(/bin/srv -p 0 -a 127.0.0.1 -t tcp --cpu 1)],
        'the server it starts gets --cpu LIST';
    is_deeply [ SctpPerf::RunSpectrum::Commands::client_command($s, '/bin/clt', SctpPerf::RunSpectrum::Options::power_size(0), '/t.json') ], [qw(/bin/clt -s 0 --json-file /t.json -t tcp)],
        'the client stays unpinned without --client-cpu';
};

subtest "the client's long names for the script's own options" => sub {
    # Same meaning, same value: what the client calls -c, -p, -H and -t.
    my $s = parse(qw(--test-iterations 500 --server-port 5001 --server-host ::1 --test-transport-protocol TCP));
    is_deeply [ @{$s}{qw(iterations port host protocol)} ], [ 500, 5001, '::1', 'tcp' ],
        '--test-iterations, --server-port, --server-host, --test-transport-protocol';
    $s = parse(qw(--test_iterations 7 --server_port 5002 --server_host h --test_transport_protocol sctp));
    is_deeply [ @{$s}{qw(iterations port host protocol)} ], [ 7, 5002, 'h', 'sctp' ], 'with underscores too';
    is_deeply [ SctpPerf::RunSpectrum::Commands::client_command(parse(qw(--server-host h --server-port 5003 --test-iterations 9)),
                                                       '/bin/clt', SctpPerf::RunSpectrum::Options::power_size(0), '/t.json') ],
        [qw(/bin/clt -s 0 --json-file /t.json -t sctp -c 9 -H h -p 5003)], 'reach the client as -c, -H and -p';
    like parse_error(qw(--test-iterations 1k))->{message}, qr/--iterations must be written in digits/,
        'read as the option they stand for';
    is parse(qw(--iterations 5 --test-iterations 6))->{iterations}, 6,
        'one option: the later value wins, as with any option given twice';
};

subtest "the client's short options before '--' name the script's own" => sub {
    # Option names are case-sensitive, so -H is the host (refused), never -h (help).
    my @cases = (
        [ [qw(-t tcp)],  qr/-t is the client's short option: run_spectrum\.pl takes --protocol \(or --test-transport-protocol\)/ ],
        [ [qw(-c 100)],  qr/-c is the client's short option: run_spectrum\.pl takes --iterations/ ],
        [ [qw(-H ::1)],  qr/-H is the client's short option: run_spectrum\.pl takes --host \(or --server-host\)/ ],
        [ [qw(-p 5000)], qr/-p is the client's short option: run_spectrum\.pl takes --port/ ],
        [ [qw(-s 3)],    qr/-s is the client's short option: the sweep sets the payload size; give --min-power and --max-power/ ],
        [ [qw(-n)],      qr/-n is the client's short option: client options go after '--'/ ],
    );
    for my $case (@cases) {
        my ($args, $pattern) = @$case;
        my $error = parse_error(@$args);
        ok ref $error && $error->{status} == 2, "@$args: usage error" or diag explain $error;
        like ref $error ? $error->{message} : "$error", $pattern, "@$args: message";
    }
    my $r = run_script([qw(-H ::1)], timeout_s => 30);
    is $r->{exit}, 2, '-H from the command line: exit status 2, not the help';
    is $r->{stdout}, '', 'nothing on stdout';
    is parse('-h')->{help}, 1, '-h is still the help';
};

subtest "the port from the server's log, with or without a timestamp" => sub {
    my $port = \&SctpPerf::RunSpectrum::Server::parse_server_port;
    is $port->("(12|12) starting server at port 40123\n"), 40123, 'pid and tid first';
    is $port->("2026-11-22T16:56:12.096Z (6736|6736) Accepting connections on port 45611\n"
               . "2026-11-22T16:56:12.096Z (6736|6736) starting server at port 45611\n"), 45611, 'a timestamp first';
    is $port->("(12|12) starting server at port 0\n"), undef, 'port 0 is no port';
    is $port->("x y (1|1) starting server at port 5\n"), undef, 'one word before it at most';
};

subtest 'everything after -- goes to the client unchanged' => sub {
    my $s = parse(qw(--protocol tcp -- -n -m 5 -M 500 --io-timeout 3 Odd));
    is_deeply $s->{client_args}, [qw(-n -m 5 -M 500 --io-timeout 3 Odd)], 'kept in order and case';
};

my @usage_errors = (
    [ [qw(--protocol udp)],                       qr/--protocol must be 'tcp' or 'sctp', not 'udp'/ ],
    [ [qw(--service dgram)],                      qr/--service must be 'stream' or 'seqpack', not 'dgram'/ ],
    [ [qw(--service seqpack --protocol TCP)],     qr/seqpack runs over SCTP only/ ],
    [ [qw(--min-power -1)],                       qr/--min-power must be a whole number from 0 to 63, not '-1'/ ],
    [ [qw(--max-power 64)],                       qr/--max-power must be a whole number from 0 to 63, not '64'/ ],
    [ [qw(--max-power ten)],                      qr/--max-power must be a whole number/ ],
    [ [qw(--min-power 5 --max-power 4)],          qr/--min-power \(5\) must not be larger than --max-power \(4\)/ ],
    [ [qw(--port 70000)],                         qr/--port must be a whole number from 1 to 65535/ ],
    [ [qw(--bin-dir /nonexistent/bin)],           qr/--bin-dir '\/nonexistent\/bin' is not a directory/ ],
    [ [qw(--no-such-option)],                     qr/unknown option: no-such-option/ ],
    [ [qw(--protocol)],                           qr/option protocol requires an argument/ ],
    [ [qw(stray)],                                qr/unexpected argument 'stray' \(options for the client go after '--'\)/ ],
    [ [qw(-- -s 3)],                              qr/client option '-s' after '--' cannot be used: .*--min-power/ ],
    [ [qw(-- --format json)],                     qr/client option '--format' after '--' cannot be used/ ],
    [ [qw(-- --json-file x)],                     qr/client option '--json-file' after '--' cannot be used/ ],
    [ [qw(-- -t tcp)],                            qr/client option '-t' after '--' cannot be used: .*--protocol/ ],
    [ [qw(--iterations 5 -- -c 10)],              qr/client option '-c' after '--' cannot be used: .*--iterations/ ],
    [ [qw(--start-server -- -p 45000)],           qr/client option '-p' after '--' cannot be used: .*--port/ ],
    [ [qw(--host h -- -H other)],                 qr/client option '-H' after '--' cannot be used: .*--host/ ],
    [ [qw(-- --payload_size_power_of_2=3)],       qr/client option '--payload_size_power_of_2=3' after '--' cannot be used/ ],
    [ [qw(-- --test-transport-protocol tcp)],     qr/cannot be used: .*--protocol/ ],
    [ [qw(--iterations 3 -- --test-iterations 9)], qr/cannot be used: .*--iterations/ ],
    [ [qw(--start-server -- --server-host x)],    qr/cannot be used: .*--host/ ],
    [ [qw(--port 5000 -- --server_port 5001)],    qr/cannot be used: .*--port/ ],
    [ [qw(--config-file /nonexistent/spectrum.config)], qr/cannot read config file '\/nonexistent\/spectrum.config'/ ],
    [ [qw(--iterations 1e3)],                     qr/--iterations must be written in digits, a whole number such as 1000, as spectrum\.json records it, not '1e3'/ ],
    [ [qw(--rate -5)],                            qr/--rate must be written in digits, such as 2000 or 0\.5, as spectrum\.json records it, not '-5'/ ],
    [ [qw(--rate 1e3)],                           qr/--rate must be written in digits.* not '1e3'/ ],
    [ [qw(--rate fast)],                          qr/--rate must be written in digits.* not 'fast'/ ],
    [ [qw(--duration 3s)],                        qr/--duration must be written in digits, such as 2000 or 0\.5, .* not '3s'/ ],
    [ [qw(--flows 2.5)],                          qr/--flows must be written in digits, a whole number such as 1000, .* not '2\.5'/ ],
    [ [qw(--flows 2)],                            qr/--flows above 1 needs --rate or --throughput in a sweep/ ],
    [ [qw(-- --rate 100)],                        qr/client option '--rate' after '--' cannot be used: the script sets the load mode; use run_spectrum\.pl's own --rate option/ ],
    [ [qw(-- --throughput)],                      qr/client option '--throughput' after '--' cannot be used: .*run_spectrum\.pl's own --throughput option/ ],
    [ [qw(-- --duration=2)],                      qr/client option '--duration=2' after '--' cannot be used: .*run_spectrum\.pl's own --duration option/ ],
    [ [qw(--rate 5 -- --flows 4)],                qr/client option '--flows' after '--' cannot be used: .*run_spectrum\.pl's own --flows option/ ],
    [ [qw(--duration 1 -- -c 10)],                qr/client option '-c' after '--' cannot be used: the script runs each size for --duration/ ],
    [ [qw(--duration 1 -- --test_iterations 10)], qr/client option '--test_iterations' after '--' cannot be used: .*--duration/ ],
    [ [qw(--start-server --server-cpu 0,)],       qr/--server-cpu must list CPU numbers and ascending ranges, .* not '0,'/ ],
    [ [qw(--server-cpu 0)],                       qr/--server-cpu needs --start-server: the script places only a server it starts \(give a server started by hand its own --cpu\)/ ],
    [ [qw(--client-cpu)],                         qr/option client-cpu requires an argument/ ],
    [ [qw(-- --cpu 1)],                           qr/client option '--cpu' after '--' cannot be used: the script places the client; use --client-cpu/ ],
    [ [qw(--client-cpu 0 -- --cpu=1)],            qr/client option '--cpu=1' after '--' cannot be used: .*--client-cpu/ ],
    [ [qw(--sizes 100 --min-power 3)],            qr/--sizes and --min-power\/--max-power exclude each other/ ],
    [ [qw(--sizes 100 --max-power 3)],            qr/--sizes and --min-power\/--max-power exclude each other/ ],
    [ [qw(--sizes), '32,,64'],                    qr/--sizes takes payload sizes in bytes, .* each a whole number, not ''/ ],
    [ [qw(--sizes 1k)],                           qr/--sizes takes payload sizes .* not '1k'/ ],
    [ [qw(--sizes), '100,64'],                    qr/--sizes must list each size once, in ascending order: 64 comes after 100/ ],
    [ [qw(--sizes), '64,64'],                     qr/--sizes must list each size once, in ascending order/ ],
    [ [qw(-- --payload-bytes 100)],               qr/client option '--payload-bytes' after '--' cannot be used: .*--sizes/ ],
);

subtest 'usage errors, checked in-process' => sub {
    for my $case (@usage_errors) {
        my ($args, $pattern) = @$case;
        my $error = parse_error(@$args);
        ok ref $error && $error->{status} == 2, "@$args: usage error" or diag explain $error;
        like ref $error ? $error->{message} : "$error", $pattern, "@$args: message";
    }
};

subtest 'allowed client options' => sub {
    is_deeply parse(qw(-- -c 10 -H host -p 5000))->{client_args}, [qw(-c 10 -H host -p 5000)],
        '-c, -H and -p are the client\'s when the script does not set them';
    is_deeply parse('--service', 'seqpack', '--', '-H', 'a,b')->{client_args}, ['-H', 'a,b'], 'seqpack -H list';
    is_deeply parse(qw(--service seqpack -- -t sctp))->{client_args}, [qw(-t sctp)],
        '-t is left to the seqpack client (which has none, and will say so)';
};

subtest 'usage errors from the command line exit with 2' => sub {
    my %wanted = map { $_ => 1 } ('--protocol udp', '--service seqpack --protocol TCP', '--min-power 5 --max-power 4',
        '--no-such-option', 'stray', '-- -s 3', '--rate fast', '--duration 3s', '--flows 1025',
        '-- --rate 100', '-- --throughput', '-- --duration=2', '--rate 5 -- --flows 4', '--duration 1 -- -c 10',
        '--server-cpu 0', '-- --cpu 1');
    for my $case (grep { $wanted{"@{ $_->[0] }"} } @usage_errors) {
        my ($args, $pattern) = @$case;
        my $r = run_script($args, timeout_s => 30);
        is $r->{exit}, 2, "@$args: exit status 2";
        like $r->{stderr}, qr/^run_spectrum\.pl: error: .*$pattern/m, "@$args: says what is wrong";
        like $r->{stderr}, qr/--help/, "@$args: points at --help";
        is $r->{stdout}, '', "@$args: nothing on stdout";
    }
};

subtest '--help and --manual' => sub {
    my $help = run_script(['--help'], timeout_s => 30);
    is $help->{exit}, 0, '--help exits 0';
    like $help->{stdout}, qr/^Usage:/m, 'synopsis';
    like $help->{stdout}, qr/^Options:/m, 'options';
    like $help->{stdout}, qr/--start-server/, 'lists --start-server';
    like $help->{stdout}, qr/^\s+--$_\b/m, "lists --$_" for qw(rate throughput duration flows client-cpu server-cpu);
    unlike $help->{stdout}, qr/^EXIT STATUS/m, 'not the whole manual';

    my $manual = run_script(['--manual'], timeout_s => 30);
    is $manual->{exit}, 0, '--manual exits 0';
    for my $section ('NAME', 'SYNOPSIS', 'OPTIONS', 'DESCRIPTION', 'OUTPUT', 'EXAMPLES', 'EXIT STATUS') {
        like $manual->{stdout}, qr/^\Q$section\E$/m, "manual has $section";
    }
    unlike $manual->{stdout}, qr/POD ERRORS/, 'POD is well-formed';
};

subtest 'a program that is missing is a runtime failure' => sub {
    my $empty = File::Temp->newdir;
    my $r = run_script([ '--bin-dir', "$empty", '--protocol', 'tcp' ], timeout_s => 30);
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/SOCK_STREAM_clt not found in \Q$empty\E; build the programs or point --bin-dir at them/,
        'names the program and where it looked';
};

done_testing;
