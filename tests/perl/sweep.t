# SPDX-License-Identifier: Apache-2.0
# Whole sweeps with stand-in client and server programs (see SctpPerf::TestSweep):
# the command lines the script builds, the files it leaves, failures, --keep-going,
# a missing gnuplot, the placement of both ends, that the work between two sizes
# does not grow with the sizes done, interrupts (which signal each program gets,
# how often, and in what order), a server that dies mid-sweep, and that every
# program it starts is gone when it ends.
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Spec;
use File::Temp ();
use JSON::PP ();
use Test::More;
use Time::HiRes ();
use SctpPerf::TestSweep qw(fixture_dir make_fake_bin read_file run_script process_alive wait_until
                           child_processes process_running kill_leftovers);

my $bin = make_fake_bin();
my $have_gnuplot = grep { -x "$_/gnuplot" } split /:/, $ENV{PATH} // '';

# Runs a sweep with the fake programs; returns the result plus the log and output dirs.
sub sweep($args, %env) {
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my $r = run_script([ '--bin-dir', "$bin", '--output-dir', "$out", @$args ],
                       env => { FAKE_LOG_DIR => "$log", %env }, timeout_s => 60);
    return ($r, $log, $out);    # the dir objects: the directories live as long as they do
}

sub args_of($log, $name) { return JSON::PP->new->decode(read_file("$log/$name.args")) }
sub pid_of($log, $name) { return 0 + read_file("$log/$name.pid") }
sub csv_lines($out) { return split /\n/, read_file("$out/spectrum.csv") }
sub spectrum_files($out) { return glob "$out/*.spectrum" }

subtest 'a sweep against a server it starts' => sub {
    my ($r, $log, $out) = sweep([qw(--start-server --protocol TCP --min-power 0 --max-power 3 --iterations 4 -- -m 0)]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};

    my ($srv, @srv_args) = @{ args_of($log, 'server') };
    like $srv, qr/SOCK_STREAM_srv$/, 'the stream server';
    is_deeply \@srv_args, [qw(-p 0 -a 127.0.0.1 -t tcp)], 'server on a free port, bound to loopback';
    ok !process_alive(pid_of($log, 'server')), 'server stopped';
    like $r->{stderr}, qr/started SOCK_STREAM_srv \(pid \d+\) on port 40123/, 'says where the server runs';

    my ($clt, @clt_args) = @{ args_of($log, 'client-2') };
    like $clt, qr/SOCK_STREAM_clt$/, 'the stream client';
    is_deeply [ @clt_args[ 0, 1, 2 ] ], [ '-s', 2, '--json-file' ], 'payload power and JSON file';
    is_deeply [ @clt_args[ 4 .. $#clt_args ] ], [qw(-t tcp -c 4 -H 127.0.0.1 -p 40123 -m 0)],
        'transport, iterations, the server\'s real port, then the options after --';

    my @csv = csv_lines($out);
    is scalar @csv, 5, 'CSV: header and four rows';
    my @expected = split /\n/, read_file(fixture_dir() . '/expected.csv');
    is_deeply [ @csv[ 0 .. 3 ] ], \@expected, 'rows 2^0..2^2 from the fixtures, digit for digit';
    like $csv[4], qr/^8,4,10,25,/, 'row 2^3';

    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is scalar @{ $doc->{rows} }, 4, 'JSON: four rows';
    is scalar @{ $doc->{runs} }, 4, 'JSON: four full reports';
    is_deeply $doc->{failed}, [], 'JSON: nothing failed';
    is $doc->{sweep}{server_port}, 40123, 'JSON: the port used';
    is $doc->{sweep}{transport}, 'tcp', 'JSON: transport';
    ok $doc->{sweep}{started_server}, 'JSON: the server was started by the script';
    is_deeply $doc->{sweep}{client_options}, ['-m', '0'], 'JSON: client options';
    is_deeply [ @{ $doc->{sweep} }{qw(mode rate_per_s duration_s flows)} ], [ 'ping-pong', undef, undef, undef ],
        'JSON: a ping-pong sweep, no load options';
    is $doc->{format_version}, 2, 'JSON: format version 2';
    is_deeply [ @{ $doc->{sweep} }{qw(client_cpu server_cpu interrupted_by)} ], [ undef, undef, undef ],
        'JSON: neither end pinned, not interrupted';
    like $doc->{sweep}{finished_at}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, 'JSON: when it finished';
    is_deeply [ grep { /--cpu/ } @clt_args ], [], 'no --cpu for an unpinned client';
    like $r->{stderr}, qr/^run_spectrum\.pl: placement: unpinned\. On a machine of several CPUs the results depend on where the scheduler puts the client and the server, .*e\.g\. --client-cpu 0 --server-cpu 0$/m,
        'one note: unpinned, what that means, and how to pin';
    is scalar(() = $r->{stderr} =~ /placement/g), 1, 'said once';

    my @spectrum = spectrum_files($out);
    is scalar @spectrum, 1, 'one .spectrum file';
    like $spectrum[0], qr{/\d{8}T\d{6}\.spectrum$}, 'named by a timestamp without spaces or colons';
    is read_file($spectrum[0]), join('', map { "fake ACE report for power $_\n" } 0 .. 3),
        'every ACE report appended, in order';

    ok -s "$out/spectrum.gp", 'gnuplot script kept';
    like read_file("$out/spectrum.gp"), qr/TCP stream to 127\.0\.0\.1, 4 iterations per size, unpinned' /, 'plot title';
    SKIP: {
        skip 'gnuplot is not installed', 1 unless $have_gnuplot;
        is substr(read_file("$out/spectrum.png"), 0, 8), "\x89PNG\r\n\x1a\n", 'spectrum.png is a PNG';
    }

    my @progress = $r->{stderr} =~ /^run_spectrum\.pl: \[(\d)\/4\] +(\d+) bytes: p50 ([\d.]+) us, max ([\d.]+) us$/mg;
    is_deeply \@progress, [ 1, 1, '20.0', '40.0', 2, 2, '12.0', '100.0', 3, 4, '7.5', '7.5', 4, 8, '20.0', '40.0' ],
        'one progress line per size with bytes, p50 and max';
};

subtest 'a rate sweep' => sub {
    my ($r, $log, $out) = sweep([qw(--start-server --protocol tcp --rate 2000 --duration 0.5 --flows 2 --max-power 5)]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    ok !-e "$log/client-3.args", 'no size below 16 bytes ran';
    my (undef, @args) = @{ args_of($log, 'client-4') };
    is_deeply [ @args[ 0, 1 ] ], [ '-s', 4 ], 'starts at 2^4';
    is_deeply [ @args[ 4 .. $#args ] ], [qw(-t tcp --rate 2000 --duration 0.5 --flows 2 -H 127.0.0.1 -p 40123)],
        'the load options reach the client';
    my (undef, @srv_args) = @{ args_of($log, 'server') };
    is_deeply \@srv_args, [qw(-p 0 -a 127.0.0.1 -t tcp)], 'a server of default size for 2 flows';

    is read_file("$out/spectrum.csv"), read_file(fixture_dir() . '/expected-rate.csv'),
        'CSV from the client\'s load.latency_corrected, digit for digit';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is_deeply [ @{ $doc->{sweep} }{qw(mode rate_per_s duration_s flows iterations)} ], [ 'rate', 2000, 0.5, 2, undef ],
        'JSON: the load options';
    is $doc->{columns}[-1], 'latency_kind', 'JSON: the load columns';
    is $doc->{rows}[0]{p99_us}, 140, 'JSON: the corrected p99';

    my $gp = read_file("$out/spectrum.gp");
    like $gp, qr/set title 'sctp-perf latency under load: TCP stream to 127\.0\.0\.1, rate mode, 2000 messages\/s per flow, 2 flows, 0\.5 s per size, unpinned'/,
        'plot title: mode, rate, flows and duration';
    like $gp, qr/set ylabel 'corrected round-trip latency/, 'y axis: corrected latency';

    my @progress = $r->{stderr} =~ /^run_spectrum\.pl: (\[\d\/2\] .*)$/mg;
    is_deeply \@progress, [ '[1/2]     16 bytes: p50 20.0 us, max 140.0 us corrected; 1600.0 messages/s per flow, 0 lost',
                            '[2/2]     32 bytes: p50 25.0 us, max 35.0 us corrected; 1600.0 messages/s per flow, 1 lost' ],
        'progress: which latency, the rate achieved, the messages lost';
};

subtest '--sizes: a list of sizes in bytes, each passed as --payload-bytes, in order' => sub {
    my ($r, $log, $out) = sweep([qw(--start-server --protocol tcp --iterations 4 --sizes), '32,64,100,1000,63000']);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    my @runs = map { JSON::PP->new->decode($_) } split /\n/, read_file("$log/clients.log");
    is_deeply [ map { my @a = @$_; [ @a[ 1, 2 ] ] } @runs ],
              [ map { [ '--payload-bytes', $_ ] } 32, 64, 100, 1000, 63000 ],
        'one client per size, in the order given, each with --payload-bytes';
    ok !grep({ $_ eq '-s' } map { @$_ } @runs), 'no -s';

    my @csv = csv_lines($out);
    is scalar @csv, 6, 'CSV: header and a row per size';
    is_deeply [ map { (split /,/)[0] } @csv[ 1 .. 5 ] ], [ 32, 64, 100, 1000, 63000 ], 'CSV: payload_bytes in order';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is_deeply [ map { $_->{payload_bytes} } @{ $doc->{rows} } ], [ 32, 64, 100, 1000, 63000 ], 'JSON: a row per size';
    is_deeply [ map { $_->{payload_power_of_2} } @{ $doc->{runs} } ], [ 5, 6, undef, undef, undef ],
        'JSON: the power of two where there is one';
    is_deeply $doc->{sweep}{sizes}, [ 32, 64, 100, 1000, 63000 ], 'JSON: the sizes swept';
    my @spectrum = spectrum_files($out);
    is scalar(() = read_file($spectrum[0]) =~ /^fake ACE report/mg), 5, 'an ACE report per size';
    my @progress = $r->{stderr} =~ /^run_spectrum\.pl: \[(\d\/5)\]/mg;
    is_deeply \@progress, [qw(1/5 2/5 3/5 4/5 5/5)], 'progress counts the sizes listed';

    my $gp = read_file("$out/spectrum.gp");
    like $gp, qr/set logscale x 2/, 'plot: a logarithmic x axis';
    like $gp, qr/set xtics \('32' 32, '64' 64, '100' 100, '1000' 1000, '63000' 63000\)/, 'plot: a tic per size';
    like $gp, qr/set xrange \[32 \/ sqrt\(2\) : 63000 \* sqrt\(2\)\]/, 'plot: the range holds every size';
};

subtest '--sizes: a failing size is named by its bytes, --keep-going goes on' => sub {
    my ($r, $log, $out) = sweep([qw(--start-server --protocol tcp --keep-going --sizes), '64,100,1000'],
                                FAKE_CLIENT_FAIL => '100B');
    is $r->{exit}, 1, 'exit status 1' or diag $r->{stderr};
    like $r->{stderr}, qr/failed sizes: 100 bytes/, 'the failed size in bytes';
    is scalar(csv_lines($out)), 3, 'CSV: the two other sizes';
};

subtest 'a throughput sweep' => sub {
    my ($r, $log, $out) = sweep([qw(--throughput --iterations 100 --max-power 4 -- --echo-every 25000)]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    my (undef, @args) = @{ args_of($log, 'client-4') };
    is_deeply [ @args[ 4 .. $#args ] ], [qw(-t sctp -c 100 --throughput --echo-every 25000)],
        '--throughput and --iterations reach the client, the client\'s own load options after them';
    is read_file("$out/spectrum.csv"), read_file(fixture_dir() . '/expected-throughput.csv'),
        'CSV from the client\'s load.latency_uncorrected';
    my $gp = read_file("$out/spectrum.gp");
    like $gp, qr/set title '.*throughput mode, as fast as the transport accepts, 1 flow, 100 iterations per size, unpinned'/, 'plot title';
    like $gp, qr/set ylabel 'uncorrected round-trip latency/, 'y axis: uncorrected latency';
};

subtest 'a load sweep with many flows sizes the server it starts' => sub {
    my ($r, $log) = sweep([qw(--start-server --rate 10 --flows 5001 --max-power 4 --no-plot)]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    my (undef, @srv_args) = @{ args_of($log, 'server') };
    is_deeply \@srv_args, [qw(-p 0 -a 127.0.0.1 -t sctp --max-clients 10002)], '5001 flows: room for 10002 clients';
    ($r, $log) = sweep([qw(--start-server --rate 10 --flows 5000 --max-power 4 --no-plot)]);
    (undef, @srv_args) = @{ args_of($log, 'server') };
    is_deeply \@srv_args, [qw(-p 0 -a 127.0.0.1 -t sctp)], '5000 flows: the server\'s default of 10000 is room enough';
};

subtest '--duration and --flows 1 without a load mode: a ping-pong sweep' => sub {
    my ($r, $log, $out) = sweep([qw(--duration 0.5 --flows 1 --max-power 1 --no-plot)]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    my (undef, @args) = @{ args_of($log, 'client-0') };
    is_deeply [ @args[ 4 .. $#args ] ], [qw(-t sctp --duration 0.5 --flows 1)], 'both reach the client, from 1 byte up';
    my @csv = csv_lines($out);
    is $csv[0], 'payload_bytes,iterations,min_us,mean_us,p50_us,p90_us,p99_us,p99_9_us,max_us,stddev_us,outliers',
        'the ping-pong columns only';
    is_deeply [ @csv[ 1, 2 ] ], [ (split /\n/, read_file(fixture_dir() . '/expected.csv'))[ 1, 2 ] ], 'rows as always';
};

subtest 'against a running server: --host and --port pass through, defaults are the client\'s' => sub {
    my ($r, $log) = sweep([qw(--min-power 5 --max-power 5 --host Example.Test --port 5001)]);
    is $r->{exit}, 0, 'exit 0' or diag $r->{stderr};
    my (undef, @args) = @{ args_of($log, 'client-5') };
    is_deeply [ @args[ 4 .. $#args ] ], [qw(-t sctp -H Example.Test -p 5001)], 'sctp by default; host case kept';
    ok !-e "$log/server.args", 'no server started';

    ($r, $log) = sweep([qw(--min-power 1 --max-power 1)]);
    (undef, @args) = @{ args_of($log, 'client-1') };
    is_deeply [ @args[ 4 .. $#args ] ], [qw(-t sctp)], 'no -H, -p or -c unless asked';
};

subtest 'seqpack' => sub {
    my ($r, $log, $out) = sweep([qw(--service SeqPacket --start-server --min-power 0 --max-power 0)]);
    is $r->{exit}, 0, 'exit 0' or diag $r->{stderr};
    my ($srv, @srv_args) = @{ args_of($log, 'server') };
    like $srv, qr/SOCK_SEQPACK_srv$/, 'the seqpack server';
    is_deeply \@srv_args, [qw(-p 0 -a 127.0.0.1)], 'no -t';
    my ($clt, @args) = @{ args_of($log, 'client-0') };
    like $clt, qr/SOCK_SEQPACK_clt$/, 'the seqpack client';
    is_deeply [ @args[ 4 .. $#args ] ], [qw(-H 127.0.0.1 -p 40123)], 'no -t';
};

subtest 'Nagle: -n goes to the server too' => sub {
    my ($r, $log) = sweep([qw(--start-server --min-power 0 --max-power 0 -- -n)]);
    is $r->{exit}, 0, 'exit 0' or diag $r->{stderr};
    my (undef, @srv_args) = @{ args_of($log, 'server') };
    is_deeply \@srv_args, [qw(-p 0 -a 127.0.0.1 -t sctp -n)], 'server gets -n';
};

subtest 'a failing size stops the sweep' => sub {
    my ($r, $log, $out) = sweep([qw(--start-server --min-power 0 --max-power 4)], FAKE_CLIENT_FAIL => '2');
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/payload 2\^2 \(4 bytes\) failed: SOCK_STREAM_clt exited with status 1: connection refused at power 2; its stderr:\n  \| fake client: connection refused at power 2/,
        'names the size, what the client\'s error report says, and shows the client\'s stderr';
    ok !-e "$log/client-3.args", 'no further size ran';
    is scalar(csv_lines($out)), 3, 'CSV keeps the two sizes that ran';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is_deeply [ map { $_->{payload_power_of_2} } @{ $doc->{failed} } ], [2], 'JSON lists the failure';
    is $doc->{failed}[0]{reason}, 'SOCK_STREAM_clt exited with status 1: connection refused at power 2', 'and why';
    is scalar @{ $doc->{runs} }, 2, 'JSON keeps the two runs';
    ok !process_alive(pid_of($log, 'server')), 'server stopped';
};

# What the real clients print when no server listens, and on a kernel without SCTP.
my $REFUSED = 'cannot connect to localhost:45453 (Connection refused): is SOCK_STREAM_srv running?';
my $NO_SCTP = "this kernel has no SCTP support: load it with 'modprobe sctp' (package linux-modules-extra on "
            . "some distributions) or measure TCP instead with '-t tcp': Protocol not supported";
my $NO_SCTP_SEQPACK = "this kernel has no SCTP support: load it with 'modprobe sctp' (package linux-modules-extra "
                    . 'on some distributions) or measure TCP instead with SOCK_STREAM_clt/SOCK_STREAM_srv -t tcp: '
                    . 'Protocol not supported';

subtest 'no server running: the advice names --start-server' => sub {
    my ($r) = sweep([qw(--keep-going --min-power 0 --max-power 2 --no-plot)],
                    FAKE_CLIENT_FAIL => '0,1,2', FAKE_CLIENT_FAIL_MESSAGE => $REFUSED);
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/failed: SOCK_STREAM_clt exited with status 1: \Q$REFUSED\E; its stderr:\n  \| fake client: \Q$REFUSED\E\n/,
        "the client's own words, unchanged";
    my @advice = $r->{stderr} =~ /^run_spectrum\.pl: (no server answered: .*)$/mg;
    is_deeply \@advice, ['no server answered: start SOCK_STREAM_srv where the client looks for it, '
                         . 'or add --start-server to have run_spectrum.pl start one on loopback'],
        'then the advice in the script\'s options, once for the three sizes';
};

subtest 'a refused connection to a server the script started: no --start-server advice' => sub {
    my ($r) = sweep([qw(--start-server --min-power 0 --max-power 0 --no-plot)],
                    FAKE_CLIENT_FAIL => '0', FAKE_CLIENT_FAIL_MESSAGE => $REFUSED);
    is $r->{exit}, 1, 'exit status 1';
    unlike $r->{stderr}, qr/no server answered/, 'no advice to start what runs already';
};

subtest 'no SCTP: the advice names --protocol tcp, and the sweep stops' => sub {
    my ($r, $log, $out) = sweep([qw(--keep-going --min-power 0 --max-power 2 --no-plot)],
                                FAKE_CLIENT_FAIL => '0,1,2', FAKE_CLIENT_FAIL_MESSAGE => $NO_SCTP);
    is $r->{exit}, 1, 'exit status 1';
    unlike $r->{stderr}, qr/-t tcp/, "the client's -t is not offered: the script sets it";
    like $r->{stderr}, qr/failed: SOCK_STREAM_clt exited with status 1: this kernel has no SCTP support: .* or measure TCP instead with '--protocol tcp': Protocol not supported; its stderr, its advice in run_spectrum\.pl's options:\n  \| fake client: this kernel .*'--protocol tcp'/,
        'the reason and the stderr shown name --protocol tcp';
    like $r->{stderr}, qr/^run_spectrum\.pl: this kernel has no SCTP: load it with 'modprobe sctp', or sweep TCP with --protocol tcp$/m,
        'the advice';
    like $r->{stderr}, qr/every size would fail the same way, so the sweep stops/, 'stops even with --keep-going';
    ok !-e "$log/client-1.args", 'after the first size';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    like $doc->{failed}[0]{reason}, qr/with '--protocol tcp'/, 'spectrum.json records the reason in the same terms';
};

subtest 'no SCTP for seqpack: the advice names the stream programs over TCP' => sub {
    my ($r) = sweep([qw(--service seqpack --min-power 0 --max-power 0 --no-plot)],
                    FAKE_CLIENT_FAIL => '0', FAKE_CLIENT_FAIL_MESSAGE => $NO_SCTP_SEQPACK);
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/measure TCP instead with --service stream --protocol tcp: Protocol not supported;/,
        'the reason';
    like $r->{stderr}, qr/^run_spectrum\.pl: this kernel has no SCTP: .* sweep TCP with --service stream --protocol tcp$/m,
        'the advice';
    unlike $r->{stderr}, qr/-t tcp/, 'no -t';
};

subtest '--keep-going' => sub {
    my ($r, $log, $out) = sweep([qw(--start-server --keep-going --min-power 0 --max-power 4)], FAKE_CLIENT_FAIL => '1,3');
    is $r->{exit}, 1, 'exit status 1';
    ok -e "$log/client-4.args", 'went on to the last size';
    is_deeply [ map { (split /,/)[0] } (csv_lines($out))[ 1 .. 3 ] ], [ 1, 4, 16 ], 'CSV has the sizes that worked';
    like $r->{stderr}, qr/^run_spectrum\.pl: failed sizes: 2\^1 \(2 bytes\), 2\^3 \(8 bytes\)$/m, 'lists the failures at the end';
    ok !process_alive(pid_of($log, 'server')), 'server stopped';
};

subtest 'a client that rejects its options stops even --keep-going' => sub {
    my ($r, $log) = sweep([qw(--keep-going --min-power 0 --max-power 4)], FAKE_CLIENT_EXIT => 2);
    is $r->{exit}, 2, 'exit status 2';
    like $r->{stderr}, qr/fake client: unknown option/, 'shows why';
    like $r->{stderr}, qr/rejected its options/, 'says why it stopped';
    ok !-e "$log/client-1.args", 'stopped after the first size';
};

subtest 'a client report of format 1 stops even --keep-going' => sub {
    my ($r, $log, $out) = sweep([qw(--keep-going --min-power 0 --max-power 4 --no-plot)], FAKE_CLIENT_FORMAT1 => 1);
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/payload 2\^0 \(1 byte\) failed: SOCK_STREAM_clt exited with status 0 but its JSON report is of format_version 1; run_spectrum\.pl reads format_version 2 only: run it with the programs of the same sctp-perf release;/,
        'names both versions and what to do';
    like $r->{stderr}, qr/every size would fail the same way, so the sweep stops/, 'says why it stopped';
    ok !-e "$log/client-1.args", 'stopped after the first size';
    is scalar(csv_lines($out)), 1, 'CSV: the header only';
};

subtest 'placement: --client-cpu and --server-cpu reach both programs' => sub {
    my ($r, $log, $out) = sweep([qw(--start-server --protocol tcp --min-power 0 --max-power 3 --iterations 4
                                    --client-cpu 0 --server-cpu 0 -- -m 0)]);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    my (undef, @srv_args) = @{ args_of($log, 'server') };
    is_deeply \@srv_args, [qw(-p 0 -a 127.0.0.1 -t tcp --cpu 0)], 'the server gets --cpu 0';
    for my $power (0 .. 3) {
        my (undef, @args) = @{ args_of($log, "client-$power") };
        is_deeply [ @args[ 4 .. $#args ] ], [qw(-t tcp -c 4 -H 127.0.0.1 -p 40123 --cpu 0 -m 0)],
            "2^$power: the client gets --cpu 0, before the options after --";
    }
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is_deeply [ @{ $doc->{sweep} }{qw(client_cpu server_cpu)} ], [ '0', '0' ], 'JSON: the placement';
    like read_file("$out/spectrum.gp"), qr/^set title 'sctp-perf round-trip latency: TCP stream to 127\.0\.0\.1, 4 iterations per size, client CPU 0, server CPU 0' noenhanced$/m,
        'plot title: the placement';
    like $r->{stderr}, qr/^run_spectrum\.pl: placement: client CPU 0, server CPU 0$/m, 'said at the start';
    unlike $r->{stderr}, qr/unpinned/, 'no note about unpinned ends';

    ($r, $log, $out) = sweep([qw(--min-power 0 --max-power 0 --no-plot --client-cpu), '0,2-3']);
    is $r->{exit}, 0, 'a client pinned to a list against a running server: exit 0' or diag $r->{stderr};
    my (undef, @args) = @{ args_of($log, 'client-0') };
    is_deeply [ @args[ 4 .. $#args ] ], [ qw(-t sctp --cpu), '0,2-3' ], 'the list as given';
    like $r->{stderr}, qr/^run_spectrum\.pl: placement: client CPUs 0,2-3$/m, 'said at the start, no word of the server';
    $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is_deeply [ @{ $doc->{sweep} }{qw(client_cpu server_cpu)} ], [ '0,2-3', undef ], 'JSON: the client\'s CPUs, no server\'s';
    like read_file("$out/spectrum.gp"), qr/, client CPUs 0,2-3' noenhanced$/m, 'plot title';

    ($r) = sweep([qw(--min-power 0 --max-power 0 --no-plot)]);
    like $r->{stderr}, qr/placement: unpinned\..* e\.g\. --client-cpu 0 and the server's own --cpu 0$/m,
        'unpinned against a running server: the note suggests the server\'s own --cpu';

    ($r, $log) = sweep([qw(--server-cpu 0 --max-power 0)]);
    is $r->{exit}, 2, '--server-cpu without --start-server: exit status 2';
    like $r->{stderr}, qr/--server-cpu needs --start-server/, 'says so';
    ok !-e "$log/client-0.args", 'nothing ran';
};

subtest 'the work between two sizes does not grow with the sizes done' => sub {
    # Each stand-in client notes, as it starts, what the output directory holds.
    # spectrum.json is written once, at the end; spectrum.csv has the header and
    # one row per size done, and grows by exactly that row, so nothing is rewritten.
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my $r = run_script([ '--bin-dir', "$bin", '--output-dir', "$out", qw(--start-server --min-power 0 --max-power 16) ],
                       env => { FAKE_LOG_DIR => "$log", FAKE_WATCH_DIR => "$out" }, timeout_s => 120);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    my @csv = split /^/m, read_file("$out/spectrum.csv");
    is scalar @csv, 18, 'CSV: the header and 17 rows';
    my @seen = map { JSON::PP->new->decode(read_file("$log/client-$_.seen")) } 0 .. 16;
    is_deeply [ map { $_->{json_exists} } @seen ], [ (0) x 17 ], 'spectrum.json does not exist while sizes run';
    is_deeply [ map { $_->{csv_lines} } @seen ], [ 1 .. 17 ], 'the CSV has the header and one row per size done';
    my @bytes = (length $csv[0]);
    push @bytes, $bytes[-1] + length $csv[$_] for 1 .. 16;
    is_deeply [ map { $_->{csv_bytes} } @seen ], \@bytes, 'and grows by exactly that row: nothing is rewritten';
    my @ace = (0);
    push @ace, $ace[-1] + length "fake ACE report for power $_\n" for 0 .. 15;
    is_deeply [ map { $_->{spectrum_bytes} } @seen ], \@ace, 'the .spectrum file grows by one ACE report per size';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is scalar @{ $doc->{runs} }, 17, 'at the end spectrum.json holds every run';
    is_deeply [ map { $_->{report}{config}{payload_power_of_2} } @{ $doc->{runs} } ], [ 0 .. 16 ], 'in order';
    is_deeply [ grep { /\.[A-Za-z0-9]{6}\z/ } glob("$out/.*") ], [], 'no temporary file left';
};

subtest 'an interrupt keeps the sizes done in every file' => sub {
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my $sent = 0;
    my $r = run_script(
        [ '--bin-dir', "$bin", '--output-dir', "$out", qw(--start-server --max-power 5) ],
        env => { FAKE_LOG_DIR => "$log", FAKE_CLIENT_SLEEP => 30, FAKE_CLIENT_SLEEP_AT => 2 }, timeout_s => 20,
        on_start => sub ($pid, $) {
            $sent = wait_until(10, sub { -s "$log/client-2.pid" }) && kill 'INT', $pid;
        });
    ok $sent, 'sent SIGINT while the third size ran';
    is $r->{signal}, 2, 'died of SIGINT';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is_deeply [ map { $_->{payload_power_of_2} } @{ $doc->{runs} } ], [ 0, 1 ], 'spectrum.json: the two sizes done';
    is $doc->{sweep}{interrupted_by}, 'SIGINT', 'spectrum.json: what ended the sweep';
    is scalar(csv_lines($out)), 3, 'CSV: the header and the two rows';
    is read_file((spectrum_files($out))[0]), "fake ACE report for power 0\nfake ACE report for power 1\n",
        '.spectrum: the two ACE reports';
    ok !process_alive(pid_of("$log", 'client-2')), 'client stopped';
    ok !process_alive(pid_of("$log", 'server')), 'server stopped';
};

subtest 'a client that writes no JSON report' => sub {
    my ($r) = sweep([qw(--min-power 0 --max-power 0)], FAKE_CLIENT_NO_JSON => 1);
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/exited with status 0 but it wrote no JSON report .*does this client support --json-file/,
        'says what is missing';
};

subtest 'gnuplot missing, or not wanted' => sub {
    my $empty = File::Temp->newdir;
    my ($r, $log, $out) = sweep([qw(--min-power 0 --max-power 2)], PATH => "$empty");
    is $r->{exit}, 0, 'exit status 0 without gnuplot' or diag $r->{stderr};
    like $r->{stderr}, qr/gnuplot not found in PATH/, 'says so';
    ok -s "$out/$_", "$_ written" for qw(spectrum.csv spectrum.json spectrum.gp);
    ok !-e "$out/spectrum.png", 'no PNG';

    open my $fh, '>', "$out/spectrum.png" or die;
    print {$fh} 'an old plot';
    close $fh;
    ($r) = run_script([ '--bin-dir', "$bin", '--output-dir', "$out", qw(--no-plot --min-power 0 --max-power 0) ],
                      timeout_s => 60);
    is $r->{exit}, 0, '--no-plot: exit 0';
    ok -s "$out/spectrum.gp", '--no-plot: gnuplot script still written';
    ok !-e "$out/spectrum.png", '--no-plot: the old plot of an earlier sweep is gone';
    is scalar(csv_lines($out)), 2, 'the CSV is this sweep\'s';
};

subtest 'the output directory is created' => sub {
    my $base = File::Temp->newdir;
    my ($r) = run_script([ '--bin-dir', "$bin", '--output-dir', "$base/Deep/Er", qw(--no-plot --max-power 0) ],
                         timeout_s => 60);
    is $r->{exit}, 0, 'exit 0' or diag $r->{stderr};
    ok -s "$base/Deep/Er/spectrum.csv", 'CSV in the new directory, path case kept';
};

subtest 'a server that never reports its port' => sub {
    my $t0 = Time::HiRes::time();
    my ($r, $log) = sweep([qw(--start-server --max-power 0)], FAKE_SERVER_SILENT => 1);
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/did not report its port within 10 s.*\n  \| \(\d+\|1\) fake server/s, 'says so, with its log';
    cmp_ok Time::HiRes::time() - $t0, '<', 30, 'gives up in bounded time';
    ok !process_alive(pid_of($log, 'server')), 'server stopped';
    ok !-e "$log/client-0.args", 'no client ran';
};

subtest 'a server that exits at once' => sub {
    my ($r) = sweep([qw(--start-server --max-power 0)], FAKE_SERVER_EXIT => 1);
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/SOCK_STREAM_srv exited with status 3 before reporting its port/, 'says so';
};

subtest 'a server that ignores SIGTERM is killed' => sub {
    my ($r, $log) = sweep([qw(--start-server --max-power 0 --no-plot)], FAKE_SERVER_IGNORE_TERM => 1);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    like $r->{stderr}, qr/ignored SIGTERM for 5 s; killing it/, 'says so';
    ok !process_alive(pid_of($log, 'server')), 'server gone';
};

subtest 'finding the programs' => sub {
    require(SctpPerf::TestSweep::script_path());
    my ($first, $second) = (File::Temp->newdir, File::Temp->newdir);
    for my $file ("$first/SOCK_STREAM_clt", "$second/SOCK_STREAM_clt", "$second/SOCK_STREAM_srv") {
        open my $fh, '>', $file or die; close $fh; chmod 0755, $file or die;
    }
    is SctpPerf::RunSpectrum::find_bin_dir(['SOCK_STREAM_clt'], [ "$first", "$second" ]), "$first",
        'the first directory that has the client';
    is SctpPerf::RunSpectrum::find_bin_dir([qw(SOCK_STREAM_clt SOCK_STREAM_srv)], [ "$first", "$second" ]), "$second",
        'with a server: the first directory that has both';
    is SctpPerf::RunSpectrum::find_bin_dir(['SOCK_SEQPACK_clt'], [ "$first", "$second" ]), undef, 'none';
    my @defaults = SctpPerf::RunSpectrum::default_bin_dirs();
    like $defaults[0], qr{/build/bin$}, 'default: build/bin beside the script first';
    like $defaults[1], qr{/bin$}, 'then bin';

    SKIP: {
        skip 'a build/bin beside the script holds programs, which would be found first', 2
            if -e File::Spec->catfile($FindBin::Bin, '..', '..', 'build', 'bin', 'SOCK_STREAM_clt');
        my $log = File::Temp->newdir;
        my $out = File::Temp->newdir;
        my $r = run_script([ '--output-dir', "$out", qw(--max-power 0 --no-plot) ],
                           env => { FAKE_LOG_DIR => "$log", PATH => "$bin:/usr/bin:/bin" }, timeout_s => 60);
        is $r->{exit}, 0, 'found through PATH' or diag $r->{stderr};
        like args_of($log, 'client-0')->[0], qr{^\Q$bin\E/SOCK_STREAM_clt$}, 'the client in PATH ran';
    }
};

subtest 'run through a symbolic link, it finds its modules beside its real file' => sub {
    my $links = File::Temp->newdir;
    my $link = File::Spec->catfile($links->dirname, 'run_spectrum.pl');
    symlink(File::Spec->rel2abs(SctpPerf::TestSweep::script_path()), $link) or die "symlink: $!";
    my ($log, $out) = (File::Temp->newdir, File::Temp->newdir);
    my $r = run_script([ '--bin-dir', "$bin", '--output-dir', "$out", qw(--max-power 0 --no-plot) ],
                       script => $link, cwd => File::Spec->rootdir, env => { FAKE_LOG_DIR => "$log" },
                       timeout_s => 60);
    is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};
    is scalar(-e "$out/spectrum.csv" ? csv_lines($out) : ()), 2, 'a header and one size';
};

subtest 'an interrupt stops the client and the server' => sub {
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my $sent = 0;
    my $r = run_script(
        [ '--bin-dir', "$bin", '--output-dir', "$out", qw(--start-server --max-power 3) ],
        env => { FAKE_LOG_DIR => "$log", FAKE_CLIENT_SLEEP => 30 }, timeout_s => 20,
        on_start => sub ($pid, $) {
            $sent = wait_until(10, sub { -s "$log/client-0.pid" }) && kill 'TERM', $pid;
        });
    ok $sent, 'sent SIGTERM while the first client ran';
    ok !$r->{timed_out}, 'the script ended by itself';
    is $r->{signal}, 15, 'and died of SIGTERM, as an interrupted program should';
    like $r->{stderr}, qr/interrupted by SIGTERM/, 'says so';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is_deeply [ $doc->{runs}, $doc->{sweep}{interrupted_by} ], [ [], 'SIGTERM' ], 'spectrum.json: no run, and why';
    ok !process_alive(pid_of("$log", 'client-0')), 'client stopped';
    ok !process_alive(pid_of("$log", 'server')), 'server stopped';
    is read_file("$log/client-0.signals"), "TERM\n", 'the client got the SIGTERM passed on, once';
    is $doc->{sweep}{interrupted_size}{client_ended}, 'exited with status 143', 'and ended as it does when stopped';
};

subtest 'Ctrl-C with --keep-going ends the sweep too' => sub {
    # SIGINT to the client and the script at once (as a kill naming both sends
    # it): the client ends as the script gets it. The sweep must not take that
    # for a failed size and go on to the next.
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my $sent = 0;
    my $r = run_script(
        [ '--bin-dir', "$bin", '--output-dir', "$out", qw(--keep-going --max-power 3) ],
        env => { FAKE_LOG_DIR => "$log", FAKE_CLIENT_SLEEP => 30 }, timeout_s => 20,
        on_start => sub ($pid, $) {
            $sent = wait_until(10, sub { -s "$log/client-0.pid" })
                && kill('INT', pid_of("$log", 'client-0'), $pid);
        });
    ok $sent, 'sent SIGINT to the client and the script';
    ok !$r->{timed_out}, 'the script ended by itself';
    is $r->{signal}, 2, 'and died of SIGINT';
    ok !-e "$log/client-1.pid", 'no later size was started';
    is_deeply [ grep { /\.[A-Za-z0-9]{6}\z/ } glob("$out/.*") ], [], 'no temporary file left';
};

# An interrupt while a size runs, sent by $send->($script_pid, $log) once the client
# of 2^2 runs. Returns the result, the script's pid and the log and output dirs.
sub interrupt_sweep($send, $args, %env) {
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my ($script, $sent) = (0, 0);
    my $r = run_script(
        [ '--bin-dir', "$bin", '--output-dir', "$out", @$args ],
        env => { FAKE_LOG_DIR => "$log", FAKE_CLIENT_SLEEP => 30, FAKE_CLIENT_SLEEP_AT => 2, %env }, timeout_s => 30,
        on_start => sub ($pid, $) {
            $script = $pid;
            $sent = wait_until(10, sub { -s "$log/client-2.pid" }) && $send->($pid, "$log");
        });
    ok $sent, 'sent the signal while the third size ran';
    ok !$r->{timed_out}, 'the script ended by itself';
    return ($r, $script, $log, $out);
}

subtest 'Ctrl-C: the client gets SIGINT once, passed on by the script, and ends with its report' => sub {
    # A terminal sends Ctrl-C to its foreground process group. The programs run in
    # groups of their own, so only the script gets it, and passes it on to the client.
    # Were the client in the script's group, it would get SIGINT from the terminal
    # and a second signal from the script, which ends it at once, without its report.
    my ($r, $script, $log, $out) = interrupt_sweep(sub ($pid, $) { kill 'INT', -$pid }, [qw(--start-server --max-power 3)]);
    is $r->{signal}, 2, 'the script died of SIGINT';
    is read_file("$log/client-2.signals"), "INT\n", 'the client got SIGINT exactly once';
    is read_file("$log/server.signals"), "TERM\n", 'the server got no SIGINT, only the SIGTERM that stopped it';
    isnt read_file("$log/client-2.pgid"), $script, 'the client ran outside the script\'s process group';
    isnt read_file("$log/server.pgid"), $script, 'so did the server';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    my $size = $doc->{sweep}{interrupted_size} // {};
    is_deeply [ @{$size}{qw(payload_power_of_2 payload_bytes signal_passed_on client_ended client_report_interrupted_by)} ],
              [ 2, 4, 'SIGINT', 'exited with status 130', 'SIGINT' ],
        'spectrum.json: the size interrupted, the signal passed on, the client\'s clean end and its report';
    is_deeply [ map { $_->{payload_power_of_2} } @{ $doc->{runs} } ], [ 0, 1 ], 'spectrum.json: the two sizes done';
    is scalar(csv_lines($out)), 3, 'CSV: the header and the two sizes done, not the partial one';
    like $r->{stderr}, qr/^run_spectrum\.pl: interrupted by SIGINT during payload 2\^2 \(4 bytes\): SOCK_STREAM_clt was given SIGINT once and exited with status 130, its report marked interrupted; that size is partial and not in the table$/m,
        'the summary names the size interrupted';
    like $r->{stderr}, qr/interrupted by SIGINT; stopped the programs it had started/, 'and says the programs are stopped';
    ok !process_alive(pid_of("$log", $_)), "$_ is gone" for qw(client-2 server);
};

subtest 'SIGINT to the script alone: passed on to the client once' => sub {
    my ($r, $script, $log, $out) = interrupt_sweep(sub ($pid, $) { kill 'INT', $pid }, [qw(--max-power 3)]);
    is $r->{signal}, 2, 'the script died of SIGINT';
    is read_file("$log/client-2.signals"), "INT\n", 'the client got SIGINT, not SIGTERM, exactly once';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is $doc->{sweep}{interrupted_size}{client_ended}, 'exited with status 130', 'and ended cleanly';
    ok !process_alive(pid_of("$log", 'client-2')), 'the client is gone';
};

subtest 'SIGHUP: passed on as SIGTERM, which the client ends on cleanly' => sub {
    my ($r, $script, $log, $out) = interrupt_sweep(sub ($pid, $) { kill 'HUP', $pid }, [qw(--max-power 3)]);
    is $r->{signal}, 1, 'the script died of SIGHUP';
    is read_file("$log/client-2.signals"), "TERM\n", 'the client got SIGTERM once';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is_deeply [ @{ $doc->{sweep} }{qw(interrupted_by)}, @{ $doc->{sweep}{interrupted_size} // {} }{qw(signal_passed_on client_ended)} ],
              [ 'SIGHUP', 'SIGTERM', 'exited with status 143' ], 'spectrum.json: what came and what was passed on';
};

subtest 'a client that ignores the signal passed on is killed after the grace; a second Ctrl-C changes nothing' => sub {
    my $t0 = Time::HiRes::time();
    my ($r, $script, $log, $out) = interrupt_sweep(
        sub ($pid, $) { my $sent = kill 'INT', $pid; sleep 1; return $sent && kill 'INT', $pid },
        [qw(--start-server --max-power 3)], FAKE_CLIENT_IGNORE_SIGNALS => 1);
    is $r->{signal}, 2, 'the script died of SIGINT';
    cmp_ok Time::HiRes::time() - $t0, '<', 15, 'within the 5 s grace and a margin';
    like $r->{stderr}, qr/SOCK_STREAM_clt \(pid \d+\) ignored SIGINT for 5 s; killing it/, 'says so';
    is read_file("$log/client-2.signals"), "INT\n", 'the signal was passed on once, the second not at all, then SIGKILL';
    is read_file("$log/server.signals"), "TERM\n", 'the server was stopped after the client, despite the second Ctrl-C';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is $doc->{sweep}{interrupted_size}{client_ended}, 'was killed by signal 9', 'spectrum.json: how it ended';
    like $r->{stderr}, qr/SOCK_STREAM_clt was given SIGINT once and was killed by signal 9, with no report/, 'the summary';
    ok !process_alive(pid_of("$log", $_)), "$_ is gone" for qw(client-2 server);
};

subtest 'a client interrupted from outside the sweep fails its size; --keep-going goes on' => sub {
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my $sent = 0;
    my $r = run_script(
        [ '--bin-dir', "$bin", '--output-dir', "$out", qw(--keep-going --max-power 3 --no-plot) ],
        env => { FAKE_LOG_DIR => "$log", FAKE_CLIENT_SLEEP => 30, FAKE_CLIENT_SLEEP_AT => 1 }, timeout_s => 30,
        on_start => sub ($pid, $) {
            $sent = wait_until(10, sub { -s "$log/client-1.pid" }) && kill 'INT', pid_of("$log", 'client-1');
        });
    ok $sent, 'sent SIGINT to the client of 2^1 alone';
    is $r->{exit}, 1, 'exit status 1: a size failed';
    like $r->{stderr}, qr/payload 2\^1 \(2 bytes\) failed: SOCK_STREAM_clt exited with status 130: SIGINT from outside the sweep cut its run short; its partial report is not a row;/,
        'says why the size failed';
    is_deeply [ map { (split /,/)[0] } (csv_lines($out))[ 1 .. 3 ] ], [ 1, 4, 8 ], 'the other sizes ran';
};

subtest 'kill -9 of the script: nothing it started runs on' => sub {
    # The programs run outside the script's process group; each asks the kernel
    # for SIGKILL when the script dies, so the one signal no script can catch
    # still leaves no server running.
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my $tmp = File::Temp->newdir;    # for the work directory a killed script cannot remove
    my ($sent, $gone) = (0, 0);
    my @procs;
    run_script(
        [ '--bin-dir', "$bin", '--output-dir', "$out", qw(--start-server --max-power 3) ],
        env => { FAKE_LOG_DIR => "$log", FAKE_CLIENT_SLEEP => 30, FAKE_CLIENT_SLEEP_AT => 1, TMPDIR => "$tmp" },
        timeout_s => 20,
        on_start => sub ($pid, $) {
            return unless wait_until(10, sub { -s "$log/client-1.pid" });
            @procs = child_processes($pid);
            $sent = kill 'KILL', $pid;    # the script alone, not its process group
            $gone = wait_until(5, sub { !grep { process_running($_) } @procs });
        });
    ok $sent, 'sent SIGKILL to the script while the second size ran';
    is scalar @procs, 2, 'it had two children: the server and the client';
    ok $gone, 'both ended when the script died';
    kill_leftovers(@procs);
};

subtest 'the server the sweep started dies: the size fails saying so, and --keep-going stops' => sub {
    # The client of 2^1 fails after 2 s (as a real client does once its server
    # is gone); the server is killed meanwhile.
    my $log = File::Temp->newdir;
    my $out = File::Temp->newdir;
    my $killed = 0;
    my $r = run_script(
        [ '--bin-dir', "$bin", '--output-dir', "$out", qw(--start-server --keep-going --max-power 3 --no-plot) ],
        env => { FAKE_LOG_DIR => "$log", FAKE_CLIENT_SLEEP => 2, FAKE_CLIENT_SLEEP_AT => 1, FAKE_CLIENT_FAIL => 1,
                 FAKE_CLIENT_FAIL_MESSAGE => 'the peer closed the connection in the middle of the test' },
        timeout_s => 30,
        on_start => sub ($pid, $) {
            $killed = wait_until(10, sub { -s "$log/client-1.pid" }) && kill 'KILL', pid_of("$log", 'server');
        });
    ok $killed, 'killed the server while 2^1 ran';
    is $r->{exit}, 1, 'exit status 1';
    like $r->{stderr}, qr/payload 2\^1 \(2 bytes\) failed: SOCK_STREAM_clt exited with status 1: the peer closed .*\nSOCK_STREAM_srv, which the sweep started, was killed by signal 9; its log:\n/s,
        'the failed size, the client\'s words and what became of the server';
    like $r->{stderr}, qr/^run_spectrum\.pl: SOCK_STREAM_srv, which the sweep started, was killed by signal 9: no later size can run, so the sweep stops$/m,
        'why the sweep stops';
    ok !-e "$log/client-2.args", 'no later size ran';
    my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
    is_deeply [ map { $_->{payload_power_of_2} } @{ $doc->{failed} } ], [1], 'spectrum.json: the one failed size';
};

done_testing;
