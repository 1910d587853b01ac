# SPDX-License-Identifier: Apache-2.0
# Real sweeps over TCP loopback: the script starts SOCK_STREAM_srv itself and runs
# SOCK_STREAM_clt, first ping-pong for payloads 2^0..2^4 with both ends pinned to one
# CPU (five CSV rows and a PNG), then under load: --rate 2000 for 2^4..2^5 and --throughput for 2^4..2^16, 0.5 s
# each. Needs the built programs: set SCTP_PERF_BIN_DIR to their directory (CTest does).
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Temp ();
use JSON::PP ();
use Test::More;
use SctpPerf::TestSweep qw(load_script read_file run_script process_alive);

my $bin = $ENV{SCTP_PERF_BIN_DIR};
plan skip_all => 'set SCTP_PERF_BIN_DIR to the directory of the built programs to run the end-to-end sweep'
    unless defined $bin && length $bin;
plan skip_all => "SCTP_PERF_BIN_DIR=$bin holds no SOCK_STREAM_clt and SOCK_STREAM_srv; build them first"
    unless -x "$bin/SOCK_STREAM_clt" && -x "$bin/SOCK_STREAM_srv";

load_script();
my $have_gnuplot = grep { -x "$_/gnuplot" } split /:/, $ENV{PATH} // '';

# The first CPU this test may run on (CPU 0 is not always in a container's set).
sub first_allowed_cpu() {
    open my $fh, '<', '/proc/self/status' or return 0;
    while (my $line = <$fh>) { return $1 if $line =~ /^Cpus_allowed_list:\s*([0-9]+)/ }
    return 0;
}

# Runs a TCP loopback sweep against a server the script starts; checks that it ended
# well and that the server is gone. Returns the output directory (alive while it is).
sub sweep_ok($args, $timeout_s) {
    my $out = File::Temp->newdir;
    my $r = run_script(
        [ '--bin-dir', $bin, '--output-dir', "$out", qw(--start-server --protocol tcp), @$args, '--', '--io-timeout', '5' ],
        timeout_s => $timeout_s);
    ok !$r->{timed_out}, "finished within $timeout_s s";
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    my ($server_pid, $port) = $r->{stderr} =~ /started SOCK_STREAM_srv \(pid (\d+)\) on port (\d+)/;
    ok $server_pid, 'started the server' or diag $r->{stderr};
    ok $port && $port > 0, 'on a port the server chose';
    ok $server_pid && !process_alive($server_pid), 'the server is gone afterwards';
    return $out;
}

# A file's text, or '' if it is missing: a failed sweep fails checks, not the test file.
sub text_of($path) { return -e $path ? read_file($path) : '' }

# The CSV's header and its rows as hashes.
sub csv_rows($out) {
    my ($header, @lines) = split /\n/, text_of("$out/spectrum.csv");
    my @names = split /,/, $header;
    return ($header, map { my %row; @row{@names} = split /,/, $_, -1; \%row } @lines);
}

sub latency_ordered_ok($row) {
    ok $row->{min_us} > 0 && $row->{min_us} <= $row->{p50_us} && $row->{p50_us} <= $row->{p99_us}
       && $row->{p99_us} <= $row->{max_us},
        "$row->{payload_bytes} bytes: 0 < min <= p50 <= p99 <= max";
}

subtest 'ping-pong, 1 to 16 bytes, both ends on one CPU' => sub {
    my $cpu = first_allowed_cpu();
    my $out = sweep_ok([ qw(--min-power 0 --max-power 4 --iterations 200), '--client-cpu', $cpu, '--server-cpu', $cpu ], 120);
    my ($header, @rows) = csv_rows($out);
    is scalar @rows, 5, 'CSV: five rows';
    is $header, join(',', SctpPerf::RunSpectrum::Reports::csv_columns()), 'the ping-pong columns';
    is_deeply [ map { $_->{payload_bytes} } @rows ], [ 1, 2, 4, 8, 16 ], 'one row per payload size';
    for my $row (@rows) {
        is $row->{iterations}, 200, "$row->{payload_bytes} bytes: 200 iterations";
        latency_ordered_ok($row);
    }

    my $doc = JSON::PP->new->decode(text_of("$out/spectrum.json") || '{}');
    is scalar @{ $doc->{runs} }, 5, 'JSON: five client reports';
    is $doc->{runs}[0]{report}{format_version}, 2, 'reports of format 2';
    is $doc->{runs}[0]{report}{config}{transport}, 'tcp', 'the client ran over TCP';
    is $doc->{runs}[4]{report}{config}{payload_bytes}, 16, 'the last run had 16-byte payloads';
    is_deeply [ @{ $doc->{sweep} }{qw(client_cpu server_cpu)} ], [ $cpu, $cpu ], "JSON: both ends on CPU $cpu";
    for my $i (0 .. 4) {
        my $report = $doc->{runs}[$i]{report} // {};
        my $size = 2**$i . ' bytes';
        is $report->{config}{cpu}, $cpu, "$size: the client was given --cpu $cpu";
        is $report->{environment}{client_cpu_affinity}, $cpu, "$size: the client ran on CPU $cpu";
        is $report->{server}{cpu_affinity}, $cpu, "$size: so did the server";
    }
    like text_of("$out/spectrum.gp"), qr/, client CPU $cpu, server CPU $cpu' noenhanced/, 'plot title: the placement';

    my ($spectrum) = glob "$out/*.spectrum";
    my @titles = text_of($spectrum // '') =~ /\(Message Size (\d+), Message Type octet\)/g;
    is_deeply \@titles, [ 1, 2, 4, 8, 16 ], 'the .spectrum file holds five ACE reports';

    SKIP: {
        skip 'gnuplot is not installed (Debian: gnuplot-nox)', 1 unless $have_gnuplot;
        is substr(text_of("$out/spectrum.png"), 0, 8), "\x89PNG\r\n\x1a\n", 'spectrum.png is a PNG';
    }
};

subtest '--rate 2000 for 0.5 s, 16 and 32 bytes' => sub {
    my $out = sweep_ok([qw(--rate 2000 --duration 0.5 --min-power 4 --max-power 5)], 60);
    my ($header, @rows) = csv_rows($out);
    is $header, join(',', SctpPerf::RunSpectrum::Reports::csv_columns('rate')), 'the ping-pong columns, then the load columns';
    is_deeply [ map { $_->{payload_bytes} } @rows ], [ 16, 32 ], 'one row per payload size';
    my $doc = JSON::PP->new->decode(text_of("$out/spectrum.json") || '{}');
    for my $i (0 .. $#rows) {
        my $row  = $rows[$i];
        my $load = $doc->{runs}[$i]{report}{load};
        my $size = "$row->{payload_bytes} bytes";
        is_deeply [ @{$row}{qw(mode latency_kind rate_asked_per_s outliers)} ], [ 'rate', 'corrected', 2000, '' ],
            "$size: rate mode, corrected latency, 2000 asked, no outliers column";
        cmp_ok $row->{flows}, '>=', 1, "$size: at least one flow";
        # The rate is the messages over the span from the first send to the
        # last, each sent at most the largest slip after it was due: a first
        # send held up on a busy machine shortens the span by as much, so the
        # bounds, half and 1.1 times 2000/s at no slip, widen by the largest
        # slip the run reports.
        my $span_s = 999 / 2000;    # 1000 messages due 0.5 ms apart
        my $slip_s = ($load->{schedule_slip_max_us} // 0) / 1e6;
        my $most = $slip_s < $span_s ? 1.1 * 999 / ($span_s - $slip_s) : 'inf';
        my $least = 0.5 * 999 / ($span_s + $slip_s);
        ok $row->{rate_achieved_per_s} >= $least && $row->{rate_achieved_per_s} <= $most,
            "$size: each flow kept close to 2000 messages/s ($row->{rate_achieved_per_s}, between "
            . sprintf('%.0f and %s', $least, $most eq 'inf' ? $most : sprintf('%.0f', $most))
            . " at a largest slip of $slip_s s)";
        is $row->{messages_lost}, 0, "$size: nothing lost over TCP loopback";
        cmp_ok $row->{payload_mb_per_s_sent}, '>', 0, "$size: payload sent";
        cmp_ok $row->{iterations}, '>', 0, "$size: latency samples";
        latency_ordered_ok($row);
        ok $load->{duration_s} >= 0.45 && $load->{duration_s} < 5, "$size: ran for about 0.5 s ($load->{duration_s})";
        cmp_ok $row->{p99_us}, '==', $load->{latency_corrected}{p99_us}, "$size: the CSV's p99 is the corrected one";
        cmp_ok $load->{latency_corrected}{p99_us}, '>=', $load->{latency_uncorrected}{p99_us},
            "$size: corrected p99 >= uncorrected p99 (a message is never sent before it is due)";
    }
    is_deeply [ @{ $doc->{sweep} }{qw(mode rate_per_s duration_s)} ], [ 'rate', 2000, 0.5 ], 'JSON: the load options';
    my $first = $doc->{runs}[0] // $doc->{failed}[0] // { command => [] };    # a run that failed has its command too
    my $command = join ' ', @{ $first->{command} };
    like $command, qr/ --rate 2000 --duration 0\.5 /, 'the client was given the rate and the duration';
    like text_of("$out/spectrum.gp"), qr/rate mode, 2000 messages\/s per flow/, 'plot title';
};

subtest '--throughput for 0.5 s, 16 bytes to 64 KiB' => sub {
    my $out = sweep_ok([qw(--throughput --duration 0.5)], 120);
    my ($header, @rows) = csv_rows($out);
    is $header, join(',', SctpPerf::RunSpectrum::Reports::csv_columns('throughput')), 'the load columns';
    is_deeply [ map { $_->{payload_bytes} } @rows ], [ map { 2**$_ } 4 .. 16 ], 'from 16 bytes (the load minimum) up';
    my $doc = JSON::PP->new->decode(text_of("$out/spectrum.json") || '{}');
    for my $i (0 .. $#rows) {
        my $row  = $rows[$i];
        my $load = $doc->{runs}[$i]{report}{load};
        my $size = "$row->{payload_bytes} bytes";
        is_deeply [ @{$row}{qw(mode latency_kind rate_asked_per_s outliers)} ], [ 'throughput', 'uncorrected', '', '' ],
            "$size: throughput mode, uncorrected latency, no rate asked, no outliers column";
        ok $row->{rate_achieved_per_s} > 0 && $row->{payload_mb_per_s_sent} > 0, "$size: messages and payload sent";
        is $row->{messages_lost}, 0, "$size: nothing lost over TCP loopback";
        cmp_ok $row->{iterations}, '>', 0, "$size: latency samples";
        latency_ordered_ok($row);
        is $load->{latency_corrected}, undef, "$size: no corrected latency in throughput mode";
        cmp_ok $row->{p99_us}, '==', $load->{latency_uncorrected}{p99_us}, "$size: the CSV's p99 is the uncorrected one";
    }
    SKIP: {
        skip 'gnuplot is not installed (Debian: gnuplot-nox)', 1 unless $have_gnuplot;
        is substr(text_of("$out/spectrum.png"), 0, 8), "\x89PNG\r\n\x1a\n", 'spectrum.png is a PNG';
    }
};

done_testing;
