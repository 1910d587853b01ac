# SPDX-License-Identifier: Apache-2.0
# The sweep's plot: spectrum.gp, a gnuplot script kept beside the data for anyone
# to restyle, and gnuplot run on it to draw spectrum.png.
package SctpPerf::RunSpectrum::Plot;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);
use File::Spec;
use Time::HiRes ();

use SctpPerf::RunSpectrum::Children qw(spawn wait_child stop_child describe_status read_text tail_lines);
use SctpPerf::RunSpectrum::Errors qw($SCRIPT_NAME runtime_error note);
use SctpPerf::RunSpectrum::Options qw(placement_text);
use SctpPerf::RunSpectrum::Writers qw(%OUTPUT_NAME);

our @EXPORT_OK = qw(gnuplot_png_output gnuplot_string size_label gnuplot_script plot_title draw_plot start_plot
                    finish_plot find_in_path);

use constant GNUPLOT_TIMEOUT_S => 60;

# The path of $name in PATH, or undef.
sub find_in_path($name) {
    for my $dir (grep { length } File::Spec->path) {
        my $p = File::Spec->catfile($dir, $name);
        return $p if -f $p && -x _;
    }
    return;
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
1;
