#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs of several client hosts merged: three clients load one server over TCP
# loopback at the same time (rate mode, 2 s, each writing its JSON report and
# its HdrHistogram log). sctp-perf-compare --merge must add their counts
# exactly and put the merged p99 between the clients' own; --merge-logs must
# write one log in which HdrHistogram's Java reader finds every client's
# values and the p99 of all of them. Bad inputs are refused with exit 2: a
# report or a log given twice, and runs that did not measure at once (unless
# --allow-apart, which merges them without a rate).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/hdr_log_reader.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
compare="$BIN_DIR/sctp-perf-compare"
clients=(1 2 3)

start_server SOCK_STREAM_srv -t tcp
pids=()
for i in "${clients[@]}"; do
    timeout 60 "$clt" -t tcp -p "$SERVER_PORT" -s 6 --rate 500 --duration 2 \
        --histogram-log "$WORK_DIR/c$i.hlog" --format json \
        >"$WORK_DIR/c$i.json" 2>"$WORK_DIR/c$i.err" &
    pids+=("$!")
    STARTED_PIDS+=("$!")
done
for i in "${clients[@]}"; do
    wait "${pids[i - 1]}" || {
        cat "$WORK_DIR/c$i.err" >&2
        fail "client $i failed"
    }
done
reports=() logs=()
for i in "${clients[@]}"; do
    reports+=("$WORK_DIR/c$i.json")
    logs+=("$WORK_DIR/c$i.hlog")
done
pass "${#clients[@]} clients ran at the same time against one server"

merged=$WORK_DIR/merged.json
run_capture 0 "$compare" --merge "${reports[@]}" -o "$merged"
grep -q '^merged ' <<<"$OUT" || fail "the text report has no merged row: $OUT"
grep -q 'distribution over every timed message of every client' <<<"$OUT" ||
    fail "the text report does not say what the merged latency is"
check_merged_sums "$merged" "summary.num_points load.messages_sent load.messages_replied
    load.messages_lost load.messages_received_by_server load.server.bytes_received" "${reports[@]}"
pass "--merge: counts are the sums ($(json_field "$merged" load.messages_sent) sent, $(json_field "$merged" summary.num_points) timed)"
[ "$(json_field "$merged" hosts.2.hostname)" = "$(json_field "${reports[2]}" environment.hostname)" ] ||
    fail "hosts[2] is not the third report's host"
[ "$(json_field "$merged" hosts.1.num_points)" = "$(json_field "${reports[1]}" summary.num_points)" ] ||
    fail "hosts[1] does not carry the second report's count"

p99s=$(for f in "${reports[@]}"; do json_field "$f" percentiles.p99_us; echo; done)
merged_p99=$(json_field "$merged" percentiles.p99_us)
awk -v merged="$merged_p99" 'NR == 1 || $1 < low { low = $1 } NR == 1 || $1 > high { high = $1 }
    END { exit !(merged >= low && merged <= high) }' <<<"$p99s" ||
    fail "merged p99 $merged_p99 us is not between the clients' p99s: $(tr '\n' ' ' <<<"$p99s")"
pass "--merge: p99 $merged_p99 us lies between the clients' ($(tr '\n' ' ' <<<"$p99s"))"

merged_log=$WORK_DIR/merged.hlog
run_capture 0 "$compare" --merge-logs "${logs[@]}" -o "$merged_log"
echo "$OUT"
# Each client's log holds every timed reply (load_modes.sh), so the merged
# log holds them all, and its p99 is the merged report's, which comes from
# the histogram of every client's samples.
check_histogram_log "$merged_log" "$(json_field "$merged" summary.num_points)" \
    "$(json_field "$merged" load.latency_corrected.p99_us)"
check_histogram_log "$merged_log" "$(json_field "$merged" load.latency_uncorrected.num_points)" \
    "$(json_field "$merged" load.latency_uncorrected.p99_us)" uncorrected

# Refusals: a report of another size, a log that is not one, too few inputs.
perl -MJSON::PP -e '
    local $/; open my $f, "<", $ARGV[0] or die; my $d = JSON::PP->new->decode(<$f>);
    $d->{config}{payload_bytes} = 128; print JSON::PP->new->encode($d);
' "${reports[0]}" >"$WORK_DIR/other-size.json"
run_capture 2 "$compare" --merge "${reports[1]}" "$WORK_DIR/other-size.json"
grep -q 'other-size.json' <<<"$ERR" && grep -q -- '--allow-different' <<<"$ERR" ||
    fail "a report of another size was not refused by name: $ERR"
echo "0.000,1.000,0.0,HISTFAAAgarbage" >"$WORK_DIR/bad.hlog"
run_capture 2 "$compare" --merge-logs "${logs[0]}" "$WORK_DIR/bad.hlog" -o "$WORK_DIR/x.hlog"
grep -q 'bad.hlog' <<<"$ERR" || fail "a broken log was not refused by name: $ERR"
run_capture 2 "$compare" --merge "${reports[0]}"
grep -q 'two or more' <<<"$ERR" || fail "one report to merge was not refused: $ERR"
run_capture 2 "$compare" --merge-logs "${logs[@]}"
grep -q -- '-o FILE' <<<"$ERR" || fail "--merge-logs without -o was not refused: $ERR"
pass "bad inputs refused with exit 2 and a sentence"

# Each input once: a report or a log given twice would count twice.
run_capture 2 "$compare" --merge "${reports[@]}" "${reports[0]}"
grep -q "^sctp-perf-compare: ${reports[0]} is given twice: each report must count once" <<<"$ERR" ||
    fail "a report given twice to --merge was not refused: $ERR"
cp "${logs[1]}" "$WORK_DIR/copy.hlog"
run_capture 2 "$compare" --merge-logs "${logs[@]}" "$WORK_DIR/copy.hlog" -o "$WORK_DIR/x.hlog"
grep -q "^sctp-perf-compare: ${logs[1]} and $WORK_DIR/copy.hlog are the same log" <<<"$ERR" ||
    fail "a copied log given to --merge-logs was not refused: $ERR"
pass "a report or a log given twice: refused (exit 2)"

# Three ping-pong runs one after another did not load the server at once:
# their rates do not add up, so the merge is refused, or made without a rate.
sequential=()
for i in 1 2 3; do
    run_capture 0 "$clt" -t tcp -p "$SERVER_PORT" -s 6 -c 500 --format json
    printf '%s\n' "$OUT" >"$WORK_DIR/seq$i.json"
    sequential+=("$WORK_DIR/seq$i.json")
done
run_capture 2 "$compare" --merge "${sequential[@]}"
grep -q "^sctp-perf-compare: $WORK_DIR/seq3.json began to measure [0-9.]* s after $WORK_DIR/seq1.json had finished (measurement_began_at plus summary.duration_s): the clients did not measure at once, so their rates do not add up (--allow-apart merges their latencies, without a rate)$" <<<"$ERR" ||
    fail "sequential runs were merged as if at once: $ERR"
run_capture 0 "$compare" --merge "${sequential[@]}" --allow-apart -o "$WORK_DIR/apart.json"
grep -q '^Not at once (--allow-apart): ' <<<"$OUT" || fail "--allow-apart: the text does not say so: $OUT"
grep -q '^totals: 1500 round trips, - round trips/s in all$' <<<"$OUT" ||
    fail "--allow-apart: a rate was given in all: $OUT"
check_json "$WORK_DIR/apart.json" '
    same("measured_at_once", $d->{measured_at_once} ? "true" : "false", "false");
    same("round_trips", $d->{ping_pong}{round_trips}, 1500);
    die "round_trips_per_s is $d->{ping_pong}{round_trips_per_s}, not null\n"
        if defined $d->{ping_pong}{round_trips_per_s};'
run_capture 0 "$compare" --merge "${reports[@]}" --format json
printf '%s\n' "$OUT" >"$WORK_DIR/at-once.json"
check_json "$WORK_DIR/at-once.json" 'same("measured_at_once", $d->{measured_at_once} ? "true" : "false", "true")'
pass "runs one after another: refused (exit 2), merged without a rate with --allow-apart"
