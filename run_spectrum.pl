#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Sweep the payload size over powers of two with the sctp-perf client and collect
# every run into a table, a JSON file and a plot.
#
# The script orchestrates and collects only: every number it writes comes from the
# client's JSON report. It is a modulino: run as a program it calls main(); loaded
# with `require` (as the tests do) it only defines the functions. Its parts are the
# modules SctpPerf::RunSpectrum::*, one per concern: Errors, Options, Commands,
# Children, ClientCheck, Server, Reports, Writers, Plot, Failures, Sweep and Compare.
package SctpPerf::RunSpectrum;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Cwd ();
use File::Basename qw(dirname);
use File::Path qw(make_path);
use File::Spec;
use File::Temp ();
use POSIX ();

# Where the modules are, relative to this file's real directory (a symbolic link
# to the script leads there too): lib in the source tree. The installed copy has
# this line rewritten to its own (../share/sctp-perf/perl5 from bin; the top
# CMakeLists.txt), so a package unpacked anywhere finds its own modules.
use constant MODULE_DIR => 'lib';
use lib File::Spec->catdir(dirname(Cwd::realpath(__FILE__) // __FILE__), MODULE_DIR);

use SctpPerf::RunSpectrum::Children qw(stop_all_children stop_signal_set);
use SctpPerf::RunSpectrum::ClientCheck qw(check_client_commands);
use SctpPerf::RunSpectrum::Commands qw(program_names COMPARE_PROGRAM);
use SctpPerf::RunSpectrum::Errors qw($SCRIPT_NAME runtime_error interrupted note);
use SctpPerf::RunSpectrum::Options qw(parse_arguments validate_options);
use SctpPerf::RunSpectrum::Sweep qw(run_sweep);

my $SCRIPT_FILE = File::Spec->rel2abs(__FILE__);

sub run(@argv) {
    my $opt = parse_arguments(@argv);
    if ($opt->{help} || $opt->{manual}) {
        require Pod::Usage;    # only here: loading it costs every sweep a moment
        Pod::Usage::pod2usage(-input => $SCRIPT_FILE, -verbose => $opt->{manual} ? 2 : 1, -exitval => 'NOEXIT',
                              -output => \*STDOUT, -noperldoc => 1);
        return 0;
    }
    my $s = validate_options($opt);
    my $programs = find_programs($s);

    my $work_dir = File::Temp->newdir('run_spectrum-XXXXXX', TMPDIR => 1);
    # From the first interrupt on, the sweep only stops; the signals that follow are
    # ignored at once, so that none cuts the clean-up short: a second Ctrl-C, or the
    # same signal twice in an instant (timeout(1) sends it to the script and to its
    # process group).
    local @SIG{qw(INT TERM HUP)} = map {
        my $sig = $_;
        sub { $SIG{$_} = 'IGNORE' for qw(INT TERM HUP); die interrupted($sig) }
    } qw(INT TERM HUP);
    my $status = eval {
        # Before anything is made or started: a mistake in the options is found now.
        check_client_commands($s, $programs, $work_dir->dirname);
        make_output_dir($s->{output_dir});
        $s->{compare} ? run_compare($s, $programs, $work_dir->dirname) : run_sweep($s, $programs, $work_dir->dirname)
    };
    my $error = $@;
    # On success no child is left; after an error or interrupt, stop them, and let a
    # second Ctrl-C not cut that short.
    local @SIG{qw(INT TERM HUP)} = ('IGNORE') x 3;
    stop_all_children();
    die $error unless defined $status;
    return $status;
}

# The comparison's module is compiled only when --compare asks for it: a sweep,
# whose start-up is time outside its measurements, need not compile it.
sub run_compare($s, $programs, $work_dir) {
    require SctpPerf::RunSpectrum::Compare;
    return SctpPerf::RunSpectrum::Compare::run_compare($s, $programs, $work_dir);
}

# Where the programs are looked for without --bin-dir: beside the script (a build
# in its source tree first), then PATH.
sub default_bin_dirs() {
    my $script_dir = dirname(Cwd::realpath($SCRIPT_FILE) // $SCRIPT_FILE);
    my @path = grep { length } File::Spec->path;
    return (File::Spec->catdir($script_dir, 'build', 'bin'), File::Spec->catdir($script_dir, 'bin'),
            $script_dir, @path);
}

# The first directory holding every program in @$names, so a client and server come
# from the same build. Returns the directory or undef.
sub find_bin_dir($names, $dirs) {
    for my $dir (@$dirs) {
        return $dir unless grep { my $p = File::Spec->catfile($dir, $_); !(-f $p && -x _) } @$names;
    }
    return;
}

# The programs the run needs, from one directory, so that they come from one
# build: { client, server, compare }, each an absolute path.
sub find_programs($s) {
    my ($client_name, $server_name) = program_names($s->{service});
    my @needed = ($client_name, $s->{start_server} ? $server_name : (), $s->{compare} ? COMPARE_PROGRAM : ());
    my @dirs = defined $s->{bin_dir} ? ($s->{bin_dir}) : default_bin_dirs();
    my $bin_dir = find_bin_dir(\@needed, \@dirs)
        // die runtime_error(join(' and ', @needed) . ' not found in ' . join(', ', @dirs)
                             . '; build the programs or point --bin-dir at them');
    my %path = (client => $client_name, server => $server_name, compare => COMPARE_PROGRAM);
    return { map { $_ => File::Spec->rel2abs(File::Spec->catfile($bin_dir, $path{$_})) } keys %path };
}

sub make_output_dir($dir) {
    make_path($dir, { error => \my $mkdir_errors });
    die runtime_error("cannot create --output-dir '$dir': " . join('; ', map { values %$_ } @$mkdir_errors))
        unless -d $dir;
    return;
}

sub main(@argv) {
    my $status = eval { run(@argv) };
    return $status if defined $status;
    my $error = $@;
    if (ref $error eq 'SctpPerf::RunSpectrum::Interrupted') {
        note("interrupted by SIG$error->{signal}; stopped the programs it had started");
        $SIG{ $error->{signal} } = 'DEFAULT';
        # An interrupt seen as spawn blocked the signals may have cut it short
        # before it unblocked them.
        POSIX::sigprocmask(POSIX::SIG_UNBLOCK(), stop_signal_set());
        kill $error->{signal}, $$;    # die of the same signal, so callers see the interrupt
        return 1;
    }
    if (ref $error eq 'SctpPerf::RunSpectrum::Error') {
        note(($error->{status} == 2 ? 'error: ' : '') . $error->{message});
        note("try '$SCRIPT_NAME --help' for the options") if $error->{status} == 2;
        return $error->{status};
    }
    chomp $error;
    note("internal error: $error");
    return 1;
}

exit main(@ARGV) unless caller;

1;

__END__

=head1 NAME

run_spectrum.pl - sweep the payload size of the sctp-perf latency test over powers of two or a list of sizes

=head1 SYNOPSIS

  run_spectrum.pl [--service stream|seqpack] [--protocol tcp|sctp]
                  [--min-power N] [--max-power N | --sizes LIST] [--iterations N]
                  [--rate R | --throughput] [--duration S] [--flows N]
                  [--host HOST] [--port PORT] [--start-server]
                  [--client-cpu LIST] [--server-cpu LIST]
                  [--config-file FILE] [--output-dir DIR] [--bin-dir DIR]
                  [--[no-]plot] [--keep-going] [-- CLIENT-OPTIONS...]
  run_spectrum.pl --compare 'OPTIONS A' 'OPTIONS B' [--repeat N] [the options above]
  run_spectrum.pl --help | --manual

=head1 OPTIONS

Option values are case-insensitive (C<--protocol TCP> works); file paths and host
names are used as given. Option names are not: C<-h> is the help, C<-H> an error.

Where an option means what one of the client's does, the client's long name is taken
too, with dashes or underscores: B<--test-transport-protocol> for B<--protocol>,
B<--test-iterations> for B<--iterations>, B<--server-host> for B<--host> and
B<--server-port> for B<--port>. The client's short names (C<-t>, C<-c>, C<-H>, C<-p>)
are not: the script takes no one-letter options but C<-h>, and given before C<-->
they are refused with the script's name for them. The client's C<-s> and C<--cpu>
have no alias: the script sweeps the size (B<--min-power>, B<--max-power>, or
B<--sizes>, which it passes as the client's C<--payload-bytes>), and pins
the client with B<--client-cpu>, apart from the server's B<--server-cpu>.

The script checks its own options. What it passes on to the client (the sizes, the
count or time of a run, the rate, the flows, the host, the client's CPUs, the options
of the config file and those after the double dash) the client checks itself: before
the first run, and before a server is started, the script gives every command line it
will run to one client, with its C<--check-lines> option, which validates each exactly
as a run would (as its C<--check> does one) and connects nowhere. A mistake is then
reported at once in the client's words, with the size (and, comparing, the side) it
was found for, and nothing runs: exit status 2.

=over 4

=item B<--service> stream|seqpack

Which pair of programs to run: C<SOCK_STREAM_clt>/C<SOCK_STREAM_srv> (default) or
C<SOCK_SEQPACK_clt>/C<SOCK_SEQPACK_srv>. C<seqpacket> is accepted for C<seqpack>.

=item B<--protocol> tcp|sctp (also B<--test-transport-protocol>)

Transport of the stream programs, passed to them as C<-t>. Default C<sctp>, as in the
programs. The seqpack programs always use SCTP, so C<--service seqpack --protocol tcp>
is an error.

=item B<--min-power> N, B<--max-power> N

The sweep runs payloads of 2^N bytes for every N from min to max. Default 0 and 16
(1 byte to 64 KiB, the client's largest payload); whole numbers up to 63, min not
above max, and the client refuses a power it does not take (above 16). With
B<--rate> or B<--throughput> the minimum defaults to 4: the client's load modes need
payloads of at least 16 bytes, and refuse a smaller one.

=item B<--sizes> LIST

The sweep runs the payload sizes of LIST instead, in bytes, comma-separated, such as
C<--sizes 32,64,100,1000,63000>: each a whole number, each once, in ascending order,
which the client takes from 1 to 65536 (16 with B<--rate> or B<--throughput>). Each
reaches the client
as C<--payload-bytes N>, so any size can be measured, not only powers of two, as
RTI Perftest's C<-datalen> and TransportPerf's C<-msgSize> take them. Excludes
B<--min-power> and B<--max-power>. The table, the CSV and F<spectrum.json> have a
row per size (C<payload_power_of_2> is null for a size that is no power of two),
F<spectrum.json>'s C<sweep.sizes> lists them, and the plot has a tic at each.

=item B<--iterations> N (also B<--test-iterations>)

Timed iterations per size, a whole number written in digits, passed to the client as
C<-c N>. Without it the client's own default (or a C<-c> in the config file) applies.
Not with B<--duration>.

=item B<--rate> R

Load mode: every flow sends open loop at R messages per second (written in digits,
such as 2000 or 0.5; the client takes more than 0 and at most 10000000), message k of a flow due at k/R seconds after the start, whether or not
earlier replies have come back. Passed to the client as C<--rate R>. The latency in
the CSV and the plot is the I<corrected> one, timed from each message's due time, so
a sender that falls behind its schedule shows the wait it caused. Not with
B<--throughput>.

=item B<--throughput>

Load mode: every flow sends as fast as the transport accepts; the latency is that of
every Nth message (the client's C<--echo-every>), timed from its actual send
(I<uncorrected>). Passed to the client as C<--throughput>. Not with B<--rate>.

=item B<--duration> S

Run every size for S seconds (written in digits, such as 3 or 0.5; the client takes
more than 0 and at most 86400) instead of a count of iterations; passed to the client as C<--duration S>. Not with B<--iterations>, nor
with a C<-c> among the client options.

=item B<--flows> N

Connections (SCTP: associations) the client opens, a whole number written in digits
(the client takes 1 to 100000); passed to the client as C<--flows N>. A B<--rate> is per flow. Above 1 it needs B<--rate> or
B<--throughput>: a ping-pong sweep reads the one-flow ACE histogram report. With B<--start-server> and more than 5000
flows, the server is started with C<--max-clients> twice N, so the flows of one size
still closing do not make the next size's flows find it busy.

=item B<--host> HOST, B<--port> PORT (also B<--server-host>, B<--server-port>)

Where the server runs, passed to the client as C<-H> and C<-p>. Without them the
client's defaults apply. With B<--start-server>, B<--host> defaults to 127.0.0.1 and
B<--port> defaults to a free port chosen by the server.

=item B<--start-server>

Start the matching server before the sweep and stop it afterwards (SIGTERM, then
SIGKILL if it has not exited within 5 s), also when a run fails or the script is
interrupted (then after the client has ended; see L</SIGNALS>). If the server dies
during the sweep, the size that fails with it says so, with the server's log, and the
sweep stops there, even with B<--keep-going>: every later size would only fail to
connect. The server is started with C<-p 0> (or C<-p PORT>); the script reads the
real port from its log line C<(pid|tid) starting server at port P>, waiting at most
10 s. Without B<--host> the server is bound to 127.0.0.1 (C<-a 127.0.0.1>); with it,
the server listens on all addresses. A C<-n> (or C<--test-enable-nagle>) among the
client options is given to the server too, so both ends use the same Nagle setting.
Without B<--start-server>, the server must already be running, as with the original
script. Other server options need a server started by hand.

=item B<--client-cpu> LIST, B<--server-cpu> LIST

Pin the client (every size) and the server the script starts to the CPUs in LIST,
passed to them as C<--cpu LIST> (the programs pin themselves with
sched_setaffinity). LIST is CPU numbers and ascending ranges, comma-separated, as
C<taskset -c> takes them: C<0>, C<0-1>, C<0,2-3>. B<--server-cpu> needs
B<--start-server>; pin a server started by hand with its own C<--cpu>. The
placement is recorded in F<spectrum.json> and in the plot title.

On a machine of several CPUs, loopback latency depends on where the two ends run
(sharing one CPU or not, and which), and unpinned the scheduler may choose
differently from one size to the next; the script says so when neither option is
given. C<--client-cpu 0 --server-cpu 0> puts both ends on one CPU, as the sample
results are taken.

=item B<--config-file> FILE (also B<--config_file>)

Read client options from FILE in the format of the original script: the first
double-quoted string on a line that is not commented out holds the options, e.g.
C<"-c 1000">. A C<#> before the string comments it out. The string is split at white
space; no shell quoting applies. Unlike the original, no config file is read unless
this option is given.

=item B<--output-dir> DIR

Where the results go; created if missing. Default: the current directory.

=item B<--bin-dir> DIR

Where to find the programs. Default: the first of F<build/bin> and F<bin> under the
script's directory, the script's directory itself, then every directory in PATH, that
holds the programs needed (with B<--start-server>, client and server must be in the
same directory; with B<--compare>, C<sctp-perf-compare> too).

=item B<--plot>, B<--no-plot>

Draw F<spectrum.png> with gnuplot (default) or not. The gnuplot script is written
either way.

=item B<--keep-going>

Go on with the next size when a run fails, instead of stopping. The failed sizes are
listed at the end and the exit status is 1. A failure no size can escape still stops
the sweep: a client that rejects its options, a report of another format, a kernel
without SCTP, the death of the server the script started (B<--start-server>). An
interrupt of the script (Ctrl-C) ends the sweep whatever this option says; a client
interrupted by a signal sent to it alone is a failed size, so with B<--keep-going>
C<kill -INT> of the client skips the rest of its size.

When a client fails, the script shows its error and the end of its stderr, with the
client's advice given in the script's options (C<--protocol tcp> where the client
says C<-t tcp>), then advice of its own where it recognises the failure: on a kernel
without SCTP, B<--protocol tcp>; when the connection is refused and the script did
not start the server, B<--start-server>.

=item B<--compare> 'OPTIONS A' 'OPTIONS B'

Compare two client configurations, A and B, size by size, instead of sweeping one:
for every size, B<--repeat> rounds, each running A's client once and then B's (A B A
B ...), so that a drift of the machine meets both sides; then C<sctp-perf-compare>
judges each size (see L</COMPARING>). The two words are client options, each quoted
as one word (C<''> for the client's defaults); each is split as a shell splits words,
quotes and backslashes included, without expanding or running anything. They go to
the client after the options the script sets and those after C<-->, which both sides
share. They are checked as the options after C<--> are, except that a side may
choose its transport with C<-t> (C<--protocol> for the other). Sides of different
transports need B<--start-server>, or a C<-p PORT> of their own server in their
options.

=item B<--repeat> N

With B<--compare>: the runs of each side per size, N rounds of A then B (default 5,
at least 1). Below 5, sctp-perf-compare gives no verdict: each row of compare.csv says
"too few runs", since its bootstrap interval is then narrower than any the runs can
support at 95 %. The client's own C<--repeat> and C<--pause> are refused with
B<--compare>.

=item B<--> CLIENT-OPTIONS...

Everything after C<--> is passed to the client unchanged, after the options from the
config file. Options the script sets itself are refused there and in the config file
(short or long names): C<-s>, C<--format>, C<--json-file>, C<--rate>,
C<--throughput>, C<--duration>, C<--flows> and C<--cpu> always (give the last five to
the script itself, C<--cpu> as B<--client-cpu>); C<-t> for the stream client; C<-c> with B<--iterations> or B<--duration>; C<-H>
and C<-p> with B<--host>, B<--port> or B<--start-server>. The client's other load
options, such as C<--echo-every>, C<--threads> and C<--interval>, go here.

=item B<--help>, B<--manual>

Print the synopsis and options, or this whole manual, and exit.

=back

=head1 DESCRIPTION

For every payload power of two from B<--min-power> to B<--max-power> (or every size of
B<--sizes>, given as C<--payload-bytes N> instead of C<-s P>), the script runs
the client once (with B<--compare>, two configurations several times each: see
L</COMPARING>):

  SOCK_STREAM_clt -s P --json-file TMP -t PROTOCOL [-c N] \
                  [--rate R | --throughput] [--duration S] [--flows N] \
                  [-H HOST] [-p PORT] [--cpu LIST] CONFIG-FILE-OPTIONS CLIENT-OPTIONS

(C<SOCK_SEQPACK_clt> takes no C<-t>). Before the first of them, the script gives
all of these command lines to one client with C<--check-lines> (see L</OPTIONS>): a
client that refuses one stops the sweep before anything runs. The client prints its
ACE-format report on
standard output and writes its JSON report to the C<--json-file>; the script keeps
both. The next size starts as soon as the previous client has exited; there is no
pause between runs.

The script computes no statistics: every number in its output is copied from the
client's JSON report. The one derived column, C<outliers>, is the sum of the report's
C<histogram.below> and C<histogram.above> counts. It reads reports of
C<format_version> 2 only (that of sctp-perf's programs since percentile keys such as
C<p99_9_us>); a client that writes another format fails the run, and the sweep stops
there even with B<--keep-going>, since every size would fail the same way.

Without B<--rate> or B<--throughput> every run is a ping-pong test: one message in
flight per connection, the next sent when the reply to the last has come back. With
one of them the sweep runs under load, and its latency columns come from the report's
C<load.latency_corrected> (B<--rate>) or C<load.latency_uncorrected> (B<--throughput>)
instead of C<summary> and C<percentiles>; a report of another mode fails the run.

A run fails when the client exits with a non-zero status, is killed, or writes no
usable JSON report. The script names the size and shows the client's standard error
(and the message of the error report a failed client writes to its JSON file), then
stops, or with B<--keep-going> goes on with the next size. The script waits for each
client without a limit of its own; the client bounds every wait on its server by its
C<--io-timeout> (default 10 s), so a server that dies or goes silent mid-size fails
that size within that time, in every mode, instead of hanging the sweep. A client
interrupted by someone else's signal (exit status 130 or 143, its report marked
interrupted) fails its size too: its report covers part of the run only. If a
run exits with status 2 all the same (its client rejected options that its
check took) the sweep stops even with B<--keep-going>, since every size would
fail the same way. The data files and the plot are written for
the sizes that succeeded.

At the start the script says on standard error where the programs run (the
placement), and one progress line per size follows, with the payload size, the median
(p50) and the maximum round-trip time; under load also which latency that is
(corrected or uncorrected), the rate each flow achieved and the messages lost.

Between two sizes the script does the same small amount of work however many sizes
are done: it appends a line to F<spectrum.csv> and the ACE report to the
F<.spectrum> file, and keeps the client's JSON report in memory for
F<spectrum.json>, which it writes once, at the end.

Differences from the original ACE script: it sweeps 1 byte to 64 KiB for both
transports by default, does not sleep 5 s between runs, reads no config file unless
asked, keeps the case of paths and host names, parses the results and draws the plot.

=head1 COMPARING

  run_spectrum.pl --compare 'OPTIONS A' 'OPTIONS B' --repeat N ...

One configuration measured after another lets whatever changes on the machine in
the meantime (other work, the CPU's clock, the cache) fall on one side only. With
B<--compare> the script runs, for each size from B<--min-power> to B<--max-power>, N
rounds of one run of A followed by one run of B, each run a client started anew
(its own connection and primer), with no pause; the next size starts when the
previous one is compared. Every run writes its JSON report, kept as
F<compare/BYTES/a/run-K.json> or F<compare/BYTES/b/run-K.json> in the output
directory once it has read well.

Once a size's rounds are done, the script runs

  sctp-perf-compare --a compare/BYTES/a --b compare/BYTES/b --allow-different --format json

(found as the client is, see B<--bin-dir>) and copies its figures, for p50, p90,
p99, p99.9 and max: each side's median over its runs, the ratio B/A of the medians
with its 95 % bootstrap interval, the Mann-Whitney U test's p-value, and the verdict
(C<slower> or C<faster> only when the whole interval lies beyond the noise
threshold of 5 %, else C<no difference>). The script computes none of them. A and
B differ on purpose, so C<--allow-different> is always given: the differences
sctp-perf-compare names (such as C<A is tcp, B is sctp>) are printed under the
table, as are its warnings. sctp-perf-compare's man page states its methods.

With B<--start-server> each side gets the server it needs: the script starts one
for A and one for B when they differ in transport or Nagle (C<-n> goes to the
server of the side that has it), else one for both. Both run from the start of the
comparison to its end, each on a free port; B<--server-cpu> pins both.

A run that fails is reported as a failed size of a sweep is, naming the size, the
round and the side, and ends its size, which is then not compared; the comparison
stops there, or with B<--keep-going> goes on with the next size. A failure of
sctp-perf-compare fails its size alike. An interrupt is handled as in a sweep (see
L</SIGNALS>): the running client is given the signal once, every program the
script started is stopped, and F<compare.json> is written with the sizes compared
and the run cut short (C<compare.interrupted_run>), whose report is not kept.

The files, in the output directory (those of an earlier comparison there, the
F<compare/> directory included, are removed when a comparison starts; the files of a
sweep are left alone):

=over 4

=item F<compare.csv>

A header, then for every size compared five rows, one per percentile, appended as
each size is compared: C<payload_bytes>, C<percentile> (C<p50>, C<p90>, C<p99>,
C<p99.9>, C<max>), C<a_median_us>, C<b_median_us>, C<ratio> (B/A), C<ratio_low> and
C<ratio_high> (its interval), C<p_value>, C<verdict> (C<slower>, C<faster> or
C<no difference>), C<a_runs> and C<b_runs> (the runs behind each median).

=item F<compare.json>

C<format_version> 1. C<compare>: the settings: C<a> and C<b> (C<options_text> as
given, C<options> as split, C<transport>, C<server_host>, C<server_port>),
C<repeat>, C<order>, the sweep's settings as in F<spectrum.json>, C<client_program>
and C<compare_program>, C<started_at>, C<finished_at>, C<interrupted_by> and
C<interrupted_run> (as C<interrupted_size> of F<spectrum.json>, with C<side> and
C<round>). C<columns> and C<rows>: the CSV's content. C<sizes>: for every size
compared, its C<a_dir> and C<b_dir>, its C<runs> in the order they ran (C<round>,
C<side>, C<command>, C<report_file>), and C<comparison>, sctp-perf-compare's whole
JSON output. C<failed>: every run or comparison that failed, with its command and
the reason.

=item F<compare.gp>, F<compare.png>

The ratio B/A against the payload size (log2 x axis), for p50 and p99, each with its
interval as error bars, a dashed line at 1 (no difference) and dotted lines at the
noise threshold. As with F<spectrum.gp>, B<--no-plot> writes the script only, and
without gnuplot the script says so and writes the rest.

=back

The comparison is also printed as a table on standard output, at the end (after an
interrupt too, for the sizes compared); the progress lines, one per round and one
per size, go to standard error.

=head1 OUTPUT

All files go to B<--output-dir>. The four F<spectrum.*> files of an earlier sweep in
the same directory are removed when a sweep starts, so the directory never mixes two
sweeps.

=over 4

=item F<YYYYMMDDTHHMMSS.spectrum>

The ACE-format report of every successful run, appended as the runs finish, as the
original script did. The name is the local start time, e.g. F<20261122T054000.spectrum>.

=item F<spectrum.csv>

A header row, written when the sweep starts, then one row per successful size, in
increasing size, each appended as its size ends, so the file holds every size
finished even if the script is killed. Columns:
C<payload_bytes>, C<iterations> (timed iterations asked of the client), C<min_us>,
C<mean_us>, C<p50_us>, C<p90_us>, C<p99_us>, C<p99_9_us>, C<max_us>, C<stddev_us>
(all round-trip times in microseconds), and C<outliers>: the number of samples outside
the histogram's range (below its minimum plus at or above its maximum), which the
client counts but does not place in a bin. A statistic the client could not compute
(e.g. the standard deviation of a single sample) is left empty.

A load sweep (B<--rate> or B<--throughput>) has the same columns, then seven more, so
a reader of the ping-pong columns reads it unchanged. There C<iterations> is the number
of latency samples, the latency columns hold the corrected (rate) or uncorrected
(throughput) latency, and C<outliers> is empty, since a load run has no fixed-bin
histogram. The added columns, from the report's C<load> object: C<mode> (C<rate> or
C<throughput>), C<flows>, C<rate_asked_per_s> and C<rate_achieved_per_s> (messages per
second per flow; the asked rate is empty in throughput mode), C<messages_lost>,
C<payload_mb_per_s_sent>, and C<latency_kind> (C<corrected> or C<uncorrected>).

=item F<spectrum.json>

C<format_version> 2. C<sweep>: the sweep's configuration (service, transport, host,
port, C<client_cpu> and C<server_cpu> (the CPU lists given, null where not given),
powers, iterations, C<mode> (C<ping-pong>, C<rate> or C<throughput>), C<rate_per_s>,
C<duration_s> and C<flows> (null where not given), config-file and client options,
client program, C<started_at> and C<finished_at>, C<interrupted_by>: the signal
that ended the sweep early, such as C<SIGINT>, or null, and C<interrupted_size>: null,
or the size that was running then, which is not among the rows (see L</SIGNALS>):
C<payload_power_of_2>, C<payload_bytes>, C<command>, C<signal_passed_on> (the signal
the script passed on to its client, null if the client had ended),
C<client_ended> (such as C<exited with status 130>) and C<client_report_interrupted_by>
(the signal named by the client's own report, null if it wrote none marked
interrupted)); C<columns> and C<rows>: the CSV's content, with null for an empty field; C<runs>: for every successful size, its
client command line and the client's full JSON report; C<failed>: for every failed
size, its command line and the reason.

The file is written once, when the sweep ends: after the last size, after a failed
size that stops it, or after an interrupt or error (once the programs are stopped),
so it holds every run that finished in every case but a C<kill -9> of the script,
which leaves F<spectrum.csv> and the F<.spectrum> file. (Format 1 rewrote the file
after every size, which took longer than the runs at 10,000 iterations.) Numbers are
written with the client's digits (a double prints the floats of a format 2 report as
the client wrote them; the tiniest, below 0.0001, in exponent form).

=item F<spectrum.gp>

The gnuplot script that draws the plot from F<spectrum.csv>. Edit it to restyle the
plot and redraw with C<gnuplot spectrum.gp> in the output directory.

=item F<spectrum.png>

Round-trip latency against payload size, with lines for min, p50, p99 and max. Both
axes are logarithmic: the x axis in bytes on a log2 scale (a tic at each size swept,
powers of two or not), the y axis in powers of ten
(microseconds), so that the minimum and a maximum hundreds of times larger both stay
readable. The title gives the transport, service, server host and iterations per size;
under load, the mode and rate, the flows and the length of each run; and the
placement: C<client CPU 0, server CPU 0>, C<unpinned>, or which end is pinned where.
Under load the y axis says whether the latency is corrected (from each message's due
time) or uncorrected.
If gnuplot is not installed, the script says so on standard error and writes every
other file; the exit status is unaffected.

=back

=head1 EXAMPLES

A quick TCP sweep against a server the script starts itself, both ends on CPU 0:

  run_spectrum.pl --protocol tcp --start-server --iterations 10000 \
                  --client-cpu 0 --server-cpu 0 --output-dir results/tcp

SCTP, sizes 4 bytes to 32 KiB, against a server already running on another host, with
client options from a config file and one more given directly:

  run_spectrum.pl --host 192.0.2.10 --min-power 2 --max-power 15 \
                  --config-file run_spectrum.config -- -n

Under load: every size from 16 bytes to 64 KiB for 3 s, 8 TCP connections each paced
at 2000 messages per second, then the same as fast as TCP accepts, echoing every 10th:

  run_spectrum.pl --protocol tcp --start-server --rate 2000 --flows 8 --duration 3 \
                  --output-dir results/rate
  run_spectrum.pl --protocol tcp --start-server --throughput --duration 3 \
                  --output-dir results/throughput -- --echo-every 10

The sizes an application sends, whatever they are, with a full echo (each reply the
request sent back, as RTI Perftest's echo and TransportPerf's C<-reflectMsgs> are):

  run_spectrum.pl --protocol tcp --start-server --sizes 32,64,100,1000,63000 \
                  --iterations 10000 -- --echo

TCP against SCTP, 16 bytes to 16 KiB, five runs of each side per size, interleaved,
with a server of each transport started by the script, both ends on CPU 0:

  run_spectrum.pl --compare '-t tcp' '-t sctp' --repeat 5 --start-server \
                  --min-power 4 --max-power 14 --iterations 10000 \
                  --client-cpu 0 --server-cpu 0 --output-dir results/tcp-vs-sctp

Nagle off (the default, A) against on (B) over TCP:

  run_spectrum.pl --protocol tcp --start-server --compare '' '-n' \
                  --min-power 4 --max-power 10 --iterations 2000

The seqpack programs on a multi-homed pair, going on past failures:

  run_spectrum.pl --service seqpack --host 192.0.2.10,198.51.100.10 --keep-going

=head1 EXIT STATUS

=over 4

=item B<0>

Every size ran and the files are written (also when gnuplot is not installed).

=item B<1>

A runtime failure: a run failed (with or without B<--keep-going>; also a client
report of another format than 2), a comparison by sctp-perf-compare failed, a
program was not found, the server did not start, or an output file could not be
written.

=item B<2>

A usage error: a bad option or value, an unreadable config file, or client options
the client itself rejected (asked with C<--check-lines> before any run; its sentences
are quoted).

=back

When interrupted by SIGINT, SIGTERM or SIGHUP, the script stops the client and any
server it started, writes F<spectrum.json> with the runs finished, then ends by the
same signal (see L</SIGNALS>).

=head1 SIGNALS

On SIGINT (Ctrl-C), SIGTERM or SIGHUP the script stops the sweep:

=over 4

=item 1.

It passes the signal on to the client of the size that is running, once (SIGHUP as
SIGTERM: the client stops cleanly on SIGINT and SIGTERM only). The client stops
measuring, writes its report marked interrupted and exits with status 130 (SIGINT)
or 143 (SIGTERM). The script waits for it at most 5 s, then kills it with SIGKILL.
That size is partial: it is not a row of the CSV, nor a run of F<spectrum.json>,
and the script names it on standard error and in C<sweep.interrupted_size>.

=item 2.

Then it stops the server it started (SIGTERM, SIGKILL after 5 s), only now, since a
client under load reads the server's account of the run as it stops.

=item 3.

It writes F<spectrum.json> with every size finished (F<spectrum.csv> and the
F<.spectrum> file hold them already), says what it did, and ends by the signal it
got, so that a shell or a calling script sees the interrupt.

=back

A second Ctrl-C while it does so is ignored: the clean-up is short and bounded, and
cutting it short would lose the report of the runs done.

The client and the server run in process groups of their own, so a terminal's
Ctrl-C, which goes to the whole foreground process group, reaches the script alone.
Were the client to get the Ctrl-C too, the script's signal would be a second one, and
a second signal ends the client at once, without its report; and a server hit by the
same Ctrl-C would no longer answer the client that stops. A signal sent to the
script's process group (C<kill -INT -PGID>) is therefore handled as one sent to the
script. Signals the script cannot catch do not leave its programs running: each asks
the kernel (Linux's C<PR_SET_PDEATHSIG>) to kill it with SIGKILL when the script
dies, so after a C<kill -9> of the script, or a Ctrl-\, the client and server end
too (the files then hold the sizes finished, but F<spectrum.json> is not written).
Ctrl-Z stops the script alone; the running client completes its size meanwhile, and
the next size starts when the script is continued.

=cut
