#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Ctrl-C gives what was measured: the first SIGINT (or SIGTERM) while a
# client measures stops it, and the client writes the whole report of what
# it measured, marked interrupted, then exits 130 (143 for SIGTERM). A
# second signal ends it at once. Before, every client died at the first
# signal and printed nothing.
source "$(dirname "$0")/lib.sh"

start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1

# The line the server logs when a client's test header comes: waiting for
# one more of them than before a client started waits until that client is
# past its start-up and in its test. The time to that point is the
# machine's, and on a busy one (a sanitizer build beside a VM) it is not a
# constant, so each signal is timed from there.
test_begun=' Test '

# interrupt SIGNAL SECONDS CLIENT_ARGS...: runs the client, sends SIGNAL
# SECONDS after its test began, and waits (bounded) for it. Sets STATUS,
# $WORK_DIR/int.out and $WORK_DIR/int.err.
interrupt() {
    local signal=$1 after_s=$2 begun
    shift 2
    begun=$(log_count "$test_begun")
    timeout 60 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 "$@" \
        >"$WORK_DIR/int.out" 2>"$WORK_DIR/int.err" &
    local client=$!
    wait_for_log "$test_begun" 30 "$begun"
    sleep "$after_s"
    # Twice at once, as timeout(1) or a script passing on a Ctrl-C does: the
    # client must count it once. Sent straight to the client, both in one
    # kill: timeout(1) sends its child the signal and then its process group,
    # and on a busy machine those two came more than the client's window
    # (200 ms) apart, which is a second Ctrl-C, ending the client at once
    # with no report.
    local pid
    pid=$(pgrep -P "$client" -x SOCK_STREAM_clt) || fail "no client under timeout (pid $client)"
    kill "-$signal" "$pid" "$pid"
    STATUS=0
    wait "$client" || STATUS=$?
}

expect_status() {
    [ "$STATUS" -eq "$2" ] || {
        head -20 "$WORK_DIR/int.out" >&2
        cat "$WORK_DIR/int.err" >&2
        fail "$1: exited $STATUS, expected $2"
    }
}

# Ping-pong, text: the report opens with the mark and keeps ACE's block.
interrupt INT 2 -c 100000000
expect_status "ping-pong, SIGINT" 130
head -n 1 "$WORK_DIR/int.out" | grep -q '^INTERRUPTED by SIGINT after [0-9.]* s, [0-9]* of the 100000000 round trips asked' ||
    fail "ping-pong: the report does not open with the interruption: $(head -n 1 "$WORK_DIR/int.out")"
measured=$(sed -n 's/^\titerations: \([0-9]*\) measured.*/\1/p' "$WORK_DIR/int.out")
[ "${measured:-0}" -gt 0 ] || fail "ping-pong: no measured iterations in the report"
grep -q '^outliers:' "$WORK_DIR/int.out" || fail "ping-pong: ACE's block is missing"
pass "ping-pong, SIGINT: exit 130, a report of $measured round trips marked interrupted"

# Ping-pong, JSON: parseable, with the samples taken so far.
interrupt INT 2 -c 100000000 --format json
expect_status "ping-pong JSON, SIGINT" 130
[ "$(json_field "$WORK_DIR/int.out" interrupted)" = 1 ] || fail "ping-pong JSON: interrupted is not true"
[ "$(json_field "$WORK_DIR/int.out" interrupted_by)" = SIGINT ] || fail "ping-pong JSON: interrupted_by is not SIGINT"
points=$(json_field "$WORK_DIR/int.out" summary.num_points)
[ "$points" -gt 0 ] || fail "ping-pong JSON: no samples"
pass "ping-pong JSON, SIGINT: exit 130, interrupted, $points samples"

# --timestamps --one-way over TCP: a measured round trip waits for the next
# reply to bring the server's transmit stamp of its own, so the last one
# before the signal is left out of the split, counted missing for lacking
# that stamp alone, and every other is split.
interrupt INT 1 -c 100000000 --timestamps --one-way --format json
expect_status "ping-pong --timestamps --one-way JSON, SIGINT" 130
# (A wall-clock setting meanwhile leaves one more round trip out for it,
# and may cost one server transmit stamp: said apart.)
# shellcheck disable=SC2016 # Perl, expanded by Perl
check_json "$WORK_DIR/int.out" '
    my $s = $d->{round_trip_split};
    my $m = $s->{missing_by_stamp};
    my $set = $s->{clock_set_round_trips};
    same "split, left out for a clock setting and missing",
        $s->{split_round_trips} + $set + $s->{missing_stamps}, $d->{summary}{num_points};
    die "$m->{server_transmit} without the server transmit stamp, not 1\n"
        unless $m->{server_transmit} >= 1 && $m->{server_transmit} <= 1 + $set;
    same "missing", $s->{missing_stamps}, $m->{server_transmit};
    same "without a client transmit stamp", $m->{client_transmit}, 0;
    same "without a client arrival stamp", $m->{client_arrival}, 0;
    same "without a server arrival stamp", $m->{server_arrival}, 0;
' || fail "--timestamps --one-way, SIGINT: not the one round trip awaiting the server's transmit stamp left out"
points=$(json_field "$WORK_DIR/int.out" summary.num_points)
pass "--timestamps --one-way, SIGINT: the round trip awaiting the server's transmit stamp counted missing for it, the $((points - 1)) others split"

# Rate, JSON: every flow ended cleanly, so the server's account was read
# and agrees with what the client sent.
interrupt INT 2 --rate 1000 --duration 60 --flows 4 --threads 2 --format json
expect_status "rate JSON, SIGINT" 130
[ "$(json_field "$WORK_DIR/int.out" interrupted)" = 1 ] || fail "rate JSON: interrupted is not true"
sent=$(json_field "$WORK_DIR/int.out" load.messages_sent)
by_server=$(json_field "$WORK_DIR/int.out" load.messages_received_by_server)
replied=$(json_field "$WORK_DIR/int.out" load.messages_replied)
[ "$sent" -gt 0 ] && [ "$sent" = "$by_server" ] && [ "$sent" = "$replied" ] ||
    fail "rate JSON: sent $sent, received by the server $by_server, replied $replied"
duration=$(json_field "$WORK_DIR/int.out" load.duration_s)
awk -v d="$duration" 'BEGIN { exit !(d > 1 && d < 10) }' || fail "rate JSON: duration $duration s"
pass "rate JSON, SIGINT: exit 130, $sent messages in $duration s, all accounted for by the server"

# Throughput, text.
interrupt INT 2 --throughput --duration 60
expect_status "throughput, SIGINT" 130
head -n 1 "$WORK_DIR/int.out" | grep -q '^INTERRUPTED by SIGINT after [0-9.]* s of the 60 s asked' ||
    fail "throughput: the report does not open with the interruption: $(head -n 1 "$WORK_DIR/int.out")"
grep -q 'lost 0' "$WORK_DIR/int.out" || fail "throughput: messages lost after the interrupt"
pass "throughput, SIGINT: exit 130, report marked interrupted, nothing lost"

# SIGTERM: the same, with 143.
interrupt TERM 2 --rate 1000 --duration 60 --format json
expect_status "rate, SIGTERM" 143
[ "$(json_field "$WORK_DIR/int.out" interrupted_by)" = SIGTERM ] || fail "SIGTERM: interrupted_by is not SIGTERM"
pass "rate, SIGTERM: exit 143, interrupted_by SIGTERM"

# A second signal ends at once: with the server stopped, the first one
# leaves the client waiting for its end-of-test replies (up to
# --io-timeout 20 s); the second must end it within a moment, printing
# no report.
# (--foreground: without it timeout(1) ignores every signal after the
# first, once it has passed that one on.)
begun=$(log_count "$test_begun")
timeout --foreground 60 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 \
    --rate 1000 --duration 60 --io-timeout 20 >"$WORK_DIR/int.out" 2>"$WORK_DIR/int.err" &
client=$!
wait_for_log "$test_begun" 30 "$begun"
sleep 1
kill -STOP "$SERVER_PID"
# SIGSTOP stops a process's threads one by one, after kill() returns: until
# every worker is stopped, one could still answer the end of test that the
# client sends at once on its first signal.
for _ in $(seq 100); do
    running=$(cat /proc/"$SERVER_PID"/task/*/stat 2>/dev/null | awk '$3 != "T" && $3 != "t"' | wc -l)
    [ "$running" -eq 0 ] && break
    sleep 0.02
done
[ "$running" -eq 0 ] || fail "the server's threads did not all stop within 2 s of SIGSTOP"
kill -INT "$client"
sleep 1
kill -0 "$client" 2>/dev/null || fail "the client ended after one signal with its server stopped"
kill -INT "$client"
second_at=$(date +%s.%N)
STATUS=0
wait "$client" || STATUS=$?
took_s=$(echo "$(date +%s.%N) - $second_at" | bc)
kill -CONT "$SERVER_PID"
expect_status "second SIGINT" 130
awk -v t="$took_s" 'BEGIN { exit !(t < 1) }' || fail "the second SIGINT took $took_s s to end the client"
[ ! -s "$WORK_DIR/int.out" ] || fail "a report was printed after the second signal"
pass "a second SIGINT ends the client at once ($took_s s)"
