# SPDX-License-Identifier: Apache-2.0
# Interrupts and a dying server with the real programs over TCP loopback: the
# script starts SOCK_STREAM_srv itself and runs SOCK_STREAM_clt for 2 s per size;
# while a size runs, the test signals the script, or its process group as a
# terminal's Ctrl-C does, or kills the server with SIGKILL. Every sweep is bounded
# in time, and the test checks that no program the script started is left.
# Needs the built programs: set SCTP_PERF_BIN_DIR to their directory (CTest does).
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Temp ();
use JSON::PP ();
use Test::More;
use Time::HiRes ();
use SctpPerf::TestSweep qw(read_file run_script wait_until child_processes process_running kill_leftovers);

my $bin = $ENV{SCTP_PERF_BIN_DIR};
plan skip_all => 'set SCTP_PERF_BIN_DIR to the directory of the built programs to run these sweeps'
    unless defined $bin && length $bin;
plan skip_all => "SCTP_PERF_BIN_DIR=$bin holds no SOCK_STREAM_clt and SOCK_STREAM_srv; build them first"
    unless -x "$bin/SOCK_STREAM_clt" && -x "$bin/SOCK_STREAM_srv";

my $SWEEP_BOUND_S = 60;

sub text_of($path) { return -e $path ? read_file($path) : '' }

sub document($out) { return JSON::PP->new->decode(text_of("$out/spectrum.json") || '{}') }

sub csv_sizes($out) {
    my (undef, @lines) = split /\n/, text_of("$out/spectrum.csv");
    return [ map { (split /,/)[0] } @lines ];
}

sub is_client_of($proc, $power) {
    my ($program, $flag, $value) = @{ $proc->{command} };
    return ($program // '') =~ m{/SOCK_STREAM_clt\z} && ($flag // '') eq '-s' && ($value // '') eq $power;
}

# Runs a sweep against a server the script starts, with @$args. Once the client of
# 2^$power has measured for a while, calls $act->($script_pid, $children): the
# script's children at that moment (the server and that client), as
# child_processes gives them. Returns the result, the output directory, the
# children, and how long the script ran on after $act.
sub sweep_acting_at($args, $power, $act) {
    my $out = File::Temp->newdir;
    my (@children, $acted_at);
    my $r = run_script(
        [ '--bin-dir', $bin, '--output-dir', "$out", qw(--start-server --protocol tcp --no-plot --duration 2),
          @$args, '--', '--io-timeout', '5' ],
        timeout_s => $SWEEP_BOUND_S,
        on_start => sub ($pid, $) {
            return unless wait_until(30, sub { grep { is_client_of($_, $power) } child_processes($pid) });
            # Past the client's connect (a signal then ends it at once, without a
            # report), well inside its 2 s of measuring.
            Time::HiRes::sleep(0.7);
            @children = child_processes($pid);
            $acted_at = Time::HiRes::time();
            $act->($pid, \@children);
        });
    my $after_s = defined $acted_at ? Time::HiRes::time() - $acted_at : undef;
    return ($r, $out, \@children, $after_s);
}

# What every interrupted sweep must show: it died of SIGINT soon after, with the
# sizes @done (powers) on disk, and the client of 2^$power given SIGINT once,
# ending cleanly: exit 130 and its own report marked interrupted by SIGINT. A
# client given a second signal is killed by it at once, without a report.
sub interrupted_ok($r, $out, $children, $after_s, $power, @done) {
    ok !$r->{timed_out}, "the sweep ended within $SWEEP_BOUND_S s";
    is $r->{signal}, 2, 'the script died of SIGINT' or diag $r->{stderr};
    ok defined $after_s && $after_s < 10, 'soon after the signal (within the 5 s grace and a margin)';
    is scalar @$children, 2, 'it had started two programs: the server and the client';
    my ($client) = grep { is_client_of($_, $power) } @$children;
    ok $client && $client->{pgid} != $client->{ppid}, 'the client ran in a process group other than the script\'s';

    my $doc = document($out);
    is $doc->{sweep}{interrupted_by}, 'SIGINT', 'spectrum.json: interrupted by SIGINT';
    my $size = $doc->{sweep}{interrupted_size} // {};
    is_deeply [ @{$size}{qw(payload_power_of_2 signal_passed_on client_ended client_report_interrupted_by)} ],
              [ $power, 'SIGINT', 'exited with status 130', 'SIGINT' ],
        "spectrum.json: 2^$power was interrupted; its client, given SIGINT once, ended cleanly with its report"
        or diag $r->{stderr};
    is_deeply [ map { $_->{payload_power_of_2} } @{ $doc->{runs} // [] } ], \@done, 'spectrum.json: the sizes done';
    is_deeply csv_sizes($out), [ map { 2**$_ } @done ], 'spectrum.csv: the sizes done, not the partial one';
    my $bytes = 2**$power;
    like $r->{stderr}, qr/interrupted by SIGINT during payload 2\^$power \($bytes bytes\): SOCK_STREAM_clt was given SIGINT once and exited with status 130, its report marked interrupted; that size is partial and not in the table/,
        'the summary names the size interrupted';
    is_deeply [ kill_leftovers(@$children) ], [], 'no program the script started is left running';
}

subtest 'SIGINT to the script, ping-pong' => sub {
    my ($r, $out, $children, $after_s) = sweep_acting_at([qw(--max-power 3)], 2, sub ($pid, $) { kill 'INT', $pid });
    interrupted_ok($r, $out, $children, $after_s, 2, 0, 1);
};

subtest 'SIGINT to the script\'s process group, as a terminal\'s Ctrl-C, under --rate' => sub {
    # A client under load stops by sending each flow's end of test and reading the
    # server's account: the server must not have been hit by the same Ctrl-C.
    my ($r, $out, $children, $after_s) = sweep_acting_at([qw(--rate 1000 --min-power 4 --max-power 7)], 6,
                                                         sub ($pid, $) { kill 'INT', -$pid });
    interrupted_ok($r, $out, $children, $after_s, 6, 4, 5);
};

# The server killed while the client of 2^5 runs under --rate. The client ends with
# status 1 at once (the peer closed the connection), or at worst after its
# --io-timeout of 5 s.
sub server_killed_ok($keep_going) {
    my ($r, $out, $children, $after_s) = sweep_acting_at(
        [ qw(--rate 1000 --min-power 4 --max-power 6), $keep_going ? '--keep-going' : () ], 5,
        sub ($pid, $children) {
            my ($server) = grep { ($_->{command}[0] // '') =~ m{/SOCK_STREAM_srv\z} } @$children;
            kill 'KILL', $server->{pid} if $server;
        });
    ok !$r->{timed_out}, "the sweep ended within $SWEEP_BOUND_S s";
    is $r->{exit}, 1, 'exit status 1' or diag $r->{stderr};
    ok defined $after_s && $after_s < 10, 'soon after the server died (within the client\'s 5 s --io-timeout and a margin)';
    # The reason is the client's own, read from the error document in its
    # --json-file, then its stderr.
    like $r->{stderr}, qr/payload 2\^5 \(32 bytes\) failed: SOCK_STREAM_clt exited with status 1: [^\n]+; its stderr:\n(?:  \| .*\n)*  \| SOCK_STREAM_clt: .*\n/,
        'the failed size, with the client\'s reason and stderr';
    like $r->{stderr}, qr/\nSOCK_STREAM_srv, which the sweep started, was killed by signal 9; its log:\n/,
        'and what became of the server';
    like $r->{stderr}, qr/SOCK_STREAM_srv, which the sweep started, was killed by signal 9: no later size can run, so the sweep stops/,
        'the sweep stops: every later size would only fail to connect';
    my $doc = document($out);
    is_deeply [ map { $_->{payload_power_of_2} } @{ $doc->{failed} // [] } ], [5], 'spectrum.json: 2^5 failed, no later size ran';
    is_deeply csv_sizes($out), [16], 'spectrum.csv: the size done';
    like $r->{stderr}, qr/failed sizes: 2\^5 \(32 bytes\)$/m, 'the summary lists it';
    is_deeply [ kill_leftovers(@$children) ], [], 'no program the script started is left running';
}

subtest 'the server killed during a --rate size' => sub { server_killed_ok(0) };
subtest 'the server killed during a --rate size, with --keep-going' => sub { server_killed_ok(1) };

done_testing;
