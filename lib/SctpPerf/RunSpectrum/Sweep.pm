# SPDX-License-Identifier: Apache-2.0
# The sweep: the client once per size, against the server the script started or
# one given, each report a row of spectrum.csv and spectrum.json, then the plot.
package SctpPerf::RunSpectrum::Sweep;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);
use File::Basename qw(basename);
use File::Spec;
use POSIX ();

use SctpPerf::RunSpectrum::Children qw(spawn wait_child describe_status read_text);
use SctpPerf::RunSpectrum::Commands qw(client_command);
use SctpPerf::RunSpectrum::Errors qw(runtime_error rethrow_interrupt note);
use SctpPerf::RunSpectrum::Failures qw(client_failure keep_after_error);
use SctpPerf::RunSpectrum::Options qw(size_text size_key placement_note);
use SctpPerf::RunSpectrum::Plot qw(gnuplot_script plot_title start_plot finish_plot);
use SctpPerf::RunSpectrum::Reports qw(read_report row_from_report);
use SctpPerf::RunSpectrum::Server qw(start_server stop_server);
use SctpPerf::RunSpectrum::Writers qw(%OUTPUT_NAME run_settings_json csv_line open_csv append_line json_text
                                      sweep_document write_file_atomically iso_utc);

our @EXPORT_OK = qw(run_sweep);

sub timestamp(@time) {
    return POSIX::strftime('%Y%m%dT%H%M%S', @time ? @time : localtime);
}

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
1;
