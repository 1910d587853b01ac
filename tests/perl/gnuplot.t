# SPDX-License-Identifier: Apache-2.0
# The kept gnuplot script: what it says, and that gnuplot (where installed) turns the
# fixture CSV into a PNG with it.
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Copy qw(copy);
use File::Temp ();
use JSON::PP ();
use Test::More;
use SctpPerf::TestSweep qw(load_script fixture_dir read_file);

load_script();

my $title = q{sctp-perf round-trip latency: TCP stream to my_host's box, 4 iterations per size};
my $gp = SctpPerf::RunSpectrum::Plot::gnuplot_script(title => $title, payload_bytes => [ 1, 2, 4, 1024, 65536 ]);

like $gp, qr/^data_file = 'spectrum\.csv'$/m, 'reads spectrum.csv';
like $gp, qr/^image_file = 'spectrum\.png'$/m, 'writes spectrum.png';
like $gp, qr/^set logscale x 2$/m, 'x axis log2';
like $gp, qr/^set logscale y 10$/m, 'y axis log10';
like $gp, qr/^set datafile separator comma$/m, 'CSV';
like $gp, qr/^set title 'sctp-perf round-trip latency: TCP stream to my_host''s box, 4 iterations per size' noenhanced$/m,
    'title quoted for gnuplot, underscores not taken as subscripts';
like $gp, qr/^set xrange \[1 \/ sqrt\(2\) : 65536 \* sqrt\(2\)\]$/m, 'half a power of two of room either side';
like $gp, qr/^set xtics \('1' 1, '2' 2, '4' 4, '1K' 1024, '64K' 65536\)$/m, 'a tic per size, in bytes';
for my $column (qw(min_us p50_us p99_us max_us)) {
    like $gp, qr/using 'payload_bytes':'$column'/, "plots $column";
}
like $gp, qr/pngcairo/, 'prefers the cairo PNG terminal';
like $gp, qr/^# .*gnuplot spectrum\.gp/m, 'says how to redraw';

is SctpPerf::RunSpectrum::Plot::plot_title(
    { transport => 'sctp', service => 'seqpack', server_host => undef, iterations => undef }, [ {} ], []),
    'sctp-perf round-trip latency: SCTP seqpack to the default host, client default iterations, unpinned',
    'title without a report or options';
is SctpPerf::RunSpectrum::Plot::plot_title(
    { transport => 'sctp', service => 'stream' }, [ { iterations => 7 } ],
    [ { report => { config => { transport => 'tcp', service => 'stream', server_hosts => ['127.0.0.1'] } } } ]),
    'sctp-perf round-trip latency: TCP stream to 127.0.0.1, 7 iterations per size, unpinned',
    'title from the first run\'s report';
is SctpPerf::RunSpectrum::Plot::plot_title(
    { transport => 'sctp', service => 'seqpack', server_host => '192.0.2.10,198.51.100.10', iterations => 5 }, [ {} ],
    [ { report => { config => { server_hosts => [ '192.0.2.10', '198.51.100.10' ] } } } ]),
    'sctp-perf round-trip latency: SCTP seqpack to 192.0.2.10,198.51.100.10, 5 iterations per size, unpinned',
    'a multi-homed server: every address the client was given';

subtest 'placement in the title' => sub {
    my $title = sub (%sweep) {
        return SctpPerf::RunSpectrum::Plot::plot_title(
            { transport => 'tcp', service => 'stream', server_host => '127.0.0.1', iterations => 100, %sweep }, [ {} ], []);
    };
    my $head = 'sctp-perf round-trip latency: TCP stream to 127.0.0.1, 100 iterations per size';
    is $title->(client_cpu => '0', server_cpu => '0', started_server => JSON::PP::true),
        "$head, client CPU 0, server CPU 0", 'both ends on CPU 0';
    is $title->(client_cpu => '0-1', server_cpu => '0,2-3', started_server => JSON::PP::true),
        "$head, client CPUs 0-1, server CPUs 0,2-3", 'CPU lists as given';
    is $title->(client_cpu => '1', started_server => JSON::PP::true),
        "$head, client CPU 1, server unpinned", 'only the client pinned, the server started by the script';
    is $title->(client_cpu => '1', started_server => JSON::PP::false),
        "$head, client CPU 1", 'a server started by hand: its placement is not the script\'s to tell';
    is $title->(started_server => JSON::PP::true), "$head, unpinned", 'neither pinned';
    like SctpPerf::RunSpectrum::Plot::plot_title(
        { transport => 'tcp', service => 'stream', mode => 'rate', rate_per_s => 10, flows => 1, duration_s => 1,
          client_cpu => '0', server_cpu => '1', started_server => JSON::PP::true }, [ {} ], []),
        qr/rate mode, 10 messages\/s per flow, 1 flow, 1 s per size, client CPU 0, server CPU 1$/, 'under load too';
};

like $gp, qr/^set ylabel 'round-trip latency \(microseconds, log10 scale\)'$/m, 'ping-pong: round-trip latency';
like SctpPerf::RunSpectrum::Plot::gnuplot_script(title => 't', payload_bytes => [16], mode => 'rate'),
    qr/^set ylabel 'corrected round-trip latency, from each message''s due time \(microseconds, log10 scale\)'$/m,
    'rate: corrected latency';
like SctpPerf::RunSpectrum::Plot::gnuplot_script(title => 't', payload_bytes => [16], mode => 'throughput'),
    qr/^set ylabel 'uncorrected round-trip latency, from the actual send \(microseconds, log10 scale\)'$/m,
    'throughput: uncorrected latency';

my $rate_run = { report => { config => { transport => 'tcp', service => 'stream', server_hosts => ['127.0.0.1'] },
                             load => { mode => 'rate', flows => 2, rate_asked_per_s => 2000 } } };
is SctpPerf::RunSpectrum::Plot::plot_title(
    { transport => 'tcp', service => 'stream', mode => 'rate', rate_per_s => 2000, duration_s => 0.5 },
    [ { iterations => 4 } ], [$rate_run]),
    'sctp-perf latency under load: TCP stream to 127.0.0.1, rate mode, 2000 messages/s per flow, 2 flows, 0.5 s per size, unpinned',
    'rate: the mode, the rate, the flows from the report and the duration';
is SctpPerf::RunSpectrum::Plot::plot_title(
    { transport => 'sctp', service => 'seqpack', mode => 'throughput', iterations => 1000, flows => 1 }, [ {} ], []),
    'sctp-perf latency under load: SCTP seqpack to the default host, throughput mode, as fast as the transport accepts, '
  . '1 flow, 1000 iterations per size, unpinned',
    'throughput: the mode, one flow and the iterations asked for (not the row\'s latency samples)';
is SctpPerf::RunSpectrum::Plot::plot_title({ transport => 'tcp', service => 'stream', mode => 'throughput' }, [ {} ], []),
    'sctp-perf latency under load: TCP stream to the default host, throughput mode, as fast as the transport accepts, '
  . 'client default flows, client default length, unpinned',
    'throughput with the client\'s defaults';

SKIP: {
    skip 'gnuplot is not installed (Debian: gnuplot-nox)', 2 unless SctpPerf::RunSpectrum::Plot::find_in_path('gnuplot');
    my $dir = File::Temp->newdir;
    copy(fixture_dir() . '/expected-rate.csv', "$dir/spectrum.csv") or die "copy: $!";
    open my $fh, '>', "$dir/spectrum.gp" or die;
    print {$fh} SctpPerf::RunSpectrum::Plot::gnuplot_script(title => 'rate', payload_bytes => [ 16, 32 ], mode => 'rate');
    close $fh;
    my $work = File::Temp->newdir;
    ok SctpPerf::RunSpectrum::Plot::draw_plot("$dir", "$work"), 'gnuplot draws a load sweep\'s CSV';
    is substr(read_file("$dir/spectrum.png"), 0, 8), "\x89PNG\r\n\x1a\n", 'a PNG';
}

SKIP: {
    skip 'gnuplot is not installed (Debian: gnuplot-nox)', 3 unless SctpPerf::RunSpectrum::Plot::find_in_path('gnuplot');
    my $dir = File::Temp->newdir;
    copy(fixture_dir() . '/expected.csv', "$dir/spectrum.csv") or die "copy: $!";
    open my $fh, '>', "$dir/spectrum.gp" or die;
    print {$fh} SctpPerf::RunSpectrum::Plot::gnuplot_script(title => $title, payload_bytes => [ 1, 2, 4 ]);
    close $fh;
    my $work = File::Temp->newdir;
    ok SctpPerf::RunSpectrum::Plot::draw_plot("$dir", "$work"), 'gnuplot ran';
    ok -s "$dir/spectrum.png", 'spectrum.png written';
    is substr(read_file("$dir/spectrum.png"), 0, 8), "\x89PNG\r\n\x1a\n", 'it is a PNG';
}

done_testing;
