#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --repeat over TCP on loopback: each run has its own connection and its
# full count, the report pools them and adds each percentile over the runs
# (JSON: runs and aggregate; text: the "runs:" section), in ping-pong and in
# rate mode; --repeat 1 reports as a single run always did; sctp-perf-compare
# reads two repeated reports run by run; a server that goes away between
# runs ends them with the report of those done (exit 1), and so does Ctrl-C
# in a pause (exit 130).
source "$(dirname "$0")/lib.sh"

clt=("$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1)

start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1

# Ping-pong, 3 runs of 200: 600 pooled points, and [min, max] of 3 runs,
# which holds the median unless all 3 fall on one side of it:
# 1 - 2 * 0.5^3 = 75 %.
run_capture 0 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 200 --repeat 3 --format json
json=$WORK_DIR/pingpong.json
printf '%s\n' "$OUT" >"$json"
expect_field "$json" summary.num_points 600
expect_field "$json" config.repeat 3
for run in 0 1 2; do
    expect_field "$json" "runs.$run.run" $((run + 1))
    expect_field "$json" "runs.$run.summary.num_points" 200
done
expect_field "$json" runs.3 null
expect_field "$json" aggregate.runs 3
expect_field "$json" aggregate.runs_asked 3
expect_field "$json" aggregate.method "order statistics"
for key in p50_us p90_us p99_us p99_9_us p99_99_us max_us; do
    expect_field "$json" "aggregate.percentiles.$key.coverage_percent" 75
    low=$(json_field "$json" "aggregate.percentiles.$key.low_us")
    median=$(json_field "$json" "aggregate.percentiles.$key.median_us")
    high=$(json_field "$json" "aggregate.percentiles.$key.high_us")
    awk -v l="$low" -v m="$median" -v h="$high" 'BEGIN { exit !(l <= m && m <= h) }' ||
        fail "aggregate $key: the median $median is not within [$low, $high]"
done
[ "$(json_field "$json" aggregate.percentiles.max_us.high_us)" = "$(json_field "$json" summary.max_us)" ] ||
    fail "the largest run maximum is not the pooled maximum"
pass "ping-pong --repeat 3 -c 200: 3 runs of 200, 600 pooled, intervals of 75 % coverage"

# The text report of the same: the runs section, with a row per run.
run_capture 0 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 200 --repeat 3 --pause 0.1
grep -q '^runs: 3 of the 3 asked, each connecting anew' <<<"$OUT" || fail "text: no runs section: $OUT"
grep -q '^	p99  .*  \[.*\]  75 % CI over 3 runs (order statistics: \[min, max\], as 3 runs cannot reach 95 %); spread ' <<<"$OUT" ||
    fail "text: no p99 line with its 75 % interval: $OUT"
[ "$(grep -c '^	    [123]          200 ' <<<"$OUT")" = 3 ] || fail "text: not one row of 200 points per run: $OUT"
grep -q '^num_points: 600$' <<<"$OUT" || fail "text: the ACE block is not the pooled 600 points"
grep -q '^	iterations: 600 measured in 3 runs' <<<"$OUT" || fail "text: the iterations line"
pass "text: the runs section, one row per run, and ACE's block of the 600 pooled points"

# One run: no runs section, no runs or aggregate in the JSON.
run_capture 0 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 200 --repeat 1
grep -q '^runs:' <<<"$OUT" && fail "--repeat 1: a runs section"
grep -q '^	iterations: 200 measured, after 100 unrecorded primer iterations$' <<<"$OUT" ||
    fail "--repeat 1: the iterations line changed: $OUT"
run_capture 0 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 200 --format json
printf '%s\n' "$OUT" >"$WORK_DIR/single.json"
expect_field "$WORK_DIR/single.json" runs null
expect_field "$WORK_DIR/single.json" aggregate null
expect_field "$WORK_DIR/single.json" config.repeat null
pass "--repeat 1: a single run's report, as before"

# Rate mode, 2 runs of 1 s at 500 messages per second: each run sends about
# 500, and the pooled counts are their sums.
run_capture 0 "${clt[@]}" -p "$SERVER_PORT" -s 6 --rate 500 --duration 1 --repeat 2 --format json
json=$WORK_DIR/rate.json
printf '%s\n' "$OUT" >"$json"
grep -c '^run [12] of 2$' <<<"$ERR" | grep -q '^2$' || fail "rate: no 'run N of 2' line before each run's progress: $ERR"
sent_1=$(json_field "$json" runs.0.load.messages_sent)
sent_2=$(json_field "$json" runs.1.load.messages_sent)
expect_field "$json" load.messages_sent $((sent_1 + sent_2))
for sent in "$sent_1" "$sent_2"; do
    ((sent >= 450 && sent <= 500)) || fail "rate: a run sent $sent, expected about 500"
done
expect_field "$json" runs.0.load.messages_lost 0
expect_field "$json" summary.num_points $(($(json_field "$json" runs.0.summary.num_points) + $(json_field "$json" runs.1.summary.num_points)))
expect_field "$json" aggregate.runs 2
expect_field "$json" aggregate.percentiles.p50_us.coverage_percent 50
run_capture 0 "${clt[@]}" -p "$SERVER_PORT" -s 6 --rate 500 --duration 1 --repeat 2 --interval 0
grep -q '^	over the runs, the headline latency, corrected (from each message.s due time), in microseconds' <<<"$OUT" ||
    fail "rate text: the runs section does not name the corrected latency: $OUT"
pass "rate --repeat 2: $sent_1 + $sent_2 messages pooled, the corrected latency over 2 runs"

# sctp-perf-compare reads a repeated report as its runs: A/A of 5 runs each.
for side in a b; do
    run_capture 0 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 300 --repeat 5 --format json
    printf '%s\n' "$OUT" >"$WORK_DIR/$side.json"
done
run_capture 0 "$BIN_DIR/sctp-perf-compare" --a "$WORK_DIR/a.json" --b "$WORK_DIR/b.json"
grep -q "^A: 5 runs from $WORK_DIR/a.json (1 report): tcp stream, ping-pong, 64-byte requests" <<<"$OUT" ||
    fail "compare: side A is not 5 runs of one report: $OUT"
grep -q '^warning' <<<"$OUT" && fail "compare: a warning with 5 runs a side: $OUT"
pass "sctp-perf-compare: two --repeat 5 reports read as 5 runs a side, exit 0"

# Usage errors: --pause needs runs to pause between; per-run files are refused.
run_capture 2 "${clt[@]}" -p "$SERVER_PORT" -s 6 --pause 1
grep -q 'pause needs --repeat above 1' <<<"$ERR" || fail "--pause alone: $ERR"
run_capture 2 "${clt[@]}" -p "$SERVER_PORT" -s 6 --rate 10 --repeat 2 --latency-file "$WORK_DIR/l.csv"
grep -q -- '--latency-file describes one run' <<<"$ERR" || fail "--latency-file with --repeat: $ERR"
[ -e "$WORK_DIR/l.csv" ] && fail "--latency-file was created despite the usage error"
pass "usage errors (exit 2): --pause without --repeat, --latency-file with --repeat 2"

# Ctrl-C in a pause: the report of the run done, marked interrupted, exit 130.
timeout 60 "${clt[@]}" -p "$SERVER_PORT" -s 6 -c 200 --repeat 3 --pause 10 --format json \
    >"$WORK_DIR/int.json" 2>"$WORK_DIR/int.err" &
client=$!
sleep 1.5
kill -INT "$client"
status=0
wait "$client" || status=$?
[ "$status" = 130 ] || fail "SIGINT in a pause: exit $status, expected 130: $(cat "$WORK_DIR/int.err")"
expect_field "$WORK_DIR/int.json" interrupted 1
expect_field "$WORK_DIR/int.json" aggregate.runs_done 1
expect_field "$WORK_DIR/int.json" summary.num_points 200
pass "SIGINT in the pause after run 1: exit 130, the report of that run"

# A server gone between runs: run 2 fails, the report covers run 1, exit 1.
pid=$SERVER_PID
port=$SERVER_PORT
timeout 60 "${clt[@]}" -p "$port" -s 6 -c 200 --repeat 3 --pause 2 >"$WORK_DIR/fail.out" \
    2>"$WORK_DIR/fail.err" &
client=$!
sleep 1
kill -TERM "$pid"
status=0
wait "$client" || status=$?
[ "$status" = 1 ] || fail "server gone: exit $status, expected 1: $(cat "$WORK_DIR/fail.err")"
grep -q '^SOCK_STREAM_clt: run 2 of the 3 asked failed: cannot connect' "$WORK_DIR/fail.err" ||
    fail "server gone: stderr does not name the run that failed: $(cat "$WORK_DIR/fail.err")"
head -n 1 "$WORK_DIR/fail.out" | grep -q '^FAILED in run 2 of the 3 asked: .*: every figure below covers the 1 run done before it$' ||
    fail "server gone: the report does not open with the failure: $(head -n 1 "$WORK_DIR/fail.out")"
grep -q '^num_points: 200$' "$WORK_DIR/fail.out" || fail "server gone: the report is not of run 1"
pass "server gone before run 2: exit 1, the report of run 1 opens with the failure"
