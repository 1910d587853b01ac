# SPDX-License-Identifier: Apache-2.0
# Reading the client's JSON report: the one format it reads, the keys each column
# of the table comes from, and what a failed or interrupted client wrote. Values
# are copied, never recomputed: the client computes every statistic.
package SctpPerf::RunSpectrum::Reports;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use B ();
use Exporter qw(import);
use JSON::PP ();

use SctpPerf::RunSpectrum::Children qw(read_text);
use SctpPerf::RunSpectrum::Errors qw($SCRIPT_NAME rethrow_interrupt);

our @EXPORT_OK = qw(json_decoder report_node report_value csv_columns row_from_report read_report error_text
                    client_error_message client_interrupted_by);

use constant REPORT_FORMAT_VERSION => 2;    # of the client's JSON report: the only one the script reads

# The CSV columns, in order; spectrum.json uses the same names for its rows.
our @CSV_COLUMNS = qw(payload_bytes iterations min_us mean_us p50_us p90_us p99_us
                      p99_9_us max_us stddev_us outliers);

# A load sweep (--rate or --throughput) appends these, so a reader of the ping-pong
# columns reads a load sweep's CSV unchanged.
our @LOAD_CSV_COLUMNS = qw(mode flows rate_asked_per_s rate_achieved_per_s messages_lost
                           payload_mb_per_s_sent latency_kind);

# Where each column comes from in the client's JSON report. `outliers` is the one
# derived column: samples outside the histogram range, histogram.below + histogram.above.
my %COLUMN_SOURCE = (
    payload_bytes => [qw(config payload_bytes)],
    iterations    => [qw(config iterations)],
    min_us        => [qw(summary min_us)],
    mean_us       => [qw(summary mean_us)],
    p50_us        => [qw(percentiles p50_us)],
    p90_us        => [qw(percentiles p90_us)],
    p99_us        => [qw(percentiles p99_us)],
    p99_9_us      => [qw(percentiles p99_9_us)],
    max_us        => [qw(summary max_us)],
    stddev_us     => [qw(summary stddev_us)],
);

# In a load mode the latency columns come from one of the report's load.latency_*
# objects. A rate run's headline is the corrected latency, timed from the moment each
# message was due, so a sender that falls behind its schedule shows the wait it caused
# instead of hiding it (coordinated omission). A throughput run has no schedule: every
# latency is timed from the actual send, uncorrected.
my %LATENCY_KIND = (rate => 'corrected', throughput => 'uncorrected');

my %LOAD_LATENCY_SOURCE = (
    iterations => 'num_points',
    min_us     => 'min_us',
    mean_us    => 'mean_us',
    p50_us     => 'p50_us',
    p90_us     => 'p90_us',
    p99_us     => 'p99_us',
    p99_9_us   => 'p99_9_us',
    max_us     => 'max_us',
    stddev_us  => 'stddev_us',
);

my %LOAD_COLUMN_SOURCE = (
    flows                 => [qw(load flows)],
    rate_asked_per_s      => [qw(load rate_asked_per_s)],
    rate_achieved_per_s   => [qw(load rate_achieved_per_s)],
    messages_lost         => [qw(load messages_lost)],
    payload_mb_per_s_sent => [qw(load payload_mb_per_s_sent)],
);

# Numbers are decoded as Perl numbers (doubles), which print with up to 15
# significant digits. That keeps the client's digits: a report of format 2 rounds
# its floats (microseconds to 3 decimals, seconds to 6, rates and the like to 6
# significant digits), so none has more than 15. Exact decoding (allow_bignum),
# which the 17-digit floats of format 1 needed, cost more than the rest of a
# sweep's bookkeeping together.
#
# Reports are decoded with Cpanel::JSON::XS where it is installed (the package
# depends on it), else with JSON::PP, Perl's own. Both give the same values:
# numbers as Perl numbers (with the flags is_json_number reads), strings as
# strings, true and false as JSON::PP::Boolean; writers.t holds them to it. For a
# client report of 12 kB JSON::PP took about 5 ms of CPU between two sizes of a
# sweep, Cpanel::JSON::XS 0.1 ms. What the script writes is encoded by JSON::PP
# alone (Writers): Cpanel::JSON::XS would write a whole float as 1.0 where
# spectrum.json has always had 1.
our $JSON_DECODER = eval { require Cpanel::JSON::XS; Cpanel::JSON::XS->new->utf8 } // JSON::PP->new->utf8;

sub json_decoder() { return $JSON_DECODER }

# A JSON number decodes to a Perl number and a JSON string to a Perl string, even
# "20"; the scalar's flags tell them apart where a pattern could not. Only freshly
# decoded values are asked: using a string as a number would give it the flag.
sub is_json_number($value) {
    return 0 if ref $value || !defined $value;
    return B::svref_2object(\$value)->FLAGS & (B::SVp_IOK | B::SVp_NOK) ? 1 : 0;
}

# Looks up a path of keys in a decoded JSON report; dies naming the path if absent,
# or naming the part that is null where an object was expected.
sub report_node($report, @keys) {
    my $node = $report;
    for my $i (0 .. $#keys) {
        die "its JSON report's '" . join('.', @keys[ 0 .. $i - 1 ]) . "' is null\n"
            if $i > 0 && !defined $node;
        die "its JSON report has no '" . join('.', @keys) . "'\n"
            unless ref $node eq 'HASH' && exists $node->{ $keys[$i] };
        $node = $node->{ $keys[$i] };
    }
    return $node;
}

# As report_node, for a number or null.
sub report_value($report, @keys) {
    my $node = report_node($report, @keys);
    die "its JSON report's '" . join('.', @keys) . "' is not a number\n"
        unless !defined $node || is_json_number($node);
    return $node;
}

# The CSV columns of a sweep in $mode ('ping-pong', 'rate' or 'throughput').
sub csv_columns($mode = 'ping-pong') {
    return $mode eq 'ping-pong' ? @CSV_COLUMNS : (@CSV_COLUMNS, @LOAD_CSV_COLUMNS);
}

# One CSV/JSON row from one client report of a run in $mode. Values are copied, never
# recomputed; null (a statistic the client could not compute, e.g. stddev of one
# sample) stays null.
sub row_from_report($report, $mode = 'ping-pong') {
    return load_row_from_report($report, $mode) if $mode ne 'ping-pong';
    my %row = map { $_ => report_value($report, @{ $COLUMN_SOURCE{$_} }) }
              grep { $COLUMN_SOURCE{$_} } @CSV_COLUMNS;
    my $below = report_value($report, qw(histogram below));
    my $above = report_value($report, qw(histogram above));
    die "its JSON report has no histogram counts\n" unless defined $below && defined $above;
    $row{outliers} = $below + $above;
    return \%row;
}

# A load run has no fixed-bin histogram, so `outliers` stays empty.
sub load_row_from_report($report, $mode) {
    my $mode_seen = report_node($report, qw(load mode));
    die "its JSON report is for mode '" . ($mode_seen // 'null') . "', not '$mode'\n"
        unless defined $mode_seen && !ref $mode_seen && $mode_seen eq $mode;
    my $kind = $LATENCY_KIND{$mode};
    my %row = (
        payload_bytes => report_value($report, @{ $COLUMN_SOURCE{payload_bytes} }),
        (map { $_ => report_value($report, 'load', "latency_$kind", $LOAD_LATENCY_SOURCE{$_}) } keys %LOAD_LATENCY_SOURCE),
        (map { $_ => report_value($report, @{ $LOAD_COLUMN_SOURCE{$_} }) } keys %LOAD_COLUMN_SOURCE),
        outliers     => undef,
        mode         => $mode,
        latency_kind => $kind,
    );
    return \%row;
}

# A client report of another format: every size would fail alike, so the sweep
# stops even with --keep-going.
sub wrong_format($message) { return bless { message => $message }, 'SctpPerf::RunSpectrum::WrongFormat' }

sub read_report($json_path, $size) {
    die "it wrote no JSON report to $json_path (does this client support --json-file?)\n"
        unless -s $json_path;
    my $report = eval { json_decoder()->decode(read_text($json_path)) };
    rethrow_interrupt($@);
    die "its JSON report is not valid JSON: $@" unless defined $report;
    die "its JSON report is not an object\n" unless ref $report eq 'HASH';
    die 'its JSON report is an error report: ' . error_text($report->{error}) . "\n" if exists $report->{error};
    my $version = $report->{format_version};
    die wrong_format('its JSON report is of format_version ' . (defined $version ? error_text($version) : 'none')
                     . "; $SCRIPT_NAME reads format_version ${\ REPORT_FORMAT_VERSION} only: "
                     . 'run it with the programs of the same sctp-perf release')
        unless defined $version && !ref $version && $version eq REPORT_FORMAT_VERSION;
    my $bytes_seen = report_value($report, qw(config payload_bytes));
    die 'its JSON report is for a payload of ' . error_text($bytes_seen) . " bytes, not $size->{bytes}\n"
        unless defined $bytes_seen && !ref $bytes_seen && $bytes_seen == $size->{bytes};
    return $report;
}

# A value from a report shown in a message: a string or number as it is, anything
# else as compact JSON.
sub error_text($value) {
    return 'null' unless defined $value;
    return JSON::PP->new->canonical->allow_nonref->encode($value) if ref $value;
    my $copy = $value;
    return "$copy";
}

# What a client that failed says in the error report it writes to --json-file
# ({"error": "...", "exit_code": N}), or undef if it wrote none.
sub client_error_message($json_path) {
    return unless -s $json_path;
    my $report = eval { json_decoder()->decode(read_text($json_path)) };
    rethrow_interrupt($@);
    return unless ref $report eq 'HASH' && defined $report->{error};
    return error_text($report->{error});
}

# The signal named by a client's report marked interrupted ("SIGINT"), or undef.
sub client_interrupted_by($json_path) {
    return unless -s $json_path;
    my $report = eval { json_decoder()->decode(read_text($json_path)) };
    rethrow_interrupt($@);
    return unless ref $report eq 'HASH' && $report->{interrupted};
    my $by = $report->{interrupted_by};
    return defined $by && !ref $by ? "$by" : 'a signal';
}
1;
