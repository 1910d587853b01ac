#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Coordinated omission, shown with a server that stops for 300 ms (SIGSTOP)
# in the middle of a 3 s run.
#
# Open loop (--rate 2000): the messages due during the stall, about 600, wait
# for the server; timed from when they were due ("corrected") the longest
# waits ~300 ms and the p99 is far above 100 ms. Timed from when they were
# sent ("uncorrected") they look fast, because the stalled server held the
# client's sends back: they left late, all at once, after the stall.
#
# Ping-pong: the client waits for each reply before the next request, so the
# stall costs one round trip of ~300 ms. The max shows it, the p99 hides it.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"

# A server stopped when the test ends must be continued to stop cleanly.
trap 'kill -CONT "${SERVER_PID:-}" 2>/dev/null || true; cleanup' EXIT

# stalled_run NAME STARTED ARGS...: runs the client against the server with
# ARGS and --json-file $WORK_DIR/NAME.json; once the server log shows STARTED
# (the test's header accepted) and 1 s has passed, stops the server for
# 300 ms. Fails unless the client exits 0 within 60 s.
stalled_run() {
    local name=$1 started=$2
    shift 2
    timeout 60 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" --json-file "$WORK_DIR/$name.json" \
        "$@" >"$WORK_DIR/$name.out" 2>"$WORK_DIR/$name.err" &
    local client_pid=$!
    STARTED_PIDS+=("$client_pid")
    wait_for_log "$started"
    sleep 1.0
    local stop_ns
    stop_ns=$(date +%s%N)
    kill -STOP "$SERVER_PID"
    sleep 0.3 || true
    kill -CONT "$SERVER_PID"
    echo "$name: server stopped for $((($(date +%s%N) - stop_ns) / 1000000)) ms"
    local status=0
    wait "$client_pid" || status=$?
    [ "$status" = 0 ] || {
        cat "$WORK_DIR/$name.err" >&2
        fail "$name: the client exited $status"
    }
}

# us_at_least A B: true when A >= B (microseconds, with decimals).
us_at_least() {
    awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'
}

# us_below A B: true when A < B.
us_below() {
    awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'
}

# Small buffers and 4 KiB requests: the sockets hold only a few requests, so
# the stalled server soon blocks the client's sends. With the system's
# buffers the kernel would take all ~600 requests on time (600 x 128 B fit
# easily) and the send times, hence the uncorrected latency, would show the
# stall as well as the corrected one does. Ping-pong has one request in
# flight: the buffers make no difference to it.
start_server SOCK_STREAM_srv -t tcp --sndbuf 4096 --rcvbuf 4096
stalled_run rate "Test in rate mode" -s 12 --rate 2000 --duration 3 --sndbuf 4096 --rcvbuf 4096
json=$WORK_DIR/rate.json
corrected_p99=$(json_field "$json" load.latency_corrected.p99_us)
corrected_max=$(json_field "$json" load.latency_corrected.max_us)
uncorrected_p99=$(json_field "$json" load.latency_uncorrected.p99_us)
uncorrected_max=$(json_field "$json" load.latency_uncorrected.max_us)
slip=$(json_field "$json" load.schedule_slip_max_us)
echo "rate 2000/s: $(json_field "$json" load.messages_replied) messages timed"
echo "rate 2000/s: corrected   p99 $corrected_p99 us, max $corrected_max us"
echo "rate 2000/s: uncorrected p99 $uncorrected_p99 us, max $uncorrected_max us"
echo "rate 2000/s: sends held back by up to $slip us"
[ "$(json_field "$json" load.messages_lost)" = 0 ] || fail "rate: messages lost"
us_at_least "$corrected_p99" 100000 || fail "rate: corrected p99 $corrected_p99 us is below 100 ms"
us_at_least "$slip" 100000 || fail "rate: the stall held no send back 100 ms ($slip us)"
# Much smaller: a tenth at most (here usually a hundredth or less).
awk -v c="$corrected_p99" -v u="$uncorrected_p99" 'BEGIN { exit !(10 * u <= c) }' ||
    fail "rate: uncorrected p99 $uncorrected_p99 us is not under a tenth of corrected p99 $corrected_p99 us"
pass "open loop: corrected p99 $corrected_p99 us sees the stall, uncorrected p99 $uncorrected_p99 us hides it"

stalled_run ping_pong "Test for as many iterations as the client sends" -s 4 --duration 3
json=$WORK_DIR/ping_pong.json
pp_max=$(json_field "$json" percentiles.max_us)
pp_p99=$(json_field "$json" percentiles.p99_us)
echo "ping-pong: $(json_field "$json" summary.num_points) round trips"
echo "ping-pong: p99 $pp_p99 us, max $pp_max us"
us_at_least "$pp_max" 250000 || fail "ping-pong: max $pp_max us is below 250 ms"
us_below "$pp_p99" 100000 || fail "ping-pong: p99 $pp_p99 us is not below 100 ms"
pass "ping-pong: one ${pp_max} us round trip in the max, p99 $pp_p99 us hides the stall"
