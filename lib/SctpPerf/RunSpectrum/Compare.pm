# SPDX-License-Identifier: Apache-2.0
# Interleaved comparison (--compare 'OPTIONS A' 'OPTIONS B').
package SctpPerf::RunSpectrum::Compare;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);
use File::Basename qw(basename);
use File::Path qw(make_path);
use File::Spec;

use SctpPerf::RunSpectrum::Children qw(spawn wait_child describe_status read_text tail_lines);
use SctpPerf::RunSpectrum::Commands qw(client_command server_command);
use SctpPerf::RunSpectrum::Errors qw($SCRIPT_NAME runtime_error rethrow_interrupt note bytes_text);
use SctpPerf::RunSpectrum::Failures qw(client_failure keep_after_error);
use SctpPerf::RunSpectrum::Options qw(size_text size_key placement_text placement_note);
use SctpPerf::RunSpectrum::Plot qw(gnuplot_png_output gnuplot_string size_label start_plot finish_plot);
use SctpPerf::RunSpectrum::Reports qw(json_decoder report_node report_value read_report error_text);
use SctpPerf::RunSpectrum::Server qw(start_server stop_server);
use SctpPerf::RunSpectrum::Writers qw(TOOL_VERSION run_settings_json csv_field open_csv append_line json_text
                                      write_file_atomically iso_utc);

our @EXPORT_OK = qw(run_compare);

use constant COMPARE_FORMAT_VERSION => 1;    # of compare.json

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
        my $doc = eval { json_decoder()->decode(read_text($file{json})) };
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
        tool_version   => TOOL_VERSION,
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
1;
