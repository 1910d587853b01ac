#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# sctp-perf-compare on the reports of real runs over loopback TCP: two sets
# of the same test show no difference and pass a gate; a large real
# difference is called slower and fails it (exit 3); sides of different
# modes or payloads are refused (exit 2) unless --allow-different; --plot
# writes a PNG; a failed run's report, a file that is no report and a plot
# that cannot be written are refused with one line each.
source "$(dirname "$0")/lib.sh"

COMPARE=("$BIN_DIR/sctp-perf-compare")
command -v gnuplot >/dev/null || fail "gnuplot is not installed: run scripts/install-deps.sh"

# Both ends on CPU 0. Left to the scheduler, p50 on a 2-CPU machine moves by
# a factor of 2 between runs as the two ends share a CPU or not (the
# manual's "CPU placement"), which would swamp the difference below.
start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1 --cpu 0
port=$SERVER_PORT
# B of the A/B below: a server that holds each ping-pong reply 5 ms (its
# test hook), so that the real difference B shows stays far beyond what a
# busy machine does to any run.
SCTP_PERF_TEST_HOOKS=1 start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1 --cpu 0 \
    --test-reply-delay 5000
held_port=$SERVER_PORT
CLIENT=("$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 --cpu 0 --format json)

# one_run FILE ARGS...: one client run's JSON report into FILE.
one_run() {
    local file=$1
    shift
    run_capture 0 "${CLIENT[@]}" "$@"
    printf '%s\n' "$OUT" >"$file"
}

# interleaved COUNT DIR_A "ARGS_A" DIR_B "ARGS_B": COUNT runs of each, A and
# B taking turns, so that a drift of the machine meets both sides alike.
interleaved() {
    local count=$1 dir_a=$2 args_a=$3 dir_b=$4 args_b=$5 i
    mkdir -p "$dir_a" "$dir_b"
    for i in $(seq "$count"); do
        # shellcheck disable=SC2086 # the arguments are words on purpose
        one_run "$dir_a/$i.json" $args_a
        # shellcheck disable=SC2086
        one_run "$dir_b/$i.json" $args_b
    done
}

# p50_row: the p50 line of the table in $OUT.
p50_row() { grep '^p50 ' <<<"$OUT"; }

# A/A: the same test twice, 5 runs each. Runs of 0.5 s, as in A/B below and
# for its reason: in a CI run beside two builds and a VM, runs of 2000
# round trips (about 15 ms each) met the machine's moments one by one and
# the A/A interval fell outside the 5 % threshold.
# Even so the verdict is a statistic: 5 runs a side called a difference that
# is not there about once in a few hundred sets on a busy machine, so a set
# that does is taken once more beside it, and two in a row fail.
for attempt in 1 2; do
    interleaved 5 "$WORK_DIR/aa1" "-p $port -s 6 --duration 0.5" \
        "$WORK_DIR/aa2" "-p $port -s 6 --duration 0.5"
    run_capture 0 "${COMPARE[@]}" --a "$WORK_DIR/aa1" --b "$WORK_DIR/aa2" --fail-if-slower p50:20%
    grep -q 'no difference beyond the noise threshold$' <<<"$(p50_row)" && break
    [ "$attempt" = 1 ] || fail "A/A: p50 is not 'no difference' in two sets running: $OUT"
    echo "note: A/A: the first set's p50 called a difference ($(p50_row | tr -s ' ')); once more"
    mv "$WORK_DIR/aa1" "$WORK_DIR/aa1.first" && mv "$WORK_DIR/aa2" "$WORK_DIR/aa2.first"
done
grep -q '^A: 5 runs from .*aa1 (5 reports): tcp stream, ping-pong, 64-byte requests' <<<"$OUT" ||
    fail "A/A: side A is not described: $OUT"
grep -q '^gate --fail-if-slower: passed$' <<<"$OUT" || fail "A/A: the gate did not pass: $OUT"
grep -q '^warning' <<<"$OUT" && fail "A/A: a warning with 5 runs a side: $OUT"
pass "A/A, 5 runs a side: $(p50_row | tr -s ' ')"

# A/B: 16-byte requests against 64 KiB echoed back by a server that holds
# each reply 5 ms, 7 runs each of 0.5 s. The gate is the verdict's own 5 %.
# The difference must stay far beyond what a busy machine does to one run.
# Without the hold (about 7 against 20 us at p50 on a quiet 2-CPU VM, a
# ratio near 3), a whole test run on a slow 2-CPU machine beside builds and
# VMs drew 26 against 46 us and an interval of [0.884, 5.786]: no verdict.
# Before that, with 2000 round trips (about 15 ms)
# a run sees one moment of the machine, and at a load average of 12 one run
# of A took twice the others' p50, so that 16 B against 64 KiB one way (a
# ratio near 2) drew an interval of [0.888, 3.541]. Runs of 20000 round
# trips (0.1 to 0.5 s) averaged over the machine's moments, and the echo
# makes the real difference larger: at a load average of 10 the ratio was
# 3.03 [2.90, 3.14]. Runs are timed, not counted: under ThreadSanitizer
# 20000 round trips of 64 KiB took more than the minute run_capture allows
# a run. 7 runs, not 5, since with 5 a single stray run of A
# (the bootstrap takes its largest value as the median in 5.8 % of
# resamples, more than the 2.5 % tail) could pull the interval's low end
# under the gate.
interleaved 7 "$WORK_DIR/small" "-p $port -s 4 --duration 0.5" \
    "$WORK_DIR/large" "-p $held_port -s 16 --echo --duration 0.5"
run_capture 2 "${COMPARE[@]}" --a "$WORK_DIR/small" --b "$WORK_DIR/large"
grep -q 'A and B measure different things (A sends 16-byte requests, B 65536-byte requests; A gets 2-byte replies, B 65536-byte replies); compare them all the same with --allow-different' <<<"$ERR" ||
    fail "payloads differ: the refusal does not name the difference: $ERR"
[ "$(wc -l <<<"$ERR")" = 1 ] || fail "payloads differ: more than one line on stderr: $ERR"
run_capture 3 "${COMPARE[@]}" --a "$WORK_DIR/small" --b "$WORK_DIR/large" --allow-different \
    --fail-if-slower p50:5%
grep -q ' slower$' <<<"$(p50_row)" || fail "A/B: p50 is not slower: $OUT"
grep -q '^differences, compared all the same (--allow-different): A sends 16-byte requests, B 65536-byte requests; A gets 2-byte replies, B 65536-byte replies$' <<<"$OUT" ||
    fail "A/B: the difference is not shown: $OUT"
grep -q '^gate --fail-if-slower: FAILED (exit 3)$' <<<"$OUT" || fail "A/B: the gate did not fail: $OUT"
pass "A/B, 16 B against 64 KiB echoed and held 5 ms, 7 runs a side: exit 3; $(p50_row | tr -s ' ')"

# Sides of different modes: ping-pong against rate (whose replies are 16
# bytes, not 2), 2 runs of 1 s.
mkdir -p "$WORK_DIR/rate"
for i in 1 2; do
    one_run "$WORK_DIR/rate/$i.json" -p "$port" -s 6 --rate 1000 --duration 1
done
run_capture 2 "${COMPARE[@]}" --a "$WORK_DIR/aa1" --b "$WORK_DIR/rate"
grep -q 'A runs ping-pong, B runs rate; A gets 2-byte replies, B 16-byte replies' <<<"$ERR" ||
    fail "modes differ: the refusal does not name both differences: $ERR"
run_capture 0 "${COMPARE[@]}" --a "$WORK_DIR/aa1" --b "$WORK_DIR/rate" --allow-different
grep -q '^differences, compared all the same (--allow-different): A runs ping-pong, B runs rate; A gets 2-byte replies, B 16-byte replies$' <<<"$OUT" ||
    fail "modes differ, allowed: the differences are not shown: $OUT"
grep -q '^warning: B has only 2 runs' <<<"$OUT" || fail "2 runs: no warning naming the count: $OUT"
pass "ping-pong against rate: refused (exit 2), compared with --allow-different and a warning"

# --plot and --format json.
run_capture 0 "${COMPARE[@]}" --a "$WORK_DIR/aa1" --b "$WORK_DIR/aa2" --format json \
    --plot "$WORK_DIR/aa.png"
[ "$(head -c 8 "$WORK_DIR/aa.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "--plot: $WORK_DIR/aa.png does not start with PNG's signature"
printf '%s\n' "$OUT" >"$WORK_DIR/aa.json"
[ "$(json_field "$WORK_DIR/aa.json" program)" = sctp-perf-compare ] || fail "--format json: $OUT"
[ "$(json_field "$WORK_DIR/aa.json" a.runs)" = 5 ] || fail "--format json: a.runs is not 5"
[ "$(json_field "$WORK_DIR/aa.json" percentiles.0.percentile)" = p50 ] || fail "--format json: no p50 first"
[ "$(json_field "$WORK_DIR/aa.json" percentiles.4.percentile)" = max ] || fail "--format json: no max last"
[ "$(json_field "$WORK_DIR/aa.json" exit_code)" = 0 ] || fail "--format json: exit_code is not 0"
pass "--plot wrote a PNG ($(stat -c %s "$WORK_DIR/aa.png") bytes); --format json is one object"

# Input that would mislead, and a plot that cannot be written.
run_capture 1 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p 1 -s 4 -c 10 --format json
printf '%s\n' "$OUT" >"$WORK_DIR/failed.json"
run_capture 2 "${COMPARE[@]}" --a "$WORK_DIR/failed.json" --b "$WORK_DIR/aa2"
grep -q "^sctp-perf-compare: $WORK_DIR/failed.json is the report of a failed run, with no figures to compare: cannot connect" <<<"$ERR" ||
    fail "a failed run's report is not refused by name: $ERR"
echo 'p50 14 us' >"$WORK_DIR/notes.json"
run_capture 2 "${COMPARE[@]}" --a "$WORK_DIR/notes.json" --b "$WORK_DIR/aa2"
grep -q "$WORK_DIR/notes.json is not an sctp-perf report: it is not JSON" <<<"$ERR" ||
    fail "a file that is no report is not refused by name: $ERR"
mkdir "$WORK_DIR/empty"
run_capture 2 "${COMPARE[@]}" --a "$WORK_DIR/empty" --b "$WORK_DIR/aa2"
grep -q "the directory $WORK_DIR/empty holds no \*.json report" <<<"$ERR" || fail "empty directory: $ERR"
run_capture 1 "${COMPARE[@]}" --a "$WORK_DIR/aa1" --b "$WORK_DIR/aa2" --plot /nonexistent/aa.png
grep -q '^sctp-perf-compare: cannot write the plot /nonexistent/aa.png: ' <<<"$ERR" ||
    fail "an unwritable plot is not named: $ERR"
pass "refused: a failed run's report, a file that is no report, an empty directory (2); an unwritable plot (1)"
