#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --at over TCP on loopback, in rate mode and in ping-pong: a command runs at
# its instant of the measured run, with its output in its file; a failing
# command is reported with its exit status; a hanging one is killed, with the
# children it started, at --at-timeout; one the run never reaches is
# reported as not run. None of them stops or slows the run: every message
# is still sent, received by the server and replied to. With --at the report
# also measures what the first command cost (TCP has one path: the gap and
# the replies slower than before it).
source "$(dirname "$0")/lib.sh"

clt=("$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1)
# How late a command may start after its instant, or be killed after its
# --at-timeout, on this machine as loaded now.
calibrate_shell_start
start_bound_s=$SHELL_START_BOUND_S

start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1

# Rate mode, 3 s: at 1 s a command that writes and succeeds, at 1.5 s one
# that fails, at 2 s one that hangs with a child of its own.
mkdir "$WORK_DIR/at-out"
status=0
(cd "$WORK_DIR" && timeout 60 "${clt[@]}" -p "$SERVER_PORT" -s 6 --rate 1000 --duration 3 \
    --at '1:echo hello from the fault; echo to stderr >&2' \
    --at '1.5:exit 4' \
    --at "2:sleep 60 & echo \$! > $WORK_DIR/child.pid; wait" \
    --at-timeout 0.5 --at-output at-out --format json >rate.json 2>rate.err) || status=$?
[ "$status" -eq 0 ] || { cat "$WORK_DIR/rate.err" >&2; fail "rate run with --at exited $status"; }
check_json "$WORK_DIR/rate.json" '
    my @f = @{$d->{faults}};
    die "3 faults expected, got " . @f . "\n" unless @f == 3;
    same("fault 1 started", $f[0]{started} ? 1 : 0, 1);
    same("fault 1 exit status", $f[0]{exit_status}, 0);
    same("fault 1 output file", $f[0]{output_file}, "at-out/SOCK_STREAM_clt-at-1.log");
    same("fault 2 exit status", $f[1]{exit_status}, 4);
    same("fault 2 timed out", $f[1]{timed_out} ? 1 : 0, 0);
    same("fault 3 timed out", $f[2]{timed_out} ? 1 : 0, 1);
    same("fault 3 signal", $f[2]{signal}, 9);
    die "fault 3 ran $f[2]{duration_s} s, not 0.5..0.5 + '"$start_bound_s"' s\n"
        unless $f[2]{duration_s} >= 0.5 && $f[2]{duration_s} < 0.5 + '"$start_bound_s"';
    for my $i (0 .. 2) {
        my $late = $f[$i]{started_s} - $f[$i]{at_s};
        die "fault " . ($i + 1) . " started $late s after its instant\n"
            unless $late >= 0 && $late < '"$start_bound_s"';
        die "fault " . ($i + 1) . " has no UTC start\n" unless $f[$i]{started_utc} =~ /Z$/;
    }
    # The run went on, whole, through all three.
    same("sent = received by the server", $l->{messages_sent}, $l->{messages_received_by_server});
    same("sent = replied", $l->{messages_sent}, $l->{messages_replied});
    same("lost", $l->{messages_lost}, 0);
    die "only $l->{messages_sent} messages sent in 3 s at 1000/s\n" if $l->{messages_sent} < 2900;
    # The failure, measured from the first command: TCP has one path.
    my $x = $d->{failure};
    same("failure measured from", $x->{fault_source}, "--at 1");
    same("faulted path over TCP", $x->{faulted_path} // "null", "null");
    die "no longest gap\n" unless defined $x->{longest_gap_ms} && $x->{longest_gap_ms} > 0;
    die "no unfaulted p99.9\n" unless defined $x->{unfaulted_p99_9_us};
    die "a TCP report has paths\n" if exists $d->{paths};
' || {
    # The whole account of each command, so that a failure here says what
    # the client saw (a status not collected, a kill at the timeout, a start
    # that came late) and not only the first field that differed.
    perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!";
        print JSON::PP->new->canonical->encode(JSON::PP->new->decode(<$f>)->{faults}), "\n"' \
        "$WORK_DIR/rate.json" >&2
    fail "rate run: the faults or the run are not as they should be"
}
[ "$(cat "$WORK_DIR/at-out/SOCK_STREAM_clt-at-1.log")" = $'hello from the fault\nto stderr' ] ||
    fail "fault 1's output file holds: $(cat "$WORK_DIR/at-out/SOCK_STREAM_clt-at-1.log")"
child=$(cat "$WORK_DIR/child.pid")
for _ in $(seq 50); do
    kill -0 "$child" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$child" 2>/dev/null && ! grep -q '^[^ ]* ([^)]*) Z' "/proc/$child/stat"; then
    kill -KILL "$child"
    fail "the hanging command's child (pid $child) outlived --at-timeout"
fi
pass "rate mode: each --at at its instant, its status, output and bound; the run whole"

# Ping-pong, counted: a command early in it, and one it never reaches. The
# count makes the run outlast the first command's instant by twice the
# calibrated bound at the round trip timed here now: on a loaded machine a
# run of 3000 ended before the command's thread (621 ms late) woke.
run_capture 0 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 1000 --format json
echo "$OUT" >"$WORK_DIR/round-trip.json"
# At most 20 s of round trips, so that the second command's 100 s stays
# out of reach.
count=$(perl -e 'my $n = int(2 * (0.01 + $ARGV[0]) * 1e6 / $ARGV[1]) + 1;
                 my $most = int(20e6 / $ARGV[1]);
                 print $n < 3000 ? 3000 : $n > $most ? $most : $n' -- \
    "$start_bound_s" "$(json_field "$WORK_DIR/round-trip.json" summary.mean_us)")
echo "ping-pong of $count round trips"
run_capture 0 bash -c "cd '$WORK_DIR' && exec $(printf '%q ' "${clt[@]}") -p $SERVER_PORT -s 6 \
    -c $count --at '0.01:true' --at '100:echo never'"
grep -q "^faults (--at; times from the start of the measurement):$" <<<"$OUT" ||
    fail "ping-pong text report has no faults block: $OUT"
grep -q "^	1: at 0.010 s: started .*exit status 0; output SOCK_STREAM_clt-at-1.log: true$" <<<"$OUT" ||
    fail "ping-pong: the first command's line is not there: $(grep -A3 '^faults' <<<"$OUT")"
grep -q "^	2: at 100.000 s: not started: not reached: the measured run ended first; " <<<"$OUT" ||
    fail "ping-pong: the command never reached is not reported as such"
[ ! -e "$WORK_DIR/SOCK_STREAM_clt-at-2.log" ] || fail "the command never reached left an output file"
grep -q "^iterations: *$count\|^	iterations: $count measured" <<<"$OUT" ||
    fail "ping-pong did not measure $count"
pass "ping-pong: a command early in the run, and one never reached"
