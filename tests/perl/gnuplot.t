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
use Test::More;
use SctpPerf::TestSweep qw(load_script fixture_dir read_file);

load_script();

my $title = q{sctp-perf round-trip latency: TCP stream to my_host's box, 4 iterations per size};
my $gp = SctpPerf::RunSpectrum::gnuplot_script(title => $title, payload_bytes => [ 1, 2, 4, 1024, 65536 ]);

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

is SctpPerf::RunSpectrum::plot_title(
    { transport => 'sctp', service => 'seqpack', server_host => undef, iterations => undef }, [ {} ], []),
    'sctp-perf round-trip latency: SCTP seqpack to the default host, client default iterations',
    'title without a report or options';
is SctpPerf::RunSpectrum::plot_title(
    { transport => 'sctp', service => 'stream' }, [ { iterations => 7 } ],
    [ { report => { config => { transport => 'tcp', service => 'stream', server_host => '127.0.0.1' } } } ]),
    'sctp-perf round-trip latency: TCP stream to 127.0.0.1, 7 iterations per size',
    'title from the first run\'s report';

SKIP: {
    skip 'gnuplot is not installed (Debian: gnuplot-nox)', 3 unless SctpPerf::RunSpectrum::find_in_path('gnuplot');
    my $dir = File::Temp->newdir;
    copy(fixture_dir() . '/expected.csv', "$dir/spectrum.csv") or die "copy: $!";
    open my $fh, '>', "$dir/spectrum.gp" or die;
    print {$fh} SctpPerf::RunSpectrum::gnuplot_script(title => $title, payload_bytes => [ 1, 2, 4 ]);
    close $fh;
    my $work = File::Temp->newdir;
    ok SctpPerf::RunSpectrum::draw_plot("$dir", "$work"), 'gnuplot ran';
    ok -s "$dir/spectrum.png", 'spectrum.png written';
    is substr(read_file("$dir/spectrum.png"), 0, 8), "\x89PNG\r\n\x1a\n", 'it is a PNG';
}

done_testing;
