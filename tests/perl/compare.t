# SPDX-License-Identifier: Apache-2.0
# run_spectrum.pl --compare with stand-in programs (see SctpPerf::TestSweep): the
# order of the runs (A B A B ... per size), the servers each side gets, the files
# written and what they hold, the table on stdout, usage errors, a failing side, a
# failing sctp-perf-compare, and an interrupt. Last, when SCTP_PERF_BIN_DIR holds
# the built programs, one small comparison over TCP loopback with the real ones.
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Temp ();
use JSON::PP ();
use Test::More;
use Time::HiRes ();
use SctpPerf::TestSweep qw(make_fake_bin read_file run_script process_alive wait_until child_processes
                           kill_leftovers);

my $bin = make_fake_bin();
my $have_gnuplot = grep { -x "$_/gnuplot" } split /:/, $ENV{PATH} // '';

# Runs a comparison with the stand-ins; returns the result plus the log and output dirs.
sub compare_run($args, %o) {
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my $r = run_script([ '--bin-dir', "$bin", '--output-dir', "$out", @$args ],
                       env => { FAKE_LOG_DIR => "$log", %{ $o{env} // {} } }, timeout_s => 60,
                       on_start => $o{on_start} && sub ($pid, $err) { $o{on_start}->($pid, "$log") });
    return ($r, $log, $out);
}

sub lines_of($path) { return -e $path ? split /\n/, read_file($path) : () }
sub json_lines($path) { return map { JSON::PP->new->decode($_) } lines_of($path) }
sub document($out) { return JSON::PP->new->decode(-e "$out/compare.json" ? read_file("$out/compare.json") : '{}') }

# Every client run, in order, as "POWER SIDE": the side told by the -m value the
# test gives A (-m 1) and B (-m 2).
sub run_order($log) {
    return [ map {
        my %arg = @{$_}[ 1 .. 2 ];
        my ($m) = join(' ', @$_) =~ / -m ([12])\b/;
        "$arg{'-s'} " . ($m ? ($m == 1 ? 'A' : 'B') : '?')
    } json_lines("$log/clients.log") ];
}

# The order --compare promises for $repeat rounds of each of @powers.
sub interleaved($repeat, @powers) { return [ map { my $p = $_; map { ("$p A", "$p B") } 1 .. $repeat } @powers ] }

subtest 'A and B alternate, round by round, size by size' => sub {
    my ($r, $log, $out) = compare_run([ qw(--start-server --min-power 0 --max-power 2 --repeat 3 --compare),
                                        '-t tcp -m 1', "-m 2 -n --fake-scale '2'" ]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    is_deeply run_order($log), interleaved(3, 0, 1, 2), 'A B A B A B for 2^0, then 2^1, then 2^2';

    my @compares = json_lines("$log/compare.log");
    is scalar @compares, 3, 'sctp-perf-compare ran once per size';
    my (undef, @compare_args) = @{ $compares[1] };
    is_deeply \@compare_args, [ '--a', "$out/compare/2/a", '--b', "$out/compare/2/b", '--allow-different',
                                '--format', 'json' ],
        'each size\'s two directories, the sides\' differences allowed, JSON out';

    my @servers = json_lines("$log/servers.log");
    is scalar @servers, 2, 'two servers: A and B need different ones';
    is_deeply [ map { [ @{ $_->{args} }[ 1 .. $#{ $_->{args} } ] ] } @servers ],
              [ [qw(-p 0 -a 127.0.0.1 -t tcp)], [qw(-p 0 -a 127.0.0.1 -t sctp -n)] ],
        'A\'s over TCP, B\'s over SCTP with Nagle as its client';
    ok !grep({ process_alive($_->{pid}) } @servers), 'both servers stopped';
    my ($a, $b) = map { [ @{$_}[ 5 .. $#$_ ] ] } (json_lines("$log/clients.log"))[ 0, 1 ];
    is_deeply $a, [qw(-t tcp -H 127.0.0.1 -p 40123 -m 1)], 'A: its transport and its server\'s port';
    is_deeply $b, [qw(-t sctp -H 127.0.0.1 -p 40124 -m 2 -n --fake-scale 2)],
        'B: --protocol\'s sctp, its server\'s port, its words split as a shell splits them';
};

subtest 'the files written and the table' => sub {
    my ($r, $log, $out) = compare_run([ qw(--start-server --protocol tcp --min-power 0 --max-power 1 --repeat 2),
                                        '--compare', '-m 1', '-m 2 --fake-scale 2' ]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    is scalar(json_lines("$log/servers.log")), 1, 'one server, as A and B need the same';

    # The stand-in client's p50 for 1 byte is 20 us (fixtures/client-s0.json), for
    # 2 bytes 12 us; B's are twice that; the stand-in compare's interval is the
    # ratio 2 times 0.75 and 1.25.
    my @csv = lines_of("$out/compare.csv");
    is $csv[0], 'payload_bytes,percentile,a_median_us,b_median_us,ratio,ratio_low,ratio_high,p_value,verdict,a_runs,b_runs',
        'CSV header';
    is scalar @csv, 11, 'CSV: five percentiles for each of two sizes';
    is $csv[1], '1,p50,20,40,2,1.5,2.5,0.5,slower,2,2', 'CSV: 1 byte, p50, digit for digit';
    is $csv[7], '2,p90,100,200,2,1.5,2.5,0.5,slower,2,2', 'CSV: 2 bytes, p90';

    for my $bytes (1, 2) {
        is_deeply [ map { [ sort map { s{.*/}{}r } glob "$out/compare/$bytes/$_/*" ] } qw(a b) ],
                  [ [qw(run-1.json run-2.json)], [qw(run-1.json run-2.json)] ], "compare/$bytes: each side's two reports";
    }
    my $doc = document($out);
    is $doc->{format_version}, 1, 'JSON: format version 1';
    is_deeply [ @{ $doc->{compare} }{qw(repeat min_power max_power mode)} ], [ 2, 0, 1, 'ping-pong' ], 'JSON: the settings';
    is_deeply [ map { $_->{options_text} } @{ $doc->{compare} }{qw(a b)} ], [ '-m 1', '-m 2 --fake-scale 2' ],
        'JSON: each side\'s options as given';
    is scalar @{ $doc->{rows} }, 10, 'JSON: the rows of the CSV';
    is_deeply [ map { "$_->{round}$_->{side}" } @{ $doc->{sizes}[0]{runs} } ], [qw(1A 1B 2A 2B)], 'JSON: the runs in order';
    is $doc->{sizes}[1]{runs}[3]{report_file}, 'compare/2/b/run-2.json', 'JSON: each run\'s report, under the output directory';
    is $doc->{sizes}[0]{comparison}{program}, 'sctp-perf-compare', 'JSON: sctp-perf-compare\'s whole output';
    is_deeply $doc->{failed}, [], 'JSON: nothing failed';

    like $r->{stdout}, qr/^A: -m 1\nB: -m 2 --fake-scale 2\n2 runs of each side per size, interleaved A B A B/,
        'table: the sides and the runs';
    like $r->{stdout}, qr/^payload bytes  percentile  A median us  B median us    B\/A  95 % interval of B\/A  U test p  verdict for B$/m,
        'table: the header';
    like $r->{stdout}, qr/^            1  p50              20\.000       40\.000  2\.000        \[1\.500, 2\.500\]       0\.5  slower$/m,
        'table: a row';
    like $r->{stdout}, qr/^differences named by sctp-perf-compare: none/m, 'table: no difference in the setups';
    like $r->{stdout}, qr/^warning: the A side has 2 runs$/m, 'table: sctp-perf-compare\'s warnings';
    like $r->{stderr}, qr/\[2\/2\]      2 bytes: p50 B\/A 2\.000 \[1\.500, 2\.500\] slower; p99 B\/A 2\.000/, 'progress per size';

    my $gp = read_file("$out/compare.gp");
    like $gp, qr/strcol\('percentile'\) eq 'p50'/, 'the plot draws p50';
    like $gp, qr/strcol\('percentile'\) eq 'p99'/, 'and p99';
    like $gp, qr/with yerrorlines/, 'with the intervals as error bars';
    like $gp, qr/^plot .*\n(?:.*\n)*\s+1 with lines/m, 'and a line at 1';
    SKIP: {
        skip 'gnuplot is not installed', 1 unless $have_gnuplot;
        is substr(read_file("$out/compare.png"), 0, 8), "\x89PNG\r\n\x1a\n", 'compare.png is a PNG';
    }

    my ($r2, undef, $out2) = compare_run([ qw(--max-power 0 --repeat 1 --compare), '-m 1', '-m 2' ]);
    ok !-e "$out2/compare/2", 'a new comparison in another directory has only its own runs';
};

subtest 'differences of the setups named in the table' => sub {
    my ($r) = compare_run([ qw(--start-server --max-power 0 --repeat 1 --compare), '-t tcp -m 1', '-m 2' ]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    like $r->{stdout}, qr/^differences named by sctp-perf-compare, compared all the same \(--allow-different\): A is tcp, B is sctp$/m,
        'the transports';
};

subtest 'usage errors: exit 2, one sentence, nothing run' => sub {
    my @cases = (
        [ [ '--compare', '-n' ], qr/--compare takes two words, the client options of A and of B/ ],
        [ [ '--compare', '-n', '--repeat', '3' ], qr/its B is '--repeat', run_spectrum\.pl's own option/ ],
        [ [ '--compare', 'a', 'b', '--compare', 'c', 'd' ], qr/--compare is given once/ ],
        [ [ '--compare', '-s 4', '' ], qr/client option '-s' in A of --compare cannot be used: the script sets the payload size/ ],
        [ [ '--compare', '', '--format json' ], qr/client option '--format' in B of --compare cannot be used/ ],
        [ [ '--compare', '', '--repeat 3' ], qr/client option '--repeat' in B of --compare cannot be used: --compare runs each side --repeat times/ ],
        [ [ '--compare', '', '', '--', '--repeat', '2' ], qr/client option '--repeat' after '--' cannot be used/ ],
        [ [ '--start-server', '--compare', '-p 5000', '' ], qr/client option '-p' in A of --compare cannot be used: the script sets the server port/ ],
        [ [ '--compare', "-m 'x", '' ], qr/--compare: the options of A have an unbalanced quote/ ],
        [ [ '--compare', '-t udp', '' ], qr/--compare: -t in the options of A must be 'tcp' or 'sctp', not 'udp'/ ],
        [ [ '--compare', '', '-t' ], qr/--compare: -t in the options of B needs a value/ ],
        [ [ '--compare', '-t tcp', '-t sctp' ], qr/A runs over tcp and B over sctp, so they need two servers: add --start-server/ ],
        [ [ '--start-server', '--port', '5000', '--compare', '-t tcp', '' ], qr/cannot both listen on --port 5000/ ],
        [ [ '--service', 'seqpack', '--compare', '-t tcp', '' ], qr/--service seqpack runs over SCTP only/ ],
        [ [ '--repeat', '0', '--compare', '', '' ], qr/--repeat must be a whole number of at least 1, not '0'/ ],
        [ [ '--repeat', '3' ], qr/--repeat needs --compare/ ],
    );
    for my $case (@cases) {
        my ($args, $pattern) = @$case;
        my ($r, $log) = compare_run($args);
        my $shown = join ' ', map { "'$_'" } @$args;
        is $r->{exit}, 2, "$shown: exit 2";
        like $r->{stderr}, qr/\Arun_spectrum\.pl: error: [^\n]*$pattern[^\n]*\nrun_spectrum\.pl: try 'run_spectrum\.pl --help' for the options\n\z/,
            "$shown: one sentence" or diag $r->{stderr};
        ok !-e "$log/clients.log", "$shown: no client ran";
    }
    my ($r) = compare_run([ qw(--start-server --max-power 0 --repeat 1 --compare), '-t tcp -m 1', '--test-transport-protocol=TCP -m 2' ]);
    is $r->{exit}, 0, '-t and --test-transport-protocol=, in any case, are a side\'s transport' or diag $r->{stderr};
};

subtest 'a failing side is reported and stops the comparison' => sub {
    my %fail = (FAKE_CLIENT_FAIL => 1, FAKE_CLIENT_FAIL_WITH => '--fail-here');
    my ($r, $log, $out) = compare_run([ qw(--min-power 0 --max-power 2 --repeat 2 --compare), '-m 1', '-m 2 --fail-here' ],
                                      env => \%fail);
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/payload 2\^1 \(2 bytes\), run 1 of 2 of B failed: SOCK_STREAM_clt exited with status 1: connection refused at power 1; its stderr:\n  \| fake client: connection refused at power 1/,
        'names the size, the run and the side, with the client\'s error';
    is_deeply run_order($log), [ @{ interleaved(2, 0) }, '1 A', '1 B' ], 'nothing ran after the failure';
    my $doc = document($out);
    is_deeply [ map { "$_->{payload_power_of_2} $_->{side} $_->{round}" } @{ $doc->{failed} } ], ['1 B 1'], 'JSON: the failed run';
    is_deeply [ map { $_->{payload_bytes} } @{ $doc->{sizes} } ], [1], 'JSON: the size compared before it';
    is scalar(lines_of("$out/compare.csv")), 6, 'CSV: that size\'s rows';
    like $r->{stderr}, qr/failed: 2\^1 \(2 bytes\), run 1 of B$/m, 'the summary';

    ($r, $log, $out) = compare_run([ qw(--keep-going --min-power 0 --max-power 2 --repeat 2 --compare), '-m 1', '-m 2 --fail-here' ],
                                   env => \%fail);
    is $r->{exit}, 1, '--keep-going: exit status 1';
    is_deeply run_order($log), [ @{ interleaved(2, 0) }, '1 A', '1 B', @{ interleaved(2, 2) } ], '--keep-going: the next size ran';
    is_deeply [ map { $_->{payload_bytes} } @{ document($out)->{sizes} } ], [ 1, 4 ], '--keep-going: both other sizes compared';
};

subtest 'a failing sctp-perf-compare is reported' => sub {
    my ($r, $log, $out) = compare_run([ qw(--max-power 1 --repeat 1 --compare), '-m 1', '-m 2' ], env => { FAKE_COMPARE_EXIT => 2 });
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/comparing payload 2\^0 \(1 byte\) failed: sctp-perf-compare exited with status 2; its stderr:\n  \| fake compare: cannot compare\n/,
        'says which size and why';
    is_deeply document($out)->{failed}[0]{reason}, 'sctp-perf-compare exited with status 2', 'JSON: the failure';
};

subtest 'SIGINT mid-comparison: the running client gets it once, nothing is left, what was done is written' => sub {
    my @children;
    my ($r, $log, $out) = compare_run(
        [ qw(--start-server --max-power 2 --repeat 2 --compare), '-t tcp -m 1', '-m 2' ],
        env => { FAKE_CLIENT_SLEEP => 20, FAKE_CLIENT_SLEEP_AT => 1 },
        on_start => sub ($pid, $log) {
            return unless wait_until(30, sub { -e "$log/client-1.pid" });
            Time::HiRes::sleep(0.2);
            @children = child_processes($pid);
            kill 'INT', $pid;
        });
    is $r->{signal}, 2, 'the script died of SIGINT' or diag $r->{stderr};
    is scalar @children, 3, 'two servers and a client were running';
    is read_file("$log/client-1.signals"), "INT\n", 'the client got SIGINT once';
    is_deeply run_order($log), [ @{ interleaved(2, 0) }, '1 A' ], 'no run started after it';
    my $doc = document($out);
    is $doc->{compare}{interrupted_by}, 'SIGINT', 'JSON: interrupted by SIGINT';
    my $run = $doc->{compare}{interrupted_run} // {};
    is_deeply [ @{$run}{qw(payload_power_of_2 side round signal_passed_on client_ended)} ],
              [ 1, 'A', 1, 'SIGINT', 'exited with status 130' ], 'JSON: the run it cut short';
    is_deeply [ map { $_->{payload_bytes} } @{ $doc->{sizes} } ], [1], 'JSON: the size compared before';
    like $r->{stderr}, qr/interrupted by SIGINT during payload 2\^1 \(2 bytes\), run 1 of 2 of A: SOCK_STREAM_clt was given SIGINT once and exited with status 130, its report marked interrupted; that run is partial and not kept, and 2\^1 is not compared/,
        'says what became of the run';
    ok !-e "$out/compare/2/a/run-1.json", 'the partial report is not among the runs';
    like $r->{stdout}, qr/^            1  p50 /m, 'the table of the size compared';
    is_deeply [ kill_leftovers(@children) ], [], 'no program the script started is left running';
};

subtest 'over TCP loopback with the real programs' => sub {
    my $real = $ENV{SCTP_PERF_BIN_DIR};
    plan skip_all => 'set SCTP_PERF_BIN_DIR to the directory of the built programs'
        unless defined $real && length $real;
    plan skip_all => "$real lacks SOCK_STREAM_clt, SOCK_STREAM_srv or sctp-perf-compare; build them first"
        if grep { !-x "$real/$_" } qw(SOCK_STREAM_clt SOCK_STREAM_srv sctp-perf-compare);
    my $out = File::Temp->newdir;
    # Nagle off (A) against on (B): both ends of B get -n, from one server each.
    my $r = run_script([ '--bin-dir', $real, '--output-dir', "$out", qw(--start-server --protocol tcp --min-power 4
                         --max-power 5 --repeat 3 --iterations 200 --no-plot --compare), '', '-n', '--', '--io-timeout', '5' ],
                       timeout_s => 60);
    ok !$r->{timed_out}, 'finished within 60 s';
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    my $doc = document($out);
    is_deeply [ map { $_->{payload_bytes} } @{ $doc->{sizes} } ], [ 16, 32 ], 'both sizes compared';
    my $comparison = $doc->{sizes}[0]{comparison} // {};
    is_deeply [ map { $_->{runs} } @{$comparison}{qw(a b)} ], [ 3, 3 ], 'three runs a side';
    is_deeply [ map { $_->{config}{nagle} ? 1 : 0 } @{$comparison}{qw(a b)} ], [ 0, 1 ], 'A without Nagle, B with it';
    is_deeply [ map { $_->{percentile} } @{ $comparison->{percentiles} // [] } ], [qw(p50 p90 p99 p99.9 max)],
        'every percentile compared';
    # A resample of 3 runs L < M < H keeps M as its median in 13 of its 27 equally
    # likely draws (M M M; 3 of M M L; 3 of M M H; the 6 orders of L M H), so about
    # (13/27)^2 = 23 % of the bootstrap's resamples give the ratio itself: more than
    # the 2.5 % each end of the 95 % interval cuts off, so the interval holds it.
    ok !grep({ !($_->{ratio} > 0 && $_->{ratio_low} <= $_->{ratio} && $_->{ratio} <= $_->{ratio_high}) } @{ $doc->{rows} }),
        'every ratio positive and within its interval';
    is scalar(lines_of("$out/compare.csv")), 11, 'CSV: a header and ten rows';
};

done_testing;
