# A real sweep over TCP loopback: the script starts SOCK_STREAM_srv itself, runs
# SOCK_STREAM_clt for payloads 2^0..2^4, and leaves five CSV rows and a PNG. Needs the
# built programs: set SCTP_PERF_BIN_DIR to their directory (CTest does).
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Temp ();
use JSON::PP ();
use Test::More;
use SctpPerf::TestSweep qw(read_file run_script process_alive);

my $bin = $ENV{SCTP_PERF_BIN_DIR};
plan skip_all => 'set SCTP_PERF_BIN_DIR to the directory of the built programs to run the end-to-end sweep'
    unless defined $bin && length $bin;
plan skip_all => "SCTP_PERF_BIN_DIR=$bin holds no SOCK_STREAM_clt and SOCK_STREAM_srv; build them first"
    unless -x "$bin/SOCK_STREAM_clt" && -x "$bin/SOCK_STREAM_srv";

my $out = File::Temp->newdir;
my $r = run_script(
    [ '--bin-dir', $bin, '--output-dir', "$out", qw(--start-server --protocol tcp --min-power 0 --max-power 4 --iterations 200),
      '--', '--io-timeout', '5' ],
    timeout_s => 120);
ok !$r->{timed_out}, 'finished within 120 s';
is $r->{exit}, 0, 'exit status 0' or diag $r->{stderr};

my ($server_pid, $port) = $r->{stderr} =~ /started SOCK_STREAM_srv \(pid (\d+)\) on port (\d+)/;
ok $server_pid, 'started the server' or diag $r->{stderr};
ok $port > 0, "on a port the server chose ($port)";
ok $server_pid && !process_alive($server_pid), 'the server is gone afterwards';

my @csv = split /\n/, read_file("$out/spectrum.csv");
is scalar @csv, 6, 'CSV: header and five rows' or diag join "\n", @csv;
is_deeply [ map { (split /,/)[0] } @csv[ 1 .. $#csv ] ], [ 1, 2, 4, 8, 16 ], 'one row per payload size';
for my $line (@csv[ 1 .. $#csv ]) {
    my %row;
    @row{ split /,/, $csv[0] } = split /,/, $line, -1;
    is $row{iterations}, 200, "$row{payload_bytes} bytes: 200 iterations";
    ok $row{min_us} > 0 && $row{min_us} <= $row{p50_us} && $row{p50_us} <= $row{p99_us} && $row{p99_us} <= $row{max_us},
        "$row{payload_bytes} bytes: 0 < min <= p50 <= p99 <= max";
}

my $doc = JSON::PP->new->decode(read_file("$out/spectrum.json"));
is scalar @{ $doc->{runs} }, 5, 'JSON: five client reports';
is $doc->{runs}[0]{report}{config}{transport}, 'tcp', 'the client ran over TCP';
is $doc->{runs}[4]{report}{config}{payload_bytes}, 16, 'the last run had 16-byte payloads';

my ($spectrum) = glob "$out/*.spectrum";
my @titles = read_file($spectrum) =~ /\(Message Size (\d+), Message Type octet\)/g;
is_deeply \@titles, [ 1, 2, 4, 8, 16 ], 'the .spectrum file holds five ACE reports';

SKIP: {
    skip 'gnuplot is not installed (Debian: gnuplot-nox)', 1
        unless grep { -x "$_/gnuplot" } split /:/, $ENV{PATH} // '';
    is substr(read_file("$out/spectrum.png"), 0, 8), "\x89PNG\r\n\x1a\n", 'spectrum.png is a PNG';
}

done_testing;
