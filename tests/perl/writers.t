# SPDX-License-Identifier: Apache-2.0
# CSV and JSON from canned client reports of format_version 2 (tests/perl/fixtures,
# arithmetic in its README): every number is copied from the report, digit for digit.
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Temp ();
use JSON::PP ();
use Test::More;
use SctpPerf::TestSweep qw(load_script fixture_dir read_file);

load_script();

my $fixtures = fixture_dir();
my @reports = map { SctpPerf::RunSpectrum::Reports::read_report("$fixtures/client-s$_.json", SctpPerf::RunSpectrum::Options::power_size($_)) } 0 .. 2;
my @rows = map { SctpPerf::RunSpectrum::Reports::row_from_report($_) } @reports;

subtest 'rows' => sub {
    my %first = map { $_ => "$rows[0]{$_}" } grep { defined $rows[0]{$_} } keys %{ $rows[0] };
    is_deeply \%first, {
        payload_bytes => 1, iterations => 4, min_us => 10, mean_us => 25, p50_us => 20, p90_us => 40,
        p99_us => 40, p99_9_us => 40, max_us => 40, stddev_us => '12.91',
        outliers => 1,    # below 0 + above 1 (40 >= histogram max 35)
    }, 'power 0, every column';
    is $rows[1]{outliers}, 2, 'power 1: below 1 (5 < 10) + above 1 (100 >= 50)';
    is "$rows[1]{mean_us}", '32.75', 'power 1: mean';
    is "$rows[1]{stddev_us}", '44.999', 'power 1: stddev with the client\'s 3 decimals';
    is $rows[2]{stddev_us}, undef, 'power 2: stddev of one sample is null';
    is "$rows[2]{p50_us}", '7.5', 'power 2: p50';
};

subtest 'CSV' => sub {
    my $csv = SctpPerf::RunSpectrum::Writers::csv_text(\@rows);
    is $csv, read_file("$fixtures/expected.csv"), 'matches fixtures/expected.csv';
    my @lines = split /\n/, $csv;
    is scalar @lines, 4, 'header and three rows';
    is $lines[0], 'payload_bytes,iterations,min_us,mean_us,p50_us,p90_us,p99_us,p99_9_us,max_us,stddev_us,outliers',
        'header';
    is SctpPerf::RunSpectrum::Writers::csv_text([]), "$lines[0]\n", 'no rows: header only';
    is SctpPerf::RunSpectrum::Writers::csv_header() . join('', map { SctpPerf::RunSpectrum::Writers::csv_line($_) } @rows), $csv,
        'the header and a line per row, as a sweep appends them, make the same text';
};

subtest 'CSV appended line by line' => sub {
    my $dir = File::Temp->newdir;
    my $path = "$dir/spectrum.csv";
    my $fh = SctpPerf::RunSpectrum::Writers::open_csv($path, 'ping-pong');
    is read_file($path), SctpPerf::RunSpectrum::Writers::csv_header(), 'the header is on disk as soon as the file is opened';
    for my $i (0 .. $#rows) {
        SctpPerf::RunSpectrum::Writers::append_line($fh, $path, SctpPerf::RunSpectrum::Writers::csv_line($rows[$i]));
        is read_file($path), SctpPerf::RunSpectrum::Writers::csv_text([ @rows[ 0 .. $i ] ]),
            'row ' . ($i + 1) . ' is on disk at once, without a close or a flush';
    }
    close $fh;
    is read_file($path), read_file("$fixtures/expected.csv"), 'the whole file as fixtures/expected.csv';

    SKIP: {
        skip 'no /dev/full here', 2 unless -c '/dev/full' && open my $full, '>', '/dev/full';
        my $error = eval { SctpPerf::RunSpectrum::Writers::append_line($full, 'spectrum.csv', "1,2\n"); undef } // $@;
        is ref $error && $error->{status}, 1, 'a full disk: a runtime failure';
        like $error->{message}, qr/^cannot write spectrum\.csv: No space left on device$/, 'in one sentence naming the file';
    }
};

subtest 'JSON document' => sub {
    my $sweep = { service => 'stream', transport => 'tcp', iterations => 4, server_host => '127.0.0.1' };
    my @runs = map { { payload_power_of_2 => $_, payload_bytes => 2**$_, report => $reports[$_] } } 0 .. 2;
    my $failed = [ { payload_power_of_2 => 3, payload_bytes => 8, reason => 'SOCK_STREAM_clt exited with status 1' } ];
    my $text = SctpPerf::RunSpectrum::Writers::json_text(SctpPerf::RunSpectrum::Writers::sweep_document(
        sweep => $sweep, rows => \@rows, runs => \@runs, failed => $failed));
    my $doc = JSON::PP->new->decode($text);

    is $doc->{tool}, 'sctp-perf', 'tool';
    is $doc->{format_version}, 2, 'format version 2';
    is_deeply $doc->{sweep}, $sweep, 'the sweep configuration';
    is_deeply $doc->{columns}, [qw(payload_bytes iterations min_us mean_us p50_us p90_us p99_us p99_9_us max_us stddev_us outliers)],
        'columns in CSV order';
    is scalar @{ $doc->{rows} }, 3, 'three rows';
    is $doc->{rows}[1]{outliers}, 2, 'row values';
    is $doc->{rows}[2]{stddev_us}, undef, 'null stays null';
    is_deeply $doc->{runs}[1]{report}, JSON::PP->new->decode(read_file("$fixtures/client-s1.json")),
        'each run keeps the full client report';
    is_deeply $doc->{failed}, $failed, 'failed sizes';

    like $text, qr/"stddev_us" : 44\.999\b/, 'numbers are written with the client\'s digits';
    like $text, qr/"read_cost_ns" : 20\.5,/, 'also those the script does not read';
    like $text, qr/"mean_us" : 32\.75,/, 'numbers stay JSON numbers, not strings';
    unlike $text, qr/"(?:min|max|mean|p[\d_]+)_us" : "/, 'no number turned into a string';
};

subtest 'floats of format 2 keep their digits without exact decoding' => sub {
    # The client rounds microseconds to 3 decimals, seconds to 6 and other floats to
    # 6 significant digits; a double prints any of them back as written.
    my $dir = File::Temp->newdir;
    my $report = JSON::PP->new->decode(read_file("$fixtures/client-s0.json"));
    my @figures = qw(0.001 12.345 123456.789 999999999.999 0.123456 86400.000001 123457 0.000123457 1.23457e+20);
    @{ $report->{summary} }{qw(min_us p_a p_b p_c duration_s long_s rate small large)} = map { 0 + $_ } @figures;
    open my $fh, '>', "$dir/r.json" or die;
    print {$fh} JSON::PP->new->encode($report);
    close $fh;
    my $read = SctpPerf::RunSpectrum::Reports::read_report("$dir/r.json", SctpPerf::RunSpectrum::Options::power_size(0));
    my $text = SctpPerf::RunSpectrum::Writers::json_text($read);
    like $text, qr/"\Q$_->[0]\E" : \Q$_->[1]\E,?\n/, "$_->[1] as written"
        for [ min_us => '0.001' ], [ p_a => '12.345' ], [ p_b => '123456.789' ], [ p_c => '999999999.999' ],
            [ duration_s => '0.123456' ], [ long_s => '86400.000001' ], [ rate => '123457' ];
    is SctpPerf::RunSpectrum::Writers::csv_field($read->{summary}{p_c}), '999999999.999', 'and in the CSV';
};

subtest 'Cpanel::JSON::XS reads a report as JSON::PP does' => sub {
    plan skip_all => 'Cpanel::JSON::XS is not installed' unless eval { require Cpanel::JSON::XS; 1 };
    is ref SctpPerf::RunSpectrum::Reports::json_decoder(), 'Cpanel::JSON::XS', 'the reports are read with it';
    # The fixtures, and one with numbers of every form a JSON writer may give, among
    # them whole floats (14.0), which Cpanel::JSON::XS would itself write as 14.0.
    my $dir = File::Temp->newdir;
    (my $forms = read_file("$fixtures/client-s0.json")) =~ s/\{/{ "forms": [14.0, 2000, 0.5, 1e+20, 1.23457e+20, 0.000123457, 86400.000001, -0.0, 12345678901234567890, 1e-07, true, false, null, "20", "\\u00e9"],/;
    open my $fh, '>', "$dir/forms.json" or die;
    print {$fh} $forms;
    close $fh or die;
    for my $case ([ "$fixtures/client-s0.json", 0, 'ping-pong' ], [ "$fixtures/client-s2.json", 2, 'ping-pong' ],
                  [ "$fixtures/client-rate-s4.json", 4, 'rate' ], [ "$fixtures/client-throughput-s4.json", 4, 'throughput' ],
                  [ "$dir/forms.json", 0, 'ping-pong' ]) {
        my ($path, $power, $mode) = @$case;
        my $read = sub ($decoder) {
            no warnings qw(once);
            local $SctpPerf::RunSpectrum::Reports::JSON_DECODER = $decoder;
            my $report = SctpPerf::RunSpectrum::Reports::read_report($path, SctpPerf::RunSpectrum::Options::power_size($power));
            return ($report, SctpPerf::RunSpectrum::Reports::row_from_report($report, $mode));
        };
        my ($xs_report, $xs_row) = $read->(Cpanel::JSON::XS->new->utf8);
        my ($pp_report, $pp_row) = $read->(JSON::PP->new->utf8);
        my $name = $path =~ s{.*/}{}r;
        is_deeply $xs_row, $pp_row, "$name: the same row";
        is SctpPerf::RunSpectrum::Writers::csv_line($xs_row, $mode), SctpPerf::RunSpectrum::Writers::csv_line($pp_row, $mode),
            "$name: the same CSV line";
        is SctpPerf::RunSpectrum::Writers::json_text($xs_report), SctpPerf::RunSpectrum::Writers::json_text($pp_report),
            "$name: the same JSON written";
    }
};

subtest 'reports the script refuses' => sub {
    my $dir = File::Temp->newdir;
    my $write = sub ($name, $text) { my $p = "$dir/$name"; open my $fh, '>', $p or die; print {$fh} $text; close $fh; $p };
    my $good = JSON::PP->new->decode(read_file("$fixtures/client-s0.json"));
    my $broken = sub ($change) { my $d = JSON::PP->new->decode(JSON::PP->new->encode($good)); $change->($d); JSON::PP->new->encode($d) };

    my @cases = (
        [ 'missing file',     undef,                                            qr/wrote no JSON report to .* --json-file/ ],
        [ 'not JSON',         'ACE text, not JSON',                             qr/not valid JSON/ ],
        [ 'not an object',    '[1, 2]',                                         qr/not an object/ ],
        [ 'other size',       $broken->(sub ($d) { $d->{config}{payload_bytes} = 32 }), qr/for a payload of 32 bytes, not 1/ ],
        [ 'no size',          $broken->(sub ($d) { delete $d->{config}{payload_bytes} }), qr/has no 'config\.payload_bytes'/ ],
        [ 'no percentiles',   $broken->(sub ($d) { delete $d->{percentiles} }), qr/has no 'percentiles\.p50_us'/ ],
        [ 'no p99_9_us',      $broken->(sub ($d) { delete $d->{percentiles}{p99_9_us} }), qr/has no 'percentiles\.p99_9_us'/ ],
        [ 'a number as text', $broken->(sub ($d) { $d->{percentiles}{p50_us} = '20' }), qr/'percentiles\.p50_us' is not a number/ ],
        [ 'format 1',         read_file("$fixtures/client-format1-s0.json"),
          qr/^its JSON report is of format_version 1; run_spectrum\.pl reads format_version 2 only: run it with the programs of the same sctp-perf release$/ ],
        [ 'format 3',         $broken->(sub ($d) { $d->{format_version} = 3 }), qr/is of format_version 3; .* reads format_version 2 only/ ],
        [ 'no format',        $broken->(sub ($d) { delete $d->{format_version} }), qr/is of format_version none; / ],
        [ 'an error report',  read_file("$fixtures/client-error.json"),
          qr/is an error report: cannot connect to 127\.0\.0\.1 port 45453: Connection refused; is the server running\?/ ],
        [ 'text for a number', $broken->(sub ($d) { $d->{summary}{max_us} = 'lots' }), qr/'summary\.max_us' is not a number/ ],
        [ 'no histogram',     $broken->(sub ($d) { delete $d->{histogram} }),   qr/has no 'histogram\.below'/ ],
    );
    for my $case (@cases) {
        my ($name, $text, $pattern) = @$case;
        my $path = defined $text ? $write->("$name.json", $text) : "$dir/none.json";
        my $error = eval { SctpPerf::RunSpectrum::Reports::row_from_report(SctpPerf::RunSpectrum::Reports::read_report($path, SctpPerf::RunSpectrum::Options::power_size(0))); undef } // $@;
        like ref $error ? $error->{message} : $error, $pattern, $name;
    }
    my $error = eval { SctpPerf::RunSpectrum::Reports::read_report("$fixtures/client-format1-s0.json", SctpPerf::RunSpectrum::Options::power_size(0)) } // $@;
    is ref $error, 'SctpPerf::RunSpectrum::WrongFormat', 'another format is told apart, so the sweep stops';

    is SctpPerf::RunSpectrum::Reports::client_error_message("$fixtures/client-error.json"),
        'cannot connect to 127.0.0.1 port 45453: Connection refused; is the server running?',
        'a failed client\'s error report: its message';
    is SctpPerf::RunSpectrum::Reports::client_error_message("$fixtures/client-s0.json"), undef, 'a report of figures: none';
    is SctpPerf::RunSpectrum::Reports::client_error_message("$dir/none.json"), undef, 'no file: none';
    is SctpPerf::RunSpectrum::Reports::client_error_message($write->('text.json', 'Segmentation fault')), undef, 'not JSON: none';
};

# Load modes: the latency columns from load.latency_corrected (rate) or
# load.latency_uncorrected (throughput), outliers empty, seven columns appended.
my @rate_reports = map { SctpPerf::RunSpectrum::Reports::read_report("$fixtures/client-rate-s$_.json", SctpPerf::RunSpectrum::Options::power_size($_)) } 4, 5;
my @rate_rows = map { SctpPerf::RunSpectrum::Reports::row_from_report($_, 'rate') } @rate_reports;
my $throughput_report = SctpPerf::RunSpectrum::Reports::read_report("$fixtures/client-throughput-s4.json", SctpPerf::RunSpectrum::Options::power_size(4));
my $throughput_row = SctpPerf::RunSpectrum::Reports::row_from_report($throughput_report, 'throughput');

sub as_text($row) { return { map { $_ => defined $row->{$_} ? "$row->{$_}" : undef } keys %$row } }

subtest 'load rows' => sub {
    is_deeply as_text($rate_rows[0]), {
        payload_bytes => 16, iterations => 4, min_us => 10, mean_us => 50, p50_us => 20, p90_us => 140,
        p99_us => 140, p99_9_us => 140, max_us => 140, stddev_us => '60.553', outliers => undef,
        mode => 'rate', flows => 2, rate_asked_per_s => 2000, rate_achieved_per_s => 1600, messages_lost => 0,
        payload_mb_per_s_sent => '0.0512', latency_kind => 'corrected',
    }, 'rate, power 4: every column, the latency corrected (140, not the uncorrected 40)';
    is "$rate_rows[1]{iterations}", 3, 'rate, power 5: iterations are the 3 latency samples';
    is "$rate_rows[1]{messages_lost}", 1, 'rate, power 5: one message lost';
    is_deeply as_text($throughput_row), {
        payload_bytes => 16, iterations => 4, min_us => 8, mean_us => 20, p50_us => 12, p90_us => 40,
        p99_us => 40, p99_9_us => 40, max_us => 40, stddev_us => '14.236', outliers => undef,
        mode => 'throughput', flows => 1, rate_asked_per_s => undef, rate_achieved_per_s => 200000,
        messages_lost => 0, payload_mb_per_s_sent => '3.2', latency_kind => 'uncorrected',
    }, 'throughput: every column, the latency uncorrected, no rate asked';
};

subtest 'load CSV' => sub {
    is SctpPerf::RunSpectrum::Writers::csv_text(\@rate_rows, 'rate'), read_file("$fixtures/expected-rate.csv"),
        'rate: matches fixtures/expected-rate.csv';
    is SctpPerf::RunSpectrum::Writers::csv_text([$throughput_row], 'throughput'), read_file("$fixtures/expected-throughput.csv"),
        'throughput: matches fixtures/expected-throughput.csv';
    my ($header) = split /\n/, SctpPerf::RunSpectrum::Writers::csv_text([], 'rate');
    is $header, 'payload_bytes,iterations,min_us,mean_us,p50_us,p90_us,p99_us,p99_9_us,max_us,stddev_us,outliers,'
              . 'mode,flows,rate_asked_per_s,rate_achieved_per_s,messages_lost,payload_mb_per_s_sent,latency_kind',
        'the ping-pong columns first, unchanged, then the load columns';
    is SctpPerf::RunSpectrum::Writers::csv_text(\@rows), read_file("$fixtures/expected.csv"), 'ping-pong CSV unchanged';
};

subtest 'load JSON document' => sub {
    my $sweep = { service => 'stream', transport => 'tcp', mode => 'rate', rate_per_s => 2000, duration_s => 0.5, flows => 2 };
    my @runs = map { { payload_power_of_2 => $_ + 4, payload_bytes => 2**($_ + 4), report => $rate_reports[$_] } } 0, 1;
    my $text = SctpPerf::RunSpectrum::Writers::json_text(SctpPerf::RunSpectrum::Writers::sweep_document(
        sweep => $sweep, rows => \@rate_rows, runs => \@runs, failed => [], mode => 'rate'));
    my $doc = JSON::PP->new->decode($text);
    is_deeply $doc->{sweep}, $sweep, 'the sweep configuration with the load options';
    is_deeply $doc->{columns}, [ SctpPerf::RunSpectrum::Reports::csv_columns('rate') ], 'the load columns';
    is $doc->{rows}[0]{outliers}, undef, 'outliers null';
    is $doc->{rows}[1]{latency_kind}, 'corrected', 'latency kind';
    is_deeply $doc->{runs}[0]{report}{load}, JSON::PP->new->decode(read_file("$fixtures/client-rate-s4.json"))->{load},
        'each run keeps the client\'s load object';
    like $text, qr/"payload_mb_per_s_sent" : 0\.0512,/, 'load figures are numbers with the client\'s digits';
    like $text, qr/"rate_asked_per_s" : 2000,/, 'the asked rate is a number';
    like $text, qr/"rate_per_s" : 2000,/, 'the configured rate is a number';
};

subtest 'load reports the script refuses' => sub {
    my $dir = File::Temp->newdir;
    my $rate = JSON::PP->new->decode(read_file("$fixtures/client-rate-s4.json"));
    my $count = 0;
    my $changed = sub ($change) {
        my $d = JSON::PP->new->decode(JSON::PP->new->encode($rate));
        $change->($d);
        my $path = "$dir/report-" . ++$count . '.json';
        open my $fh, '>', $path or die;
        print {$fh} JSON::PP->new->encode($d);
        close $fh;
        return $path;
    };
    my @cases = (
        [ 'a ping-pong report', "$fixtures/client-s0.json", 0, 'rate', qr/has no 'load\.mode'/ ],
        [ 'a throughput report read as rate', "$fixtures/client-throughput-s4.json", 4, 'rate',
          qr/is for mode 'throughput', not 'rate'/ ],
        [ 'a rate report read as throughput', "$fixtures/client-rate-s4.json", 4, 'throughput',
          qr/is for mode 'rate', not 'throughput'/ ],
        [ 'no corrected latency in rate mode', $changed->(sub ($d) { $d->{load}{latency_corrected} = undef }), 4, 'rate',
          qr/'load\.latency_corrected' is null/ ],
        [ 'no p99_9_us', $changed->(sub ($d) { delete $d->{load}{latency_corrected}{p99_9_us} }), 4, 'rate',
          qr/has no 'load\.latency_corrected\.p99_9_us'/ ],
        [ 'no flows', $changed->(sub ($d) { delete $d->{load}{flows} }), 4, 'rate', qr/has no 'load\.flows'/ ],
        [ 'text for a number', $changed->(sub ($d) { $d->{load}{messages_lost} = 'none' }), 4, 'rate',
          qr/'load\.messages_lost' is not a number/ ],
        [ 'a null load', $changed->(sub ($d) { $d->{load} = undef }), 4, 'rate', qr/'load' is null/ ],
    );
    for my $case (@cases) {
        my ($name, $path, $power, $mode, $pattern) = @$case;
        my $error = eval { SctpPerf::RunSpectrum::Reports::row_from_report(SctpPerf::RunSpectrum::Reports::read_report($path, SctpPerf::RunSpectrum::Options::power_size($power)), $mode); undef } // $@;
        like $error, $pattern, $name;
    }
};

done_testing;
