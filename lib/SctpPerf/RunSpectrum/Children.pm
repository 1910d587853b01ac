# SPDX-License-Identifier: Apache-2.0
# The programs run_spectrum.pl starts: every child is recorded here so an error or
# an interrupt can stop it.
package SctpPerf::RunSpectrum::Children;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Errno ();
use Exporter qw(import);
use File::Basename qw(basename);
use File::Spec;
use POSIX qw(:sys_wait_h);
use Time::HiRes ();

use SctpPerf::RunSpectrum::Errors qw(runtime_error note);

our @EXPORT_OK = qw(spawn wait_child stop_child signal_child stop_all_children is_child stop_signal_set
                    describe_status read_text tail_lines CHILD_POLL_S);

use constant {
    CHILD_STOP_GRACE_S => 5,        # between SIGTERM and SIGKILL
    # Between looks at a child waited for with a bound (the check, the server's
    # start and stop, gnuplot): each look is a waitpid, and no client measures
    # meanwhile (a client is waited for without a bound), so the wait after the
    # child has ended, half of this on average, is all it costs the sweep.
    CHILD_POLL_S       => 0.001,
    STDERR_TAIL_LINES  => 40,       # of a failed program's output shown
};

# Each child runs in a process group of its own. A terminal's Ctrl-C (SIGINT to
# the foreground process group) then reaches the script alone, and the script
# decides what each child gets: the client measuring a size gets the script's
# signal passed on, once (stop_interrupted_client); it stops measuring, writes its
# report marked interrupted and exits 128 + the signal. Were the client in the
# script's group, it would get the Ctrl-C itself and then the script's signal as
# a second one, which ends it at once, without its report. The server it started
# gets SIGTERM only after the client has ended: a client under load sends each
# flow's end of test and reads the server's account as it stops, which a server
# hit by the same Ctrl-C would no longer answer.
#
# What that changes: a signal sent to the script's process group no longer
# reaches the children. The script catches SIGINT, SIGTERM and SIGHUP and stops
# them itself; for the signals it cannot catch (kill -9, also a Ctrl-\), each
# child asks the kernel for SIGKILL when the script dies (Linux's
# PR_SET_PDEATHSIG), so nothing it started outlives it, as nothing did when they
# shared its group. A Ctrl-Z stops the script alone: the running client finishes
# its size, and the next starts once the script is continued.

my %children;             # pid => { name, number }: number counts the children started
my $children_started = 0;

# The number of the prctl system call, or undef where the system has none that
# Perl can call (the sweep then works as well, but a kill -9 of the script leaves
# its children running). Looked up once, at the first child, in the kernel's
# own list (asm/unistd.ph), which is syscall.ph without its SYS_ copy of every
# name: h2ph's files compile one eval a definition, and syscall.ph's took
# 12 ms of CPU, as much as the script's own modules.
my $sys_prctl;
sub sys_prctl() {
    # h2ph's files define their constants in the package that requires them.
    $sys_prctl //= [ eval { package main; require 'asm/unistd.ph'; main::__NR_prctl() }
                     // eval { package main; require 'syscall.ph'; main::SYS_prctl() } ];
    return $sys_prctl->[0];
}
use constant PR_SET_PDEATHSIG => 1;

# The signals the script handles, as a set for sigprocmask.
sub stop_signal_set() { return POSIX::SigSet->new(POSIX::SIGINT(), POSIX::SIGTERM(), POSIX::SIGHUP()) }

# Starts @$cmd as a child in a process group of its own and returns its pid. %io:
# stdout (a file, required), stderr (a file; default: with stdout), stdin (a file
# to read; default: /dev/null), dir (to run in), pid_to (a scalar ref that gets
# the pid before an interrupt can strike).
sub spawn($cmd, %io) {
    my $prctl = sys_prctl();
    my $parent = $$;
    # Blocked from before the fork until the child has its own group and is
    # recorded: a Ctrl-C meanwhile is not lost to the script and cannot leave
    # a child it does not know of.
    my $old_mask = POSIX::SigSet->new;
    POSIX::sigprocmask(POSIX::SIG_BLOCK(), stop_signal_set(), $old_mask)
        or die runtime_error("cannot block signals to run $cmd->[0]: $!");
    my $pid = fork;
    if (!defined $pid) {
        my $error = "$!";
        POSIX::sigprocmask(POSIX::SIG_SETMASK(), $old_mask);
        die runtime_error("cannot fork to run $cmd->[0]: $error");
    }
    if ($pid == 0) {
        POSIX::setpgid(0, 0);
        syscall($prctl, PR_SET_PDEATHSIG, POSIX::SIGKILL(), 0, 0, 0) if defined $prctl;
        POSIX::_exit(127) if getppid() != $parent;    # the script died before the prctl
        # Ignoring a signal drops it if pending: a Ctrl-C that came while the child
        # was still in the script's group is the script's, not the child's.
        $SIG{$_} = 'IGNORE' for qw(INT TERM HUP);
        $SIG{$_} = 'DEFAULT' for qw(INT TERM HUP);
        POSIX::sigprocmask(POSIX::SIG_SETMASK(), $old_mask);
        chdir $io{dir} or POSIX::_exit(127) if defined $io{dir};
        open STDIN, '<', $io{stdin} // File::Spec->devnull or POSIX::_exit(127);
        open STDOUT, '>', $io{stdout} or POSIX::_exit(127);
        if   (defined $io{stderr}) { open STDERR, '>', $io{stderr} or POSIX::_exit(127) }
        else                       { open STDERR, '>&', \*STDOUT or POSIX::_exit(127) }
        exec { $cmd->[0] } @$cmd or do {
            print STDERR "cannot run $cmd->[0]: $!\n";
            POSIX::_exit(127);
        };
    }
    POSIX::setpgid($pid, $pid);    # here too, so the group exists whichever of the two runs first
    $children{$pid} = { name => basename($cmd->[0]), number => ++$children_started };
    ${ $io{pid_to} } = $pid if $io{pid_to};    # known to the caller before an interrupt can strike
    POSIX::sigprocmask(POSIX::SIG_SETMASK(), $old_mask);
    return $pid;
}

# Waits for a child; with $timeout_s, gives up after that many seconds and returns
# undef. Returns the wait status.
sub wait_child($pid, $timeout_s = undef) {
    if (!defined $timeout_s) {
        my $got;
        do { $got = waitpid $pid, 0 } while $got == -1 && $!{EINTR};
        delete $children{$pid};
        return $got == $pid ? $? : -1;
    }
    my $deadline = Time::HiRes::time() + $timeout_s;
    while (1) {
        my $got = waitpid $pid, WNOHANG;
        if ($got == $pid || $got == -1) { delete $children{$pid}; return $got == $pid ? $? : -1 }
        return if Time::HiRes::time() >= $deadline;
        Time::HiRes::sleep(CHILD_POLL_S);
    }
}

# SIGTERM, then SIGKILL if the child has not gone after a grace period. Returns the
# wait status, or undef for a child already waited for.
sub stop_child($pid) {
    return unless exists $children{$pid};
    # No signal for a child that has ended, nor for one already reaped: an
    # interrupt can come between a wait and the bookkeeping after it.
    my $ended = wait_child($pid, 0);
    return $ended if defined $ended;
    return signal_child($pid, 'TERM');
}

# Sends $signal to a running child, waits for it for the grace period, then kills it.
# Returns the wait status.
sub signal_child($pid, $signal) {
    my $name = $children{$pid}{name};
    kill $signal, $pid;
    my $status = wait_child($pid, CHILD_STOP_GRACE_S);
    return $status if defined $status;
    note("$name (pid $pid) ignored SIG$signal for ${\ CHILD_STOP_GRACE_S} s; killing it");
    kill 'KILL', $pid;
    return wait_child($pid);
}

# Whether $pid is a child started here and not yet waited for.
sub is_child($pid) { return exists $children{$pid} ? 1 : 0 }

# The last started first: a client before the server it talks to.
sub stop_all_children() {
    stop_child($_) for sort { $children{$b}{number} <=> $children{$a}{number} } keys %children;
    return;
}

sub describe_status($status) {
    return 'could not be waited for' if $status == -1;
    return 'was killed by signal ' . ($status & 127) if $status & 127;
    return 'exited with status ' . ($status >> 8);
}

sub read_text($path) {
    open my $fh, '<', $path or return '';
    local $/;
    my $text = <$fh> // '';
    close $fh;
    return $text;
}

sub tail_lines($text, $count = STDERR_TAIL_LINES) {
    my @lines = split /\n/, $text;
    my $cut = @lines > $count ? "  [... " . (@lines - $count) . " earlier lines left out]\n" : '';
    @lines = @lines[ -$count .. -1 ] if @lines > $count;
    return @lines ? $cut . join('', map { "  | $_\n" } @lines) : "  (nothing)\n";
}
1;
