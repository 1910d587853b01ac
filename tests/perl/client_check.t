# SPDX-License-Identifier: Apache-2.0
# The limits of what the sweep gives the client are the client's: before any run,
# and before a server starts, the script gives every command line it will run to
# one client to check (--check-lines, one command line a line). With stand-ins
# (see SctpPerf::TestSweep): what is checked, when, and that a refusal stops
# everything with exit 2 and the client's sentence.
# Then, when SCTP_PERF_BIN_DIR holds the built clients, the real clients' sentences
# for the limits the script used to check itself; no server runs there, so a
# sweep that ran anything would end in exit 1 (connection refused), not 2.
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);
no warnings qw(qw);    # size lists such as 8,100 are single words in qw() here

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Temp ();
use IO::Socket::INET ();
use JSON::PP ();
use Test::More;
use SctpPerf::TestSweep qw(make_fake_bin read_file run_script);

my $fake_bin = make_fake_bin();

# Runs the script with the stand-ins; returns the result plus the log and output
# dirs. The output directory is one the script would create.
sub with_stand_ins($args, %env) {
    my $log = File::Temp->newdir;
    my $parent = File::Temp->newdir;
    my $out = "$parent/out";
    my $r = run_script([ '--bin-dir', "$fake_bin", '--output-dir', $out, @$args ],
                       env => { FAKE_LOG_DIR => "$log", %env }, timeout_s => 60);
    return ($r, $log, $out, $parent);    # the dir objects: the directories live as long as they do
}

sub json_lines($path) { return -e $path ? map { JSON::PP->new->decode($_) } split /\n/, read_file($path) : () }
sub calls($log) { return [ map { "@$_" } json_lines("$log/calls.log") ] }

# The stand-in's words, as the script passes them on: one line, then the pointer to --help.
sub refusal_re($what) {
    return qr/\Arun_spectrum\.pl: error: SOCK_STREAM_clt refuses the options of $what, before any run: [^\n]+\nrun_spectrum\.pl: try 'run_spectrum\.pl --help' for the options\n\z/;
}

subtest 'every command line is checked, once, before the first run' => sub {
    my ($r, $log) = with_stand_ins([qw(--start-server --protocol tcp --min-power 0 --max-power 3 --iterations 4 -- -m 0)]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    is_deeply calls($log), [ (map { "check $_" } 0 .. 3), (map { "run $_" } 0 .. 3) ], 'four checks, then four runs';
    my @pids = -e "$log/check-pids.log" ? split /\n/, read_file("$log/check-pids.log") : ();
    is scalar(@pids), 4, 'four command lines checked';
    is scalar(keys %{ { map { $_ => 1 } @pids } }), 1, 'all by one client';
    my @checks = json_lines("$log/checks.log");
    my @runs = json_lines("$log/clients.log");
    for my $power (0 .. 3) {
        my ($program, $check, @check_args) = @{ $checks[$power] // [] };
        my (undef, @run_args) = @{ $runs[$power] // [] };
        is $check, '--check-lines', "2^$power: checked first";
        # The run has the JSON file of its size and the port of the server started since.
        my @expected = grep { $_ ne '-p' && $_ ne '40123' } @run_args;
        $expected[3] = $check_args[3] = 'JSON';
        is_deeply \@check_args, \@expected, "2^$power: the run's options otherwise";
    }
};

subtest 'a refusal stops the sweep before any run, any server and any file' => sub {
    my ($r, $log, $out) = with_stand_ins([qw(--start-server --keep-going --min-power 0 --max-power 4)],
                                         FAKE_CLIENT_CHECK_FAIL => 3, FAKE_CLIENT_CHECK_MESSAGE => 'no 8 bytes here');
    is $r->{exit}, 2, 'exit status 2, even with --keep-going';
    like $r->{stderr}, refusal_re('payload 2\^3 \(8 bytes\)'), 'the size and the client\'s sentence, once' or diag $r->{stderr};
    like $r->{stderr}, qr/before any run: no 8 bytes here\n/, 'in the client\'s words';
    is_deeply calls($log), [ map { "check $_" } 0 .. 3 ], 'checked up to the refusal; nothing ran';
    ok !-e "$log/servers.log", 'no server started';
    ok !-e $out, 'no output directory made';
    is $r->{stdout}, '', 'nothing on stdout';
};

subtest 'a load sweep\'s smallest payloads are the client\'s to refuse' => sub {
    my ($r, $log) = with_stand_ins([qw(--rate 100 --min-power 3 --max-power 5)]);
    is $r->{exit}, 2, 'exit status 2';
    like $r->{stderr}, qr/SOCK_STREAM_clt refuses the options of payload 2\^3 \(8 bytes\), before any run: --rate needs a payload of at least 16 bytes/,
        'the client\'s sentence' or diag $r->{stderr};
    is_deeply calls($log), ['check 3'], 'nothing ran';
};

subtest '--compare: each side checked, the same command line once' => sub {
    my ($r, $log) = with_stand_ins([ qw(--max-power 1 --repeat 1 --compare), '-m 1', '-m 2 --odd' ],
                                   FAKE_CLIENT_CHECK_FAIL => 1, FAKE_CLIENT_CHECK_FAIL_WITH => '--odd');
    is $r->{exit}, 2, 'exit status 2';
    like $r->{stderr}, refusal_re('payload 2\^1 \(2 bytes\) in B'), 'names the size and the side' or diag $r->{stderr};
    is_deeply calls($log), [ 'check 0', 'check 0', 'check 1', 'check 1' ], 'A and B of each size; nothing ran';

    ($r, $log) = with_stand_ins([ qw(--max-power 1 --repeat 1 --compare), '', '' ]);
    is $r->{exit}, 0, 'sides alike: exit status 0' or diag $r->{stderr};
    is_deeply calls($log), [ 'check 0', 'check 1', 'run 0', 'run 0', 'run 1', 'run 1' ],
        'one check per size for two sides alike';
};

subtest 'the client\'s sentences in the script\'s terms' => sub {
    my ($r) = with_stand_ins([qw(--max-power 0)], FAKE_CLIENT_CHECK_FAIL => 0,
                             FAKE_CLIENT_CHECK_MESSAGE => "no SCTP here: measure TCP instead with '-t tcp'");
    like $r->{stderr}, qr/before any run: no SCTP here: measure TCP instead with '--protocol tcp'\n/, '-t tcp is --protocol tcp';
};

subtest 'a client without --check is of another release' => sub {
    my ($r, $log) = with_stand_ins([qw(--max-power 0)], FAKE_CLIENT_CHECK_FAIL => 0,
                                   FAKE_CLIENT_CHECK_MESSAGE => "unrecognised option '--check'");
    is $r->{exit}, 1, 'exit status 1: the options may be right, the programs do not match';
    like $r->{stderr}, qr/SOCK_STREAM_clt takes no --check: it is older than run_spectrum\.pl; use the programs of the same sctp-perf release \(--bin-dir\)/,
        'says so';
    is_deeply calls($log), ['check 0'], 'nothing ran';
};

SKIP: {
    my $bin = $ENV{SCTP_PERF_BIN_DIR};
    skip 'set SCTP_PERF_BIN_DIR to the built programs to check with the real clients', 1
        unless defined $bin && -x "$bin/SOCK_STREAM_clt";

    # A loopback port nobody listens on, for a run that should never happen.
    my $socket = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp') or die "bind: $!";
    my $closed_port = $socket->sockport;
    close $socket;

    subtest 'the real clients refuse, before any run, what the script no longer checks' => sub {
        my @cases = (
            [ [qw(--max-power 17)],                   '2\^17 \(131072 bytes\)', qr/-s\/--payload-size-power-of-2 must be 0\.\.16/ ],
            [ [qw(--iterations 0)],                   '2\^0 \(1 byte\)', qr/-c\/--test-iterations must be 1\.\./ ],
            [ [qw(--rate 0)],                         '2\^4 \(16 bytes\)', qr/--rate must be more than 0/ ],
            [ [qw(--duration 0)],                     '2\^0 \(1 byte\)', qr/--duration must be more than 0 and at most 86400 seconds/ ],
            [ [qw(--duration 100000)],                '2\^0 \(1 byte\)', qr/--duration must be more than 0 and at most 86400 seconds/ ],
            [ [qw(--rate 10 --flows 0)],              '2\^4 \(16 bytes\)', qr/--flows must be 1\.\.100000/ ],
            [ [qw(--rate 10 --flows 100001)],         '2\^4 \(16 bytes\)', qr/--flows must be 1\.\.100000/ ],
            [ [qw(--rate 100 --throughput)],          '2\^4 \(16 bytes\)', qr/--rate and --throughput exclude each other/ ],
            [ [qw(--duration 1 --iterations 100)],    '2\^0 \(1 byte\)', qr/-c\/--test-iterations and --duration exclude each other/ ],
            [ [qw(--rate 100 --min-power 3)],         '2\^3 \(8 bytes\)', qr/--rate and --throughput need -s 4 or more/ ],
            [ [qw(--rate 10 --sizes 8,100)],          '2\^3 \(8 bytes\)', qr/--rate and --throughput need --payload-bytes 16 or more/ ],
            [ [qw(--sizes 0)],                        '0 bytes', qr/--payload-bytes must be 1\.\.65536/ ],
            [ [qw(--sizes 100,65537)],                '65537 bytes', qr/--payload-bytes must be 1\.\.65536/ ],
            [ [qw(--sizes 1,100 -- --echo)],          '2\^0 \(1 byte\)', qr/--echo needs a payload of 2 bytes or more/ ],
            [ [qw(--client-cpu 3-1)],                 '2\^0 \(1 byte\)', qr/--cpu/ ],
            [ [qw(-- --bogus)],                       '2\^0 \(1 byte\)', qr/unrecognised option '--bogus'/ ],
        );
        for my $case (@cases) {
            my ($args, $size, $pattern) = @$case;
            my $parent = File::Temp->newdir;
            my $r = run_script([ '--bin-dir', $bin, '--output-dir', "$parent/out", '--protocol', 'tcp',
                                 '--host', '127.0.0.1', '--port', $closed_port, @$args ], timeout_s => 30);
            is $r->{exit}, 2, "@$args: exit status 2" or diag $r->{stderr};
            like $r->{stderr}, qr/^run_spectrum\.pl: error: SOCK_STREAM_clt refuses the options of payload $size, before any run: .*$pattern/m,
                "@$args: the client's sentence" or diag $r->{stderr};
            ok !-e "$parent/out", "@$args: no output directory made";
        }
        my $parent = File::Temp->newdir;
        my $r = run_script([ '--bin-dir', $bin, '--output-dir', "$parent/out", '--protocol', 'tcp',
                             '--port', $closed_port, '--host', '' ], timeout_s => 30);
        is $r->{exit}, 2, "--host '': exit status 2";
        like $r->{stderr}, qr/refuses the options of payload 2\^0 \(1 byte\), before any run: -H\/--server-host must name a host/,
            "--host '': the client's sentence";
    };
}

done_testing;
