#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The load modes over TCP on loopback: open-loop --rate and --throughput count
# every message exactly, --flows and --duration do what they say, the progress
# CSV, the latency file and the HdrHistogram log agree with the JSON report,
# and --sndbuf/--rcvbuf are read back and reported.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/hdr_log_reader.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"

# expect_between FILE PATH LOW HIGH: fails unless LOW <= value <= HIGH.
expect_between() {
    local actual
    actual=$(json_field "$1" "$2")
    awk -v v="$actual" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
        fail "$(basename "$1"): $2 is $actual, expected $3..$4"
}

# load_run NAME ARGS...: runs the client against the current server with
# ARGS, JSON on stdout, and keeps the report in $WORK_DIR/NAME.json.
load_run() {
    local name=$1
    shift
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" --format json "$@"
    echo "$OUT" >"$WORK_DIR/$name.json"
}

start_server SOCK_STREAM_srv -t tcp

# Rate mode counts every message, both ends, and the server also saw the 100
# primer messages: 3000 + 100 = 3100.
load_run rate -s 7 -c 3000 --rate 5000 --latency-file "$WORK_DIR/rate.csv"
json=$WORK_DIR/rate.json
for field in messages_sent messages_received_by_server messages_echo_requested \
    messages_replied latency_corrected.num_points latency_uncorrected.num_points; do
    expect_field "$json" "load.$field" 3000
done
expect_field "$json" load.messages_lost 0
expect_field "$json" load.messages_duplicated 0
expect_field "$json" load.server.messages_received 3100
expect_field "$json" load.server.replies_sent 3100
expect_field "$json" load.mode rate
expect_field "$json" summary.num_points 3000
wait_for_log "finished 3100 messages"
pass "--rate 5000 -c 3000: 3000 sent, received, replied and timed"

# The achieved rate is 2999 intervals over the time from the first send to
# the last. Message k is due at k/5000 s, so the schedule spans 2999/5000 =
# 0.5998 s, and as no send leaves early and none later than the largest
# schedule slip, the measured span lies within that slip of 0.5998 s. On a
# quiet machine the slip is well under a millisecond and the rate 5000/s
# within 0.5 %; a busy one (2 CPUs, a build running) has shown a last send
# 3.6 ms late, which reads as 4970/s over 0.6 s. So the test holds the span
# to the schedule within the slip, and checks the slip itself against the
# latency file, where every message's due and send times are listed.
rate=$(json_field "$json" load.rate_achieved_per_s)
sending_s=$(json_field "$json" load.sending_s)
slip_us=$(json_field "$json" load.schedule_slip_max_us)
file_slip_us=$(awk -F, 'NR > 1 && $4 - $3 > max { max = $4 - $3 } END { printf "%.3f", max / 1000 }' \
    "$WORK_DIR/rate.csv")
awk -v a="$slip_us" -v b="$file_slip_us" 'BEGIN { d = a - b; exit !(d <= 0.0015 && d >= -0.0015) }' ||
    fail "schedule_slip_max_us $slip_us differs from the latency file's largest send - due, $file_slip_us us"
# The report rounds the rate to 6 significant digits and sending_s to the
# microsecond, so their product may miss 2999 by 2999 * (5e-6 + 1e-6 / 0.6),
# about 0.02.
awk -v r="$rate" -v s="$sending_s" 'BEGIN { d = r * s - 2999; exit !(d < 0.02 && d > -0.02) }' ||
    fail "rate_achieved_per_s $rate is not 2999 / sending_s ($sending_s s)"
awk -v s="$sending_s" -v slip="$slip_us" 'BEGIN {
    d = s - 0.5998; if (d < 0) d = -d
    exit !(d <= slip / 1e6 + 1e-6)
}' || fail "sending took $sending_s s, more than the largest slip ($slip_us us) from the scheduled 0.5998 s"
# Beyond that, whether the client kept the schedule is the median slip: a
# client that cannot keep 5000/s falls behind steadily, and at 2 % over
# 0.6 s its median message would be about 6 ms late; a machine that stalls
# the client once (a run beside a whole other test suite has shown one
# stall of 172 ms, the last sends 15 ms late, 4881/s) leaves the median
# message on time. So the rate itself is not held to 2 % of 5000/s, which
# measured the machine's quiet: the median slip is held to 1 % of the span.
slip_p50_us=$(json_field "$json" load.schedule_slip_p50_us)
awk -v p="$slip_p50_us" 'BEGIN { exit !(p < 5998) }' ||
    fail "the median message was sent $slip_p50_us us late: the client did not keep 5000/s (achieved $rate/s)"
if awk -v r="$rate" 'BEGIN { exit !(r >= 4975 && r <= 5025) }'; then
    pass "rate achieved $rate/s, within 0.5 % of 5000/s (median slip $slip_p50_us us, largest $slip_us us)"
else
    pass "rate achieved $rate/s: over 0.5 % off 5000/s as a send at either end slipped (median slip $slip_p50_us us, largest $slip_us us)"
fi

# Throughput mode: every message reaches the server, every 1000th is echoed.
load_run throughput -s 7 -c 200000 --throughput
json=$WORK_DIR/throughput.json
expect_field "$json" load.messages_sent 200000
expect_field "$json" load.messages_received_by_server 200000
expect_field "$json" load.messages_echo_requested 200
expect_field "$json" load.messages_replied 200
expect_field "$json" load.latency_uncorrected.num_points 200
expect_field "$json" load.latency_corrected null
expect_field "$json" load.messages_lost 0
expect_field "$json" load.echo_every 1000
wait_for_log "finished 200100 messages"
pass "--throughput -c 200000: all received, 200 replies timed"

# Open loop for a given time: 1 s at 1000/s is 1000 messages, give or take
# the one due on the boundary.
load_run duration -s 7 --duration 1 --rate 1000
json=$WORK_DIR/duration.json
expect_between "$json" load.duration_s 0.9 3
expect_between "$json" load.messages_sent 990 1010
expect_field "$json" load.messages_lost 0
pass "--duration 1 --rate 1000: $(json_field "$json" load.messages_sent) messages in $(json_field "$json" load.duration_s) s"

# The side files of one run: 1 s at 2000/s with a line every 0.2 s.
csv=$WORK_DIR/interval.csv
hlog=$WORK_DIR/run.hlog
latencies=$WORK_DIR/latency.csv
load_run files -s 7 --rate 2000 --duration 1 --interval 0.2 --interval-csv "$csv" \
    --histogram-log "$hlog" --latency-file "$latencies"
json=$WORK_DIR/files.json
replied=$(json_field "$json" load.messages_replied)
[ "$replied" -gt 0 ] || fail "no replies in the side-files run"
head -n 1 "$csv" | grep -q '^elapsed_s,.*_us' || fail "interval CSV header lacks units: $(head -n 1 "$csv")"
rows=$(($(wc -l <"$csv") - 1))
[ "$rows" -ge 4 ] || fail "interval CSV has $rows rows, expected at least 4"
[ "$(grep -c '' <<<"$ERR")" -ge 4 ] || fail "fewer than 4 progress lines on stderr: $ERR"
# The columns added last: the interval's end in UTC, today's date, rising
# row by row; min <= mean <= max of the interval's latency; and the rule for
# what its samples define, whichever count an interval happens to get (a
# reply that straggles past the last whole interval makes a final one of a
# single sample): none, no latency figure; one, every figure that sample
# but no standard deviation; two or more, a deviation of 0 or more.
today=$(date -u +%Y-%m-%d)
awk -F, -v today="$today" '
    NR == 1 { if ($13 != "utc" || $14 != "min_us" || $15 != "mean_us" || $16 != "stddev_us" ||
                  $17 != "latency_samples") exit 1; next }
    $13 !~ "^" today "T[0-9][0-9]:[0-9][0-9]:[0-9][0-9][.][0-9][0-9][0-9][0-9][0-9][0-9]Z$" || $13 <= previous { exit 1 }
    $17 !~ /^[0-9]+$/ { exit 1 }
    $17 == 0 && ($7 != "" || $8 != "" || $9 != "" || $14 != "" || $15 != "" || $16 != "") { exit 1 }
    $17 >= 1 && !($7 != "" && $14 <= $15 && $15 <= $9) { exit 1 }
    $17 == 1 && !($16 == "" && $14 == $15 && $15 == $9) { exit 1 }
    $17 >= 2 && !($16 != "" && $16 >= 0) { exit 1 }
    { previous = $13 }' "$csv" ||
    fail "interval CSV: bad utc, min_us, mean_us, stddev_us or latency_samples: $(cat "$csv")"
grep '^\[' <<<"$ERR" | grep -qE "\| min +[0-9.]+ mean +[0-9.]+ sd +[0-9.]+ us \| ${today}T" ||
    fail "progress lines lack min, mean, sd or the UTC time: $ERR"
pass "--interval-csv: header with units and $rows rows"

[ "$(head -n 1 "$latencies")" = flow,sequence,due_ns,send_ns,reply_ns,corrected_ns,uncorrected_ns ] ||
    fail "latency file header: $(head -n 1 "$latencies")"
rows=$(($(wc -l <"$latencies") - 1))
[ "$rows" = "$replied" ] || fail "latency file has $rows rows, the report $replied replies"
# Timed from when it was due, a message can only look slower than timed from
# its send, which never comes before the due time.
awk -F, 'NR > 1 && ($6 < $7 || $4 < $3) { print "row " NR ": " $0; bad = 1 } END { exit bad }' \
    "$latencies" >&2 || fail "a latency row has corrected_ns < uncorrected_ns or a send before its due time"
pass "--latency-file: $rows rows, corrected >= uncorrected on each"

# Our log holds one histogram per interval; the reader's totals merge them
# into the whole run, which is what the JSON reports.
check_histogram_log "$hlog" "$replied" "$(json_field "$json" load.latency_corrected.p99_us)"
check_histogram_log "$hlog" "$replied" "$(json_field "$json" load.latency_uncorrected.p99_us)" \
    uncorrected

# Usage errors: exit 2 and a sentence naming the rule.
expect_usage_error() {
    local pattern=$1
    shift
    run_capture 2 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" "$@"
    grep -q -- "$pattern" <<<"$ERR" || fail "'$*': stderr lacks '$pattern': $ERR"
    pass "$* -> exit 2"
}
expect_usage_error "16-byte message header" --rate 10 -s 3
expect_usage_error "exclude each other" -s 7 --rate 1 --throughput
expect_usage_error "exclude each other" -s 7 -c 10 --duration 1
expect_usage_error "needs --rate or --throughput" -s 7 --echo-every 2
expect_usage_error "ping-pong with --flows.*needs -s 4" -s 3 --flows 2

# Ping-pong over four flows runs framed on the engine: a closed loop per
# flow, every round trip timed from its send, exact counts.
load_run framed_pingpong -s 7 --flows 4 -c 500 --interval 0.1 \
    --interval-csv "$WORK_DIR/framed.interval.csv"
json=$WORK_DIR/framed_pingpong.json
expect_field "$json" config.mode ping-pong
expect_field "$json" load.mode ping-pong
expect_field "$json" load.latency_corrected null
for flow in 0 1 2 3; do
    expect_field "$json" "load.per_flow.$flow.messages_sent" 500
    expect_field "$json" "load.per_flow.$flow.messages_replied" 500
done
expect_field "$json" load.messages_received_by_server 2000
expect_field "$json" load.messages_lost 0
expect_field "$json" load.latency_uncorrected.num_points 2000
expect_field "$json" percentiles.p50_us "$(json_field "$json" load.latency_uncorrected.p50_us)"
[ "$(head -1 "$WORK_DIR/framed.interval.csv" | cut -d, -f1)" = elapsed_s ] ||
    fail "framed ping-pong: no interval CSV header"
pass "ping-pong --flows 4 -c 500: 4 closed loops of 500 round trips, $(json_field "$json" load.rate_achieved_per_s) round trips/s per flow"

# Eight flows at 1000/s each: 8 connections, each with its own count, each
# a session of 500 + 100 primer messages on the server.
sessions_before=$(log_count "finished 600 messages")
load_run flows -s 7 --flows 8 --rate 1000 -c 500
json=$WORK_DIR/flows.json
expect_field "$json" load.flows 8
expect_field "$json" load.per_flow.7.flow 7
expect_field "$json" load.per_flow.8 null
for flow in 0 1 2 3 4 5 6 7; do
    expect_field "$json" "load.per_flow.$flow.messages_sent" 500
    expect_field "$json" "load.per_flow.$flow.messages_replied" 500
    expect_field "$json" "load.per_flow.$flow.messages_lost" 0
done
expect_field "$json" load.messages_sent 4000
expect_field "$json" load.messages_received_by_server 4000
expect_field "$json" load.messages_replied 4000
expect_field "$json" load.latency_corrected.num_points 4000
# The sessions end on the server a moment after the client returns.
for _ in $(seq 100); do
    sessions=$(($(log_count "finished 600 messages") - sessions_before))
    [ "$sessions" -ge 8 ] && break
    sleep 0.05
done
[ "$sessions" = 8 ] || {
    cat "$SERVER_LOG" >&2
    fail "the server logged $sessions finished sessions, expected 8"
}
pass "--flows 8 --rate 1000 -c 500: 8 flows of 500, 8 server sessions"

# Socket buffers on both ends: Linux doubles the request (root's
# SO_*BUFFORCE passes net.core.[rw]mem_max, which would cap it), and the
# reports carry what the sockets read back, exactly. 50000 and 60000 read
# back as 100000 and 120000, which no default is: not net.core.[rw]mem_default
# (212992 on Debian 12), nor the middle values of net.ipv4.tcp_[wr]mem that a
# TCP socket starts with (16384, 131072), nor what a server given no sizes
# read back in the runs above (its send buffer autotuned to a few MB, its
# receive buffer 131072 - which 65536 doubled would have matched). The two
# differ, so one option's size applied to the other buffer shows too.
sndbuf=50000
rcvbuf=60000
for default in $(cat /proc/sys/net/core/wmem_default /proc/sys/net/core/rmem_default) \
    $(awk '{ print $2 }' /proc/sys/net/ipv4/tcp_wmem /proc/sys/net/ipv4/tcp_rmem) \
    "$(json_field "$WORK_DIR/flows.json" server.sndbuf_bytes)" \
    "$(json_field "$WORK_DIR/flows.json" server.rcvbuf_bytes)"; do
    if [ "$default" = $((2 * sndbuf)) ] || [ "$default" = $((2 * rcvbuf)) ]; then
        fail "a default socket buffer here is $default bytes, what --sndbuf $sndbuf or --rcvbuf $rcvbuf reads back: pick other sizes"
    fi
done
start_server SOCK_STREAM_srv -t tcp --sndbuf "$sndbuf" --rcvbuf "$rcvbuf"
load_run buffers -s 7 -c 200 --rate 2000 --sndbuf "$sndbuf" --rcvbuf "$rcvbuf"
json=$WORK_DIR/buffers.json
expect_field "$json" config.sndbuf_requested_bytes "$sndbuf"
expect_field "$json" config.rcvbuf_requested_bytes "$rcvbuf"
for end in environment.client_ server.; do
    expect_field "$json" "${end}sndbuf_bytes" $((2 * sndbuf))
    expect_field "$json" "${end}rcvbuf_bytes" $((2 * rcvbuf))
done
pass "--sndbuf $sndbuf --rcvbuf $rcvbuf: client and server read back $((2 * sndbuf)) and $((2 * rcvbuf)) bytes"
