# SPDX-License-Identifier: Apache-2.0
# The files a sweep writes as it goes and when it ends: spectrum.csv a line at a
# time, spectrum.json (and compare.json) whole, each through a rename.
package SctpPerf::RunSpectrum::Writers;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);
use File::Basename qw(basename dirname);
use File::Temp ();
use JSON::PP ();
use POSIX ();

use SctpPerf::RunSpectrum::Errors qw($SCRIPT_NAME runtime_error rethrow_interrupt);
use SctpPerf::RunSpectrum::Reports qw(csv_columns);

our @EXPORT_OK = qw(%OUTPUT_NAME TOOL_VERSION json_encoder run_settings_json csv_field csv_header csv_line csv_text open_csv
                    append_line json_text sweep_document write_file_atomically iso_utc);

use constant {
    TOOL_VERSION        => '1.0.0',    # sctp-perf's, written into spectrum.json and compare.json
    DATA_FORMAT_VERSION => 2,          # of spectrum.json
};

# Fixed output names: a directory holds the results of its latest sweep.
our %OUTPUT_NAME = (
    csv     => 'spectrum.csv',
    json    => 'spectrum.json',
    gnuplot => 'spectrum.gp',
    png     => 'spectrum.png',
);

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

# spectrum.json and compare.json: sorted keys, three spaces of indent, numbers as
# Perl prints them (Reports: why JSON::PP).
sub json_encoder() { return JSON::PP->new->utf8->canonical->pretty }

sub json_text($document) {
    return json_encoder()->encode($document);
}

# spectrum.json: the sweep's configuration, the rows as in the CSV, every run's full
# client report and the sizes that failed. %a: sweep, rows, runs, failed, and mode
# (default ping-pong), which picks the columns.
sub sweep_document(%a) {
    return {
        tool           => 'sctp-perf',
        program        => $SCRIPT_NAME,
        tool_version   => TOOL_VERSION,
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

# A moment as spectrum.json and compare.json record it.
sub iso_utc() { return POSIX::strftime('%Y-%m-%dT%H:%M:%SZ', gmtime) }

1;
