# CSV and JSON from canned client reports (tests/perl/fixtures, arithmetic in its
# README): every number is copied from the report, digit for digit.
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
my @reports = map { SctpPerf::RunSpectrum::read_report("$fixtures/client-s$_.json", $_) } 0 .. 2;
my @rows = map { SctpPerf::RunSpectrum::row_from_report($_) } @reports;

subtest 'rows' => sub {
    my %first = map { $_ => "$rows[0]{$_}" } grep { defined $rows[0]{$_} } keys %{ $rows[0] };
    is_deeply \%first, {
        payload_bytes => 1, iterations => 4, min_us => 10, mean_us => 25, p50_us => 20, p90_us => 40,
        p99_us => 40, p99_9_us => 40, max_us => 40, stddev_us => '12.909944487358056',
        outliers => 1,    # below 0 + above 1 (40 >= histogram max 35)
    }, 'power 0, every column';
    is $rows[1]{outliers}, 2, 'power 1: below 1 (5 < 10) + above 1 (100 >= 50)';
    is "$rows[1]{mean_us}", '32.75', 'power 1: mean';
    is "$rows[1]{stddev_us}", '44.999074064547891', 'power 1: stddev keeps all 17 digits';
    is $rows[2]{stddev_us}, undef, 'power 2: stddev of one sample is null';
    is "$rows[2]{p50_us}", '7.5', 'power 2: p50';
};

subtest 'CSV' => sub {
    my $csv = SctpPerf::RunSpectrum::csv_text(\@rows);
    is $csv, read_file("$fixtures/expected.csv"), 'matches fixtures/expected.csv';
    my @lines = split /\n/, $csv;
    is scalar @lines, 4, 'header and three rows';
    is $lines[0], 'payload_bytes,iterations,min_us,mean_us,p50_us,p90_us,p99_us,p99_9_us,max_us,stddev_us,outliers',
        'header';
    is SctpPerf::RunSpectrum::csv_text([]), "$lines[0]\n", 'no rows: header only';
};

subtest 'JSON document' => sub {
    my $sweep = { service => 'stream', transport => 'tcp', iterations => 4, server_host => '127.0.0.1' };
    my @runs = map { { payload_power_of_2 => $_, payload_bytes => 2**$_, report => $reports[$_] } } 0 .. 2;
    my $failed = [ { payload_power_of_2 => 3, payload_bytes => 8, reason => 'SOCK_STREAM_clt exited with status 1' } ];
    my $text = SctpPerf::RunSpectrum::json_text(SctpPerf::RunSpectrum::sweep_document(
        sweep => $sweep, rows => \@rows, runs => \@runs, failed => $failed));
    my $doc = JSON::PP->new->decode($text);

    is $doc->{tool}, 'sctp-perf', 'tool';
    is $doc->{format_version}, 1, 'format version';
    is_deeply $doc->{sweep}, $sweep, 'the sweep configuration';
    is_deeply $doc->{columns}, [qw(payload_bytes iterations min_us mean_us p50_us p90_us p99_us p99_9_us max_us stddev_us outliers)],
        'columns in CSV order';
    is scalar @{ $doc->{rows} }, 3, 'three rows';
    is $doc->{rows}[1]{outliers}, 2, 'row values';
    is $doc->{rows}[2]{stddev_us}, undef, 'null stays null';
    is_deeply $doc->{runs}[1]{report}, JSON::PP->new->decode(read_file("$fixtures/client-s1.json")),
        'each run keeps the full client report';
    is_deeply $doc->{failed}, $failed, 'failed sizes';

    like $text, qr/"stddev_us" : 44\.999074064547891\b/, 'numbers are written with the client\'s digits';
    like $text, qr/"mean_us" : 32\.75,/, 'numbers stay JSON numbers, not strings';
    unlike $text, qr/"(?:min|max|mean|p\d+)_us" : "/, 'no number turned into a string';
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
        [ 'other size',       $broken->(sub ($d) { $d->{config}{payload_power_of_2} = 5 }), qr/payload power 5, not 0/ ],
        [ 'no percentiles',   $broken->(sub ($d) { delete $d->{percentiles} }), qr/has no 'percentiles\.p50'/ ],
        [ 'no p99.9',         $broken->(sub ($d) { delete $d->{percentiles}{'p99.9'} }), qr/has no 'percentiles\.p99\.9'/ ],
        [ 'text for a number', $broken->(sub ($d) { $d->{summary}{max_us} = 'lots' }), qr/'summary\.max_us' is not a number/ ],
        [ 'no histogram',     $broken->(sub ($d) { delete $d->{histogram} }),   qr/has no 'histogram\.below'/ ],
    );
    for my $case (@cases) {
        my ($name, $text, $pattern) = @$case;
        my $path = defined $text ? $write->("$name.json", $text) : "$dir/none.json";
        my $error = eval { SctpPerf::RunSpectrum::row_from_report(SctpPerf::RunSpectrum::read_report($path, 0)); undef } // $@;
        like $error, $pattern, $name;
    }
};

# Load modes: the latency columns from load.latency_corrected (rate) or
# load.latency_uncorrected (throughput), outliers empty, seven columns appended.
my @rate_reports = map { SctpPerf::RunSpectrum::read_report("$fixtures/client-rate-s$_.json", $_) } 4, 5;
my @rate_rows = map { SctpPerf::RunSpectrum::row_from_report($_, 'rate') } @rate_reports;
my $throughput_report = SctpPerf::RunSpectrum::read_report("$fixtures/client-throughput-s4.json", 4);
my $throughput_row = SctpPerf::RunSpectrum::row_from_report($throughput_report, 'throughput');

sub as_text($row) { return { map { $_ => defined $row->{$_} ? "$row->{$_}" : undef } keys %$row } }

subtest 'load rows' => sub {
    is_deeply as_text($rate_rows[0]), {
        payload_bytes => 16, iterations => 4, min_us => 10, mean_us => 50, p50_us => 20, p90_us => 140,
        p99_us => 140, p99_9_us => 140, max_us => 140, stddev_us => '60.55300708194983', outliers => undef,
        mode => 'rate', flows => 2, rate_asked_per_s => 2000, rate_achieved_per_s => 1600, messages_lost => 0,
        payload_mb_per_s_sent => '0.0512', latency_kind => 'corrected',
    }, 'rate, power 4: every column, the latency corrected (140, not the uncorrected 40)';
    is "$rate_rows[1]{iterations}", 3, 'rate, power 5: iterations are the 3 latency samples';
    is "$rate_rows[1]{messages_lost}", 1, 'rate, power 5: one message lost';
    is_deeply as_text($throughput_row), {
        payload_bytes => 16, iterations => 4, min_us => 8, mean_us => 20, p50_us => 12, p90_us => 40,
        p99_us => 40, p99_9_us => 40, max_us => 40, stddev_us => '14.236104336041748', outliers => undef,
        mode => 'throughput', flows => 1, rate_asked_per_s => undef, rate_achieved_per_s => 200000,
        messages_lost => 0, payload_mb_per_s_sent => '3.2', latency_kind => 'uncorrected',
    }, 'throughput: every column, the latency uncorrected, no rate asked';
};

subtest 'load CSV' => sub {
    is SctpPerf::RunSpectrum::csv_text(\@rate_rows, 'rate'), read_file("$fixtures/expected-rate.csv"),
        'rate: matches fixtures/expected-rate.csv';
    is SctpPerf::RunSpectrum::csv_text([$throughput_row], 'throughput'), read_file("$fixtures/expected-throughput.csv"),
        'throughput: matches fixtures/expected-throughput.csv';
    my ($header) = split /\n/, SctpPerf::RunSpectrum::csv_text([], 'rate');
    is $header, 'payload_bytes,iterations,min_us,mean_us,p50_us,p90_us,p99_us,p99_9_us,max_us,stddev_us,outliers,'
              . 'mode,flows,rate_asked_per_s,rate_achieved_per_s,messages_lost,payload_mb_per_s_sent,latency_kind',
        'the ping-pong columns first, unchanged, then the load columns';
    is SctpPerf::RunSpectrum::csv_text(\@rows), read_file("$fixtures/expected.csv"), 'ping-pong CSV unchanged';
};

subtest 'load JSON document' => sub {
    my $sweep = { service => 'stream', transport => 'tcp', mode => 'rate', rate_per_s => 2000, duration_s => 0.5, flows => 2 };
    my @runs = map { { payload_power_of_2 => $_ + 4, payload_bytes => 2**($_ + 4), report => $rate_reports[$_] } } 0, 1;
    my $text = SctpPerf::RunSpectrum::json_text(SctpPerf::RunSpectrum::sweep_document(
        sweep => $sweep, rows => \@rate_rows, runs => \@runs, failed => [], mode => 'rate'));
    my $doc = JSON::PP->new->decode($text);
    is_deeply $doc->{sweep}, $sweep, 'the sweep configuration with the load options';
    is_deeply $doc->{columns}, [ SctpPerf::RunSpectrum::csv_columns('rate') ], 'the load columns';
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
        [ 'no p99.9', $changed->(sub ($d) { delete $d->{load}{latency_corrected}{'p99.9'} }), 4, 'rate',
          qr/has no 'load\.latency_corrected\.p99\.9'/ ],
        [ 'no flows', $changed->(sub ($d) { delete $d->{load}{flows} }), 4, 'rate', qr/has no 'load\.flows'/ ],
        [ 'text for a number', $changed->(sub ($d) { $d->{load}{messages_lost} = 'none' }), 4, 'rate',
          qr/'load\.messages_lost' is not a number/ ],
        [ 'a null load', $changed->(sub ($d) { $d->{load} = undef }), 4, 'rate', qr/'load' is null/ ],
    );
    for my $case (@cases) {
        my ($name, $path, $power, $mode, $pattern) = @$case;
        my $error = eval { SctpPerf::RunSpectrum::row_from_report(SctpPerf::RunSpectrum::read_report($path, $power), $mode); undef } // $@;
        like $error, $pattern, $name;
    }
};

done_testing;
