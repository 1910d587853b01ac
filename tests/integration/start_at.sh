#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --start-at over TCP on loopback: clients started at different moments with
# the same instant (in its three forms) all begin to measure at it, two in
# rate mode and one in ping-pong; each report states the instant asked, when
# measuring began and how late that was, and the HdrHistogram log starts at
# it. An instant already past fails (exit 1), as do one that connecting and
# priming outlast (the sentence says whether a later instant or less set-up
# would help) and one the server's --io-timeout would not wait for; a bad form, one more than 24 h ahead, or
# one with --repeat is a usage error (exit 2). Ctrl-C during the wait ends the
# run with its report, marked interrupted (exit 130).
source "$(dirname "$0")/lib.sh"

clt=("$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1)
# How far from the instant a start may be on a busy shared machine: the wait
# itself ends within microseconds, but a client preempted at that moment is
# late by a scheduler's time slice or more. Later still only when a control
# waiting beside the clients was late too (start_wait_control: a machine
# stalled for 445 ms made every client and it late alike).
bound_us=50000

start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1

# An instant 6 to 7 s ahead, whole seconds, in the three forms: the last
# client starts 2 s in and so has 4 s or more to start and connect (3 was
# too few beside another run under ASan: 72 ms past the instant).
start=$(($(date +%s) + 7))
iso=$(date -u -d "@$start" +%Y-%m-%dT%H:%M:%SZ)
offset=$(date -u -d "@$((start + 3600))" +%Y-%m-%dT%H:%M:%S.000+01:00)  # the same instant
start_wait_control "$start" "$WORK_DIR/control"

# Three clients, a second apart: rate, rate, ping-pong.
timeout 30 "${clt[@]}" -p "$SERVER_PORT" -s 6 --rate 1000 --duration 2 --start-at "$iso" \
    --format json --histogram-log "$WORK_DIR/a.hlog" >"$WORK_DIR/a.json" 2>"$WORK_DIR/a.err" &
a=$!
sleep 1
timeout 30 "${clt[@]}" -p "$SERVER_PORT" -s 6 --rate 1000 --duration 2 --start-at "$start" \
    --format json >"$WORK_DIR/b.json" 2>"$WORK_DIR/b.err" &
b=$!
sleep 1
timeout 30 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 2000 --start-at "$offset" \
    --json-file "$WORK_DIR/c.json" >"$WORK_DIR/c.txt" 2>"$WORK_DIR/c.err" &
c=$!
STARTED_PIDS+=("$a" "$b" "$c")
for client in a b c; do
    status=0
    wait "${!client}" || status=$?
    [ "$status" -eq 0 ] || { cat "$WORK_DIR/$client.err" >&2; fail "client $client exited $status"; }
done
late_allowance "$WORK_DIR/control" "$bound_us"
late_us=$LATE_ALLOWANCE_US

for client in a b c; do
    json=$WORK_DIR/$client.json
    requested=$(json_field "$json" start_at.requested)
    [ "$requested" = "${iso%Z}.000000Z" ] || fail "$client: start_at.requested is $requested, not $iso"
    actual=$(json_field "$json" start_at.actual)
    [ "$actual" = "$(json_field "$json" environment.measurement_began_at)" ] ||
        fail "$client: start_at.actual $actual is not environment.measurement_began_at"
    late=$(json_field "$json" start_at.late_us)
    awk -v l="$late" -v b="$bound_us" -v m="$late_us" 'BEGIN { exit !(l != "null" && l > -b && l < m) }' ||
        fail "$client: measuring began $late us from the instant, not within -${bound_us}..${late_us} us"
    # The report's own wall-clock time agrees with the offset it states.
    began=$(date -u -d "$actual" +%s.%N)
    awk -v t="$began" -v s="$start" -v l="$late" 'BEGIN { d = (t - s) * 1e6 - l; exit !(d > -2 && d < 2) }' ||
        fail "$client: actual $actual and late_us $late disagree"
    echo "client $client: measuring began at $actual, $late us from $iso"
done
pass "three clients started 1 s apart, in rate mode and ping-pong, all began within -${bound_us}..${late_us} us of $iso"

grep -q "^	start at: ${iso%Z}.000000Z asked, measuring began .* us \(late\|early\))$" "$WORK_DIR/c.txt" ||
    fail "text report: no start-at line: $(grep 'start' "$WORK_DIR/c.txt")"
[ "$(json_field "$WORK_DIR/c.json" summary.num_points)" = 2000 ] || fail "ping-pong did not measure 2000"
pass "the text report states the instant, when measuring began and how late"

# The HdrHistogram log starts at the instant (whole milliseconds): a merge
# of logs from several hosts aligns on it.
log_start=$(sed -n 's/^#\[StartTime: \([0-9.]*\) .*/\1/p' "$WORK_DIR/a.hlog")
base=$(sed -n 's/^#\[BaseTime: \([0-9.]*\) .*/\1/p' "$WORK_DIR/a.hlog")
awk -v t="$log_start" -v s="$start" -v b="$bound_us" -v m="$late_us" 'BEGIN { exit !((t - s) * 1e6 > -b && (t - s) * 1e6 < m) }' ||
    fail "histogram log StartTime $log_start is not the instant $start"
[ "$base" = "$log_start" ] || fail "histogram log BaseTime $base is not its StartTime $log_start"
pass "the histogram log's StartTime and BaseTime are the instant ($log_start)"

# Without --start-at the JSON still says when measuring began, and start_at is null.
run_capture 0 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 100 --format json
printf '%s\n' "$OUT" >"$WORK_DIR/plain.json"
[ "$(json_field "$WORK_DIR/plain.json" start_at)" = null ] || fail "start_at is not null without --start-at"
grep -q '"measurement_began_at": "20[0-9-]*T[0-9:]*\.[0-9]\{6\}Z"' "$WORK_DIR/plain.json" ||
    fail "no environment.measurement_began_at without --start-at"
pass "without --start-at: start_at null, measurement_began_at still given"

# An instant already past: exit 1, before connecting.
run_capture 1 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 100 --start-at $(($(date +%s) - 10))
grep -q 'passed 1[0-9]\.[0-9]* s before the client was ready (it had not yet connected); give a later time' <<<"$ERR" ||
    fail "past instant: $ERR"
pass "an instant already past: exit 1, '$ERR'"

# A server that would end the session before the instant: its --io-timeout
# is shorter than the wait after the primer. Refused, exit 1, not cut off.
srv_port=$SERVER_PORT
start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1 --io-timeout 1
run_capture 1 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 100 --start-at $(($(date +%s) + 4))
grep -q "the server ends a session silent for its --io-timeout of 1.000 s; start the server with an --io-timeout above 6 s" <<<"$ERR" ||
    fail "short server --io-timeout: $ERR"
pass "a server --io-timeout shorter than the wait: exit 1, named"

# Connecting and priming outlasting the instant, against a server that holds
# each reply 40 ms (a test hook): exit 1, and the sentence says what would
# help. Given 1 to 2 s ahead, the client connects at once and a later time
# would: 100 primer round trips take 4 s.
SCTP_PERF_TEST_HOOKS=1 start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1 --test-reply-delay 40000
run_capture 1 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 100 --start-at $(($(date +%s) + 2))
grep -q 'before the client was ready (connected and primed); give a time at least 5 s ahead' <<<"$ERR" ||
    fail "instant too soon for the primer: $ERR"
pass "an instant sooner than the set-up: exit 1, '$ERR'"
# Given 6 to 7 s ahead, the client begins 5 s before it whatever the instant,
# so only less set-up helps: 150 primer round trips take 6 s.
run_capture 1 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 100 --primer 150 --start-at $(($(date +%s) + 7))
grep -q 'before the client was ready (connected and primed): connecting and the primer took [0-9.]* s, and a client begins them 5 s before the instant; use fewer flows per client process, a shorter --primer' <<<"$ERR" ||
    fail "set-up longer than the lead: $ERR"
pass "set-up longer than the client's lead: exit 1, '$ERR'"

# Usage errors, exit 2, with a sentence.
run_capture 2 "${clt[@]}" -p "$srv_port" -s 6 --start-at 2026-11-26T14:05:00
grep -q "needs its zone" <<<"$ERR" || fail "no zone: $ERR"
run_capture 2 "${clt[@]}" -p "$srv_port" -s 6 --start-at tomorrow
grep -q "must be an ISO 8601 time with a zone" <<<"$ERR" || fail "bad form: $ERR"
run_capture 2 "${clt[@]}" -p "$srv_port" -s 6 --start-at $(($(date +%s) + 90000))
grep -q "more than 24 h" <<<"$ERR" || fail "too far ahead: $ERR"
run_capture 2 "${clt[@]}" -p "$srv_port" -s 6 --start-at $(($(date +%s) + 60)) --repeat 2
grep -q "cannot be given with --repeat above 1" <<<"$ERR" || fail "with --repeat: $ERR"
pass "no zone, a bad form, more than 24 h ahead, and --repeat 2: exit 2"

# Ctrl-C while waiting for the instant: the report, interrupted, with nothing
# measured and no start; exit 130.
timeout 30 "${clt[@]}" -p "$srv_port" -s 6 -c 100 --start-at $(($(date +%s) + 4)) \
    --format json >"$WORK_DIR/int.json" 2>"$WORK_DIR/int.err" &
pid=$!
STARTED_PIDS+=("$pid")
sleep 1.5
kill -INT "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -eq 130 ] || { cat "$WORK_DIR/int.err" >&2; fail "Ctrl-C during the wait: exit $status"; }
[ "$(json_field "$WORK_DIR/int.json" interrupted)" = 1 ] || fail "Ctrl-C: not marked interrupted"
[ "$(json_field "$WORK_DIR/int.json" start_at.actual)" = null ] || fail "Ctrl-C: an actual start"
[ "$(json_field "$WORK_DIR/int.json" summary.num_points)" = 0 ] || fail "Ctrl-C: points measured"
pass "Ctrl-C during the wait: exit 130, the report marked interrupted, nothing measured"
