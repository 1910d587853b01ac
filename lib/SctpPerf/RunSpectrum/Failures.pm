# SPDX-License-Identifier: Apache-2.0
# What a sweep or a comparison says and does when a client run fails or is
# interrupted: the client's words in the script's terms, advice of the script's
# own, whether the rest can still run, and what is kept of a run cut short.
package SctpPerf::RunSpectrum::Failures;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);

use SctpPerf::RunSpectrum::Children qw(wait_child signal_child stop_all_children is_child describe_status read_text
                                       tail_lines);
use SctpPerf::RunSpectrum::Commands qw(program_names);
use SctpPerf::RunSpectrum::Errors qw(note);
use SctpPerf::RunSpectrum::Reports qw(client_error_message client_interrupted_by);

our @EXPORT_OK = qw(in_script_terms client_failure keep_after_error);

# How long a failed client's servers are given to be found ended (client_failure).
use constant SERVER_EXIT_GRACE_S => 1;

# The client's advice names the client's options ("measure TCP instead with
# '-t tcp'"), but whoever reads it ran run_spectrum.pl, which sets those options
# itself from its own: the advice is given in the script's terms.
sub in_script_terms($text) {
    # SOCK_SEQPACK_clt sends TCP to the other pair of programs.
    $text =~ s{\bSOCK_STREAM_clt/SOCK_STREAM_srv -t (tcp|sctp)\b}{--service stream --protocol $1}g;
    $text =~ s{(?<![\w-])(?:-t|--test[-_]transport[-_]protocol) (tcp|sctp)\b}{--protocol $1}g;
    return $text;
}

# What to do about a client failure the script recognises in $text (the client's
# error and stderr), in the script's options: { text, every_size } or nothing.
# `every_size` marks a failure no later size can escape, so the sweep stops even
# with --keep-going.
sub failure_advice($s, $text) {
    if ($text =~ /no SCTP support/) {
        my $tcp = $s->{service} eq 'seqpack' ? '--service stream --protocol tcp' : '--protocol tcp';
        return { every_size => 1,
                 text => "this kernel has no SCTP: load it with 'modprobe sctp', or sweep TCP with $tcp" };
    }
    # A server the script started and lost is reported with its own log instead.
    if (!$s->{start_server} && $text =~ /connection refused/i) {
        my (undef, $server) = program_names($s->{service});
        return { every_size => 0,
                 text => "no server answered: start $server where the client looks for it, "
                       . 'or add --start-server to have run_spectrum.pl start one on loopback' };
    }
    return;
}

# A client run that failed ($error: why its report is no row, or its exit status):
# says so with the client's error and stderr, what became of a server the script
# started, and advice of the script's own. $run: client_name, label, status, json,
# err, and later_sizes (whether sizes are left to run). Returns { reason, stop }:
# stop is the exit status of a sweep that cannot go on whatever --keep-going says,
# or undef.
sub client_failure($s, $state, $error, $run) {
    my ($client_name, $status) = @{$run}{qw(client_name status)};
    my $wrong_format = ref $error eq 'SctpPerf::RunSpectrum::WrongFormat';
    chomp(my $reason = "$client_name " . ($status == 0 ? 'exited with status 0 but ' : '')
                       . ($wrong_format ? $error->{message} : $error));
    if ($status != 0 && defined(my $said = client_error_message($run->{json}))) {
        $reason .= ': ' . in_script_terms($said);
    } elsif ($status != 0 && defined(my $by = client_interrupted_by($run->{json}))) {
        $reason .= ": $by from outside the sweep cut its run short; its partial report is not a row";
    }
    my $stderr = read_text($run->{err});
    my $shown = in_script_terms($stderr);
    my $message = "$run->{label} failed: $reason; its stderr"
                . ($shown eq $stderr ? '' : ", its advice in run_spectrum.pl's options")
                . ":\n" . tail_lines($shown);
    my $server_gone;
    for my $server (@{ $state->{servers} }) {
        # A server that died closed its sockets before it became a child to
        # reap, so its client can fail a moment before the server can be
        # found gone; on a busy machine that moment was long enough for a
        # look without waiting to miss it. Waiting up to SERVER_EXIT_GRACE_S
        # costs a failure beside a live server that much.
        my $gone = wait_child($server->{pid}, SERVER_EXIT_GRACE_S) // next;
        $server_gone = "$server->{name}, which the sweep started, " . describe_status($gone);
        $message .= "$server_gone; its log:\n" . tail_lines(read_text($server->{log}));
        $server->{gone} = 1;
    }
    @{ $state->{servers} } = grep { !$_->{gone} } @{ $state->{servers} };
    note($message);
    my $advice = failure_advice($s, "$reason\n$stderr");
    note($advice->{text}) if $advice && !$state->{advised}{ $advice->{text} }++;
    my %failure = (reason => $reason);
    if ($status != -1 && ($status & 127) == 0 && ($status >> 8) == 2) {
        note("$client_name rejected its options; every size would fail the same way, so the sweep stops");
        $failure{stop} = 2;
    } elsif ($wrong_format || ($advice && $advice->{every_size})) {
        note("every size would fail the same way, so the sweep stops");
        $failure{stop} = 1;
    } elsif ($server_gone && $run->{later_sizes}) {
        # Each later size would only fail to connect, each with a message that no
        # longer says why; the sweep stops even with --keep-going.
        note("$server_gone: no later size can run, so the sweep stops");
        $failure{stop} = 1;
    }
    return \%failure;
}

# The signal passed on to a client for the one the script got. The client stops
# its measurement and reports it on SIGINT or SIGTERM; SIGHUP would end it at once.
my %PASSED_ON = (INT => 'INT', TERM => 'TERM', HUP => 'TERM');

# An interrupt came while $current (from sweep_sizes) ran: passes the script's
# signal on to its client, once, so that the client ends as it does when a user
# stops it (its report written, marked interrupted, exit 128 + the signal), and
# waits for it within the grace, then SIGKILL. Its partial report is not a row of
# the table. Says what became of the size; returns that for spectrum.json.
sub stop_interrupted_client($current, $signal, $client_name) {
    my %size = (payload_power_of_2 => $current->{payload_power_of_2}, payload_bytes => $current->{payload_bytes},
                command => $current->{command}, signal_passed_on => undef, client_ended => undef,
                client_report_interrupted_by => undef);
    my $pid = $current->{pid};
    # The client may have ended as the interrupt came: given the same signal by
    # whoever sent it (a kill naming both), or waited for just before. Then there is
    # nothing to pass on; a wait status lost to the interrupt is left unknown.
    my $status = !defined $pid             ? undef
               : is_child($pid)            ? wait_child($pid, 0)
               :                             $current->{status} // -1;
    my $said;
    if (!defined $pid) {
        $said = "$client_name had not started";
    } elsif (!defined $status) {
        my $passed = $PASSED_ON{$signal};
        $size{signal_passed_on} = "SIG$passed";
        $size{client_ended} = describe_status(signal_child($pid, $passed));
        $said = "$client_name was given SIG$passed once and $size{client_ended}";
    } else {
        $size{client_ended} = describe_status($status) if $status != -1;
        $said = "$client_name had ended" . ($status != -1 ? ": it $size{client_ended}" : '');
    }
    if (defined $pid) {
        $size{client_report_interrupted_by} = client_interrupted_by($current->{json});
        $said .= defined $size{client_report_interrupted_by} ? ', its report marked interrupted' : ', with no report';
    }
    # A compared run says what its loss means for its size (fate, with %s for 'partial and ').
    my $partial = defined $size{signal_passed_on} ? 'partial and ' : '';
    my $fate = defined $current->{fate} ? sprintf($current->{fate}, $partial) : "that size is ${partial}not in the table";
    $size{$_} = $current->{$_} for grep { exists $current->{$_} } qw(side round);
    note("interrupted by SIG$signal during $current->{label}: $said; $fate");
    return \%size;
}

# After an error or an interrupt ends a sweep or a comparison: keeps what it had
# done, and dies with the error again. An interrupt is recorded in the settings
# `doc` (interrupted_by, and under `cut_short` what became of the client run it
# cut short, state->{current}); every child is stopped, the JSON file written
# (write_json, to json_path) and `also` called. A second Ctrl-C must not cut that
# short.
sub keep_after_error(%a) {
    my $error = $a{error};
    local @SIG{qw(INT TERM HUP)} = ('IGNORE') x 3;
    if (ref $error eq 'SctpPerf::RunSpectrum::Interrupted') {
        $a{doc}{interrupted_by} = "SIG$error->{signal}";
        $a{doc}{ $a{cut_short} } = stop_interrupted_client($a{state}{current}, $error->{signal}, $a{client_name})
            if $a{state}{current};
    }
    stop_all_children();
    eval { $a{write_json}->(); 1 } or note(ref $@ ? $@->{message} : "cannot write $a{json_path}: $@");
    $a{also}->() if $a{also};
    die $error;
}
1;
