# SPDX-License-Identifier: Apache-2.0
# Helpers for the run_spectrum.pl tests: load the script as a module, run it as a
# program with a time bound, and stand in for the client and server with small fake
# programs whose behaviour the tests steer through environment variables.
package SctpPerf::TestSweep;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);
use File::Spec;
use File::Temp ();
use FindBin ();
use POSIX qw(:sys_wait_h);
use Time::HiRes ();

our @EXPORT_OK = qw(script_path fixture_dir load_script run_script make_fake_bin read_file
                    process_alive wait_until child_processes process_running kill_leftovers);

sub script_path() { return File::Spec->catfile($FindBin::Bin, '..', '..', 'run_spectrum.pl') }
sub fixture_dir() { return File::Spec->catdir($FindBin::Bin, 'fixtures') }

sub load_script() {
    require(script_path()) or die "cannot load run_spectrum.pl\n";
    return;
}

sub read_file($path) {
    open my $fh, '<:raw', $path or die "cannot read $path: $!\n";
    local $/;
    return scalar <$fh>;
}

sub process_alive($pid) { return kill(0, $pid) ? 1 : 0 }

# /proc/PID/stat as { pid, state, ppid, pgid, start }, or undef for no such process.
# The command name may hold blanks and parentheses, so the fields are split after
# its last ')': field n of proc(5) is then $f[n - 3].
sub proc_stat($pid) {
    open my $fh, '<', "/proc/$pid/stat" or return;
    my $stat = <$fh> // return;
    my ($rest) = $stat =~ /\A\d+ \(.*\) (.*)\z/s or return;
    my @f = split ' ', $rest;
    return { pid => 0 + $pid, state => $f[0], ppid => $f[1], pgid => $f[2], start => $f[19] };
}

# The processes whose parent is $pid, each as proc_stat gives it plus `command`,
# its argument words.
sub child_processes($pid) {
    my @children;
    for my $dir (glob '/proc/[0-9]*') {
        my ($child) = $dir =~ m{(\d+)\z};
        my $stat = proc_stat($child);
        next unless $stat && $stat->{ppid} == $pid;
        open my $fh, '<', "$dir/cmdline" or next;
        local $/;
        $stat->{command} = [ split /\0/, <$fh> // '' ];
        push @children, $stat;
    }
    return @children;
}

# Whether a process from child_processes still runs: the same pid started at the
# same time, and not a zombie. (A child whose parent died is a zombie until pid 1
# reaps it, which in some containers it never does: kill 0 still finds it.)
sub process_running($proc) {
    my $now = proc_stat($proc->{pid});
    return $now && $now->{start} == $proc->{start} && $now->{state} ne 'Z' ? 1 : 0;
}

# SIGKILL to those of @procs (from child_processes) that still run; returns their pids.
sub kill_leftovers(@procs) {
    my @left = grep { process_running($_) } @procs;
    kill 'KILL', map { $_->{pid} } @left;
    return map { $_->{pid} } @left;
}

# Polls $check every 20 ms until it returns true or $timeout_s passes; returns its last value.
sub wait_until($timeout_s, $check) {
    my $deadline = Time::HiRes::time() + $timeout_s;
    while (1) {
        my $value = $check->();
        return $value if $value || Time::HiRes::time() >= $deadline;
        Time::HiRes::sleep(0.02);
    }
}

# Runs run_spectrum.pl with @$args and returns { status => $?, exit => N, signal => N,
# stdout, stderr, timed_out }. Bounded by `timeout_s` (default 60): past it the script
# gets SIGTERM, then its whole process group SIGKILL (the script runs as the leader
# of a process group, as a shell's job does). `env` adds environment variables;
# `on_start` is called with the pid once it runs (e.g. to signal it) and the path
# of its stderr, which grows as it runs; `script` runs another path to the script
# (a symbolic link to it). The programs the script starts run in
# process groups of their own, outside the script's; each dies with it (the script
# asks the kernel for that), so none runs on after the test.
sub run_script($args, %o) {
    my $timeout_s = $o{timeout_s} // 60;
    my $dir = File::Temp->newdir;
    my ($out, $err) = map { File::Spec->catfile($dir->dirname, $_) } qw(stdout stderr);
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        POSIX::setpgid(0, 0);
        while (my ($name, $value) = each %{ $o{env} // {} }) {
            if (defined $value) { $ENV{$name} = $value } else { delete $ENV{$name} }
        }
        chdir $o{cwd} or POSIX::_exit(126) if defined $o{cwd};
        open STDIN, '<', File::Spec->devnull;
        open STDOUT, '>', $out;
        open STDERR, '>', $err;
        exec { $^X } $^X, $o{script} // script_path(), @$args or POSIX::_exit(127);
    }
    $o{on_start}->($pid, $err) if $o{on_start};
    my $timed_out = 0;
    my $status = wait_until($timeout_s, sub { waitpid($pid, WNOHANG) == $pid ? [$?] : undef });
    if (!$status) {
        $timed_out = 1;
        kill 'TERM', $pid;
        $status = wait_until(5, sub { waitpid($pid, WNOHANG) == $pid ? [$?] : undef });
        if (!$status) {
            kill 'KILL', -$pid;
            waitpid $pid, 0;
            $status = [$?];
        }
    }
    kill 'KILL', -$pid;    # whatever else runs in the script's group may not outlive the test
    my $s = $status->[0];
    return { status => $s, exit => $s >> 8, signal => $s & 127, timed_out => $timed_out,
             stdout => read_file($out), stderr => read_file($err) };
}

# Writes SOCK_STREAM_clt/_srv, SOCK_SEQPACK_clt/_srv and sctp-perf-compare stand-ins into a new directory
# and returns it. They log their arguments (JSON), pid and process group into
# $ENV{FAKE_LOG_DIR}, and every SIGINT, SIGTERM or SIGHUP they get, one name a line.
#
# Client: -s P, --json-file F; writes fixtures/client-sP.json (or client-s0.json with
# the payload fields changed) to F and "fake ACE report for power P" to stdout. Given
# --payload-bytes N instead of -s, it writes client-s0.json with the payload fields
# changed to N bytes (its power null unless N is a power of two), and names its logs
# and takes FAKE_CLIENT_FAIL and FAKE_CLIENT_SLEEP_AT by "NB" (client-100B.args). With
# --rate or --throughput it writes client-rate-sP.json or client-throughput-sP.json
# (or the -s4 one, changed), and refuses P < 4 as the real client does (exit 2).
# Given --check-lines alone it runs nothing: it reads command lines from stdin, one
# a line, each a JSON list of words, logs each to checks.log (as its program, then
# --check-lines and the words) and its pid to check-pids.log, and prints the line's
# number; or, at the first line it refuses, exits 2 with "NAME: SENTENCE" lines and
# a pointer to --help, as the real client does, for the sizes below 16 bytes in a
# load mode and for those steered so:
#   FAKE_CLIENT_CHECK_FAIL=1,3  refuse those powers (or "100B" sizes)
#   FAKE_CLIENT_CHECK_MESSAGE=TEXT  the sentence ("fake refusal at P" unless given)
#   FAKE_CLIENT_CHECK_FAIL_WITH=WORD  refuse so only when WORD is among its arguments
# calls.log has every line checked and every run, in order: ["check", P] or ["run", P].
# Signals as the real client takes them while it measures: the first SIGINT or
# SIGTERM ends its sleep, it writes its report marked interrupted ("interrupted":
# true, "interrupted_by": "SIGINT") and exits 128 + the signal (130, 143); a second
# one, or a SIGHUP, ends it at once by the signal's default action.
#   FAKE_CLIENT_FAIL=1,3   exit 1 for those powers, with a message on stderr and an
#                          error report ({"error": ..., "exit_code": 1}) in F
#   FAKE_CLIENT_FAIL_MESSAGE=TEXT  that message ("connection refused at power P" unless
#                          given), printed as "fake client: TEXT" and the report's error
#   FAKE_CLIENT_FAIL_WITH=WORD  fail so only when WORD is among its arguments
#   FAKE_CLIENT_EXIT=2     exit 2 ("unknown option") for every power (a run; the check
#                          takes the options: a client whose run rejects them all the same)
#   FAKE_CLIENT_NO_JSON=1  exit 0 without writing the JSON report
#   FAKE_CLIENT_FORMAT1=1  write the format_version 1 report client-format1-s0.json
#   FAKE_CLIENT_SLEEP=S    sleep S seconds first (a first signal ends the sleep)
#   FAKE_CLIENT_SLEEP_AT=P only at power P
#   FAKE_CLIENT_IGNORE_SIGNALS=1  log SIGINT, SIGTERM and SIGHUP, and do nothing else
#   FAKE_WATCH_DIR=D       when it starts, record in FAKE_LOG_DIR/client-P.seen (JSON)
#                          what D holds: whether D/spectrum.json exists, the bytes
#                          and lines of D/spectrum.csv and the bytes of D/*.spectrum
# Its report takes the transport of a -t it is given, Nagle on for a -n, and with
# --fake-scale F every percentile multiplied by F.
# Logs: client-P.args, client-P.pid, client-P.pgid, client-P.signals, and
# clients.log: the arguments of every client run, one JSON list a line, in order.
# Server: prints "(PID|1) starting server at port N" to stderr and waits for a
# signal; exits 0 on SIGINT or SIGTERM. N is 40123 for the first server started
# with a log directory, 40124 for the second, and so on. Logs: server.args,
# server.pid, server.pgid, server.signals (of the last started), and servers.log:
# { pid, port, args } of every server, one a line.
#   FAKE_SERVER_SILENT=1       never print the port line
#   FAKE_SERVER_IGNORE_TERM=1  ignore SIGTERM
#   FAKE_SERVER_EXIT=1         exit 3 at once
# sctp-perf-compare: logs its arguments to compare.log (one JSON list a line), reads
# every *.json in the directories after --a and --b, and prints JSON shaped as the
# real program's --format json: for p50, p90, p99, p99.9 and max, each side's
# median of the reports' percentiles (the mean of the middle two for an even
# count), ratio B/A, an interval of ratio x 0.75 .. ratio x 1.25, p_value 0.5, and
# the verdict "slower" when 0.75 x ratio > 1.05, "faster" when 1.25 x ratio < 0.95,
# else "no difference"; "A is X, B is Y" among the differences when the reports'
# transports differ; a warning for a side of fewer than 5 runs.
#   FAKE_COMPARE_EXIT=N    print "fake compare: cannot compare" to stderr, exit N
sub make_fake_bin() {
    my $dir = File::Temp->newdir;
    my $fixtures = fixture_dir();
    my $client = <<"PL";
#!$^X
use strict; use warnings; use B (); use JSON::PP; use Time::HiRes ();
my \$log = \$ENV{FAKE_LOG_DIR};
my (\$power, \$bytes, \$json_file);
my \$mode = 'ping-pong';
for my \$i (0 .. \$#ARGV) {
    \$power = \$ARGV[\$i + 1] if \$ARGV[\$i] eq '-s';
    \$bytes = \$ARGV[\$i + 1] if \$ARGV[\$i] eq '--payload-bytes';
    \$json_file = \$ARGV[\$i + 1] if \$ARGV[\$i] eq '--json-file';
    \$mode = \$1 if \$ARGV[\$i] =~ /\\A--(rate|throughput)\\z/;
}
sub log_text { my (\$name, \$text, \$mode) = \@_; return unless \$log;
               open my \$fh, \$mode // '>', "\$log/\$name" or die; print {\$fh} \$text; close \$fh }
if (\@ARGV == 1 && \$ARGV[0] eq '--check-lines') {
    my (\$name) = \$0 =~ m{([^/]+)\\z};
    my \$number = 0;
    while (my \$line = <STDIN>) {
        ++\$number;
        my \@words = \@{ decode_json(\$line) };
        # As the real client: every word a JSON string, numbers too.
        if (grep { ref || B::svref_2object(\\\$_)->FLAGS & (B::SVp_IOK | B::SVp_NOK) } \@words) {
            print STDERR "\$name: --check-lines: line \$number is not a JSON list of the words of a command line\\n";
            exit 2;
        }
        my (\$p, \$b);
        my \$m = 'ping-pong';
        for my \$i (0 .. \$#words) {
            \$p = \$words[\$i + 1] if \$words[\$i] eq '-s';
            \$b = \$words[\$i + 1] if \$words[\$i] eq '--payload-bytes';
            \$m = \$1 if \$words[\$i] =~ /\\A--(rate|throughput)\\z/;
        }
        my \$k = defined \$p ? \$p : "\${b}B";
        \$b //= 2**\$p;
        log_text('checks.log', encode_json([\$0, '--check-lines', \@words]) . "\\n", '>>');
        log_text('check-pids.log', "\$\$\\n", '>>');
        log_text('calls.log', encode_json(['check', \$k]) . "\\n", '>>');
        my \@refusals;
        push \@refusals, \$ENV{FAKE_CLIENT_CHECK_MESSAGE} // "fake refusal at \$k"
            if (grep { \$_ eq \$k } split /,/, \$ENV{FAKE_CLIENT_CHECK_FAIL} // '')
               && (!defined \$ENV{FAKE_CLIENT_CHECK_FAIL_WITH} || grep { \$_ eq \$ENV{FAKE_CLIENT_CHECK_FAIL_WITH} } \@words);
        push \@refusals, "--\$m needs a payload of at least 16 bytes (-s 4)" if \$m ne 'ping-pong' && \$b < 16;
        if (\@refusals) {
            print STDERR map({ "\$name: \$_\\n" } \@refusals), "Try '\$name --help' for the options.\\n";
            exit 2;
        }
        print "\$number\\n";
    }
    exit 0;
}
my \$key = defined \$power ? \$power : "\${bytes}B";
\$bytes //= 2**\$power;
my \$interrupted = '';
for my \$name (qw(INT TERM HUP)) {
    \$SIG{\$name} = sub {
        log_text("client-\$key.signals", "\$name\\n", '>>');
        return if \$ENV{FAKE_CLIENT_IGNORE_SIGNALS};
        if (\$name eq 'HUP' || \$interrupted) { \$SIG{\$name} = 'DEFAULT'; kill \$name, \$\$; return }
        \$interrupted = \$name;
    };
}
log_text("client-\$key.args", encode_json([\$0, \@ARGV]));
log_text('clients.log', encode_json([\$0, \@ARGV]) . "\n", '>>');
log_text('calls.log', encode_json(['run', \$key]) . "\n", '>>');
log_text("client-\$key.pgid", getpgrp());
log_text("client-\$key.pid", \$\$);
if (my \$watch = \$ENV{FAKE_WATCH_DIR}) {
    my \$csv = '';
    if (open my \$in, '<', "\$watch/spectrum.csv") { local \$/; \$csv = <\$in> // '' }
    my \$ace_bytes = 0;
    \$ace_bytes += -s \$_ for glob "\$watch/*.spectrum";
    my \%seen = (json_exists => (-e "\$watch/spectrum.json" ? 1 : 0), csv_bytes => length \$csv,
                csv_lines => scalar(() = \$csv =~ /\\n/g), spectrum_bytes => \$ace_bytes);
    log_text("client-\$key.seen", encode_json(\\%seen));
}
if (\$ENV{FAKE_CLIENT_SLEEP} && (!defined \$ENV{FAKE_CLIENT_SLEEP_AT} || \$ENV{FAKE_CLIENT_SLEEP_AT} eq \$key)) {
    my \$until = Time::HiRes::time() + \$ENV{FAKE_CLIENT_SLEEP};
    Time::HiRes::sleep(0.02) while !\$interrupted && Time::HiRes::time() < \$until;
}
if (\$ENV{FAKE_CLIENT_EXIT}) { print STDERR "fake client: unknown option\\n"; exit \$ENV{FAKE_CLIENT_EXIT} }
if ((grep { \$_ eq \$key } split /,/, \$ENV{FAKE_CLIENT_FAIL} // '')
    && (!defined \$ENV{FAKE_CLIENT_FAIL_WITH} || grep { \$_ eq \$ENV{FAKE_CLIENT_FAIL_WITH} } \@ARGV)) {
    my \$message = \$ENV{FAKE_CLIENT_FAIL_MESSAGE} // "connection refused at power \$key";
    print STDERR "fake client: \$message\\n";
    open my \$out, '>', \$json_file or die;
    print {\$out} encode_json({ tool => 'sctp-perf', tool_version => '1.0.0', format_version => 2,
                                program => 'SOCK_STREAM_clt', error => \$message, exit_code => 1 });
    close \$out;
    exit 1;
}
if (\$mode ne 'ping-pong' && \$bytes < 16) {
    print STDERR "fake client: --\$mode needs a payload of at least 16 bytes (-s 4)\\n";
    exit 2;
}
print "fake ACE report for power \$key\\n";
exit 0 if \$ENV{FAKE_CLIENT_NO_JSON};
my (\$prefix, \$base) = \$mode eq 'ping-pong' ? ('client', 0) : ("client-\$mode", 4);
(\$prefix, \$base) = ('client-format1', 0) if \$ENV{FAKE_CLIENT_FORMAT1};
my \$file = defined \$power ? "$fixtures/\$prefix-s\$power.json" : '';
my \$text;
if (-e \$file) {
    open my \$in, '<', \$file or die; local \$/; \$text = <\$in>;
} else {
    open my \$in, '<', "$fixtures/\$prefix-s\$base.json" or die; local \$/;
    my \$doc = decode_json(<\$in>);
    my \$exact = (\$bytes & (\$bytes - 1)) == 0 ? int(log(\$bytes) / log(2) + 0.5) : undef;
    \$doc->{config}{payload_power_of_2} = \$exact;
    \$doc->{config}{payload_bytes} = 0 + \$bytes;
    \$text = encode_json(\$doc);
}
my (\$transport, \$nagle, \$scale);
for my \$i (0 .. \$#ARGV) {
    \$transport = \$ARGV[\$i + 1] if \$ARGV[\$i] eq '-t';
    \$nagle = 1 if \$ARGV[\$i] eq '-n';
    \$scale = \$ARGV[\$i + 1] if \$ARGV[\$i] eq '--fake-scale';
}
if (defined \$transport || \$nagle || \$scale) {
    my \$doc = decode_json(\$text);
    \$doc->{config}{transport} = \$transport if defined \$transport;
    \$doc->{config}{nagle} = JSON::PP::true if \$nagle;
    if (\$scale) { \$_ *= \$scale for values %{ \$doc->{percentiles} } }
    \$text = encode_json(\$doc);
}
if (\$interrupted) {
    my \$doc = decode_json(\$text);
    \@{\$doc}{qw(interrupted interrupted_by)} = (JSON::PP::true, "SIG\$interrupted");
    \$text = encode_json(\$doc);
}
open my \$out, '>', \$json_file or die "fake client: cannot write \$json_file: \$!\\n";
print {\$out} \$text;
close \$out or die;
exit(\$interrupted eq 'INT' ? 130 : \$interrupted eq 'TERM' ? 143 : 0);
PL
    my $server = <<"PL";
#!$^X
use strict; use warnings; use JSON::PP;
\$| = 1;
my \$log = \$ENV{FAKE_LOG_DIR};
sub log_text { my (\$name, \$text, \$mode) = \@_; return unless \$log;
               open my \$fh, \$mode // '>', "\$log/\$name" or die; print {\$fh} \$text; close \$fh }
\$SIG{TERM} = sub { log_text('server.signals', "TERM\\n", '>>'); exit 0 unless \$ENV{FAKE_SERVER_IGNORE_TERM} };
\$SIG{INT} = sub { log_text('server.signals', "INT\\n", '>>'); exit 0 };
\$SIG{HUP} = sub { log_text('server.signals', "HUP\\n", '>>'); \$SIG{HUP} = 'DEFAULT'; kill 'HUP', \$\$ };
log_text('server.args', encode_json([\$0, \@ARGV]));
my \$started_before = 0;
if (\$log && open my \$in, '<', "\$log/servers.log") { \$started_before++ while <\$in> }
my \$port = 40123 + \$started_before;
log_text('servers.log', encode_json({ pid => \$\$, port => \$port, args => [\$0, \@ARGV] }) . "\n", '>>');
log_text('server.pgid', getpgrp());
log_text('server.pid', \$\$);
exit 3 if \$ENV{FAKE_SERVER_EXIT};
print STDERR "(\$\$|1) fake server\\n";
print STDERR "(\$\$|1) starting server at port \$port\\n" unless \$ENV{FAKE_SERVER_SILENT};
sleep 1 while 1;
PL
    my $compare = <<"PL";
#!$^X
use strict; use warnings; use JSON::PP;
my \$log = \$ENV{FAKE_LOG_DIR};
if (\$log) { open my \$fh, '>>', "\$log/compare.log" or die; print {\$fh} encode_json([\$0, \@ARGV]), "\\n"; close \$fh }
if (\$ENV{FAKE_COMPARE_EXIT}) { print STDERR "fake compare: cannot compare\\n"; exit \$ENV{FAKE_COMPARE_EXIT} }
my (\%dir, \%side);
for my \$i (0 .. \$#ARGV) { \$dir{\$1} = \$ARGV[\$i + 1] if \$ARGV[\$i] =~ /\\A--([ab])\\z/ }
for my \$name (qw(a b)) {
    for my \$file (sort glob "\$dir{\$name}/*.json") {
        open my \$in, '<', \$file or die; local \$/;
        my \$doc = decode_json(<\$in>);
        push \@{ \$side{\$name}{runs} }, \$doc->{percentiles};
        \$side{\$name}{transport} = \$doc->{config}{transport};
    }
}
sub median { my \@v = sort { \$a <=> \$b } \@_; return \@v % 2 ? \$v[\$#v / 2] : (\$v[\@v / 2 - 1] + \$v[\@v / 2]) / 2 }
my \@rows;
for my \$p ([p50 => 'p50_us'], [p90 => 'p90_us'], [p99 => 'p99_us'], ['p99.9' => 'p99_9_us'], [max => 'max_us']) {
    my (\$a, \$b) = map { median(map { \$_->{\$p->[1]} } \@{ \$side{\$_}{runs} }) } qw(a b);
    my \$ratio = \$b / \$a;
    my (\$low, \$high) = (\$ratio * 0.75, \$ratio * 1.25);
    push \@rows, { percentile => \$p->[0], a => { median_us => \$a }, b => { median_us => \$b }, ratio => \$ratio,
                   ratio_low => \$low, ratio_high => \$high, p_value => 0.5, p_method => 'exact',
                   verdict => \$low > 1.05 ? 'slower' : \$high < 0.95 ? 'faster' : 'no difference' };
}
my \@differences = \$side{a}{transport} eq \$side{b}{transport} ? ()
                 : ("A is \$side{a}{transport}, B is \$side{b}{transport}");
my \@warnings = map { my \$n = \@{ \$side{\$_}{runs} }; \$n < 5 ? ("the \\U\$_\\E side has \$n runs") : () } qw(a b);
print JSON::PP->new->canonical->pretty->encode({
    tool => 'sctp-perf', program => 'sctp-perf-compare', format_version => 1,
    a => { paths => [\$dir{a}], runs => scalar \@{ \$side{a}{runs} } }, b => { paths => [\$dir{b}], runs => scalar \@{ \$side{b}{runs} } },
    differences => \\\@differences, threshold_percent => 5, method => { confidence_percent => 95 },
    percentiles => \\\@rows, gate => undef, warnings => \\\@warnings, exit_code => 0 });
PL
    my $compare_path = File::Spec->catfile($dir->dirname, 'sctp-perf-compare');
    open my $compare_fh, '>', $compare_path or die "cannot write $compare_path: $!";
    print {$compare_fh} $compare;
    close $compare_fh or die;
    chmod 0755, $compare_path or die;
    for my $prefix (qw(SOCK_STREAM SOCK_SEQPACK)) {
        for ([ clt => $client ], [ srv => $server ]) {
            my $path = File::Spec->catfile($dir->dirname, "${prefix}_$_->[0]");
            open my $fh, '>', $path or die "cannot write $path: $!";
            print {$fh} $_->[1];
            close $fh or die;
            chmod 0755, $path or die;
        }
    }
    return $dir;
}

1;
