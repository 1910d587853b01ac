#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The warm-up over TCP on loopback: --primer sets the unrecorded round trips
# before measuring, and the server, which counts every message it is sent,
# must have seen exactly the measured ones plus that primer. A client that
# kept ACE's fixed 100 would make the server count 100 where these runs ask
# for 7 or 0. --warmup S runs S seconds more before a --duration, unrecorded:
# the server's count is then the primer, the warm-up and the measured ones,
# each of which the client reports apart.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
start_server SOCK_STREAM_srv -t tcp

# Ping-pong: the test header asks the server for -c + --primer round trips.
# ping_pong PRIMER: 50 measured round trips after PRIMER primers.
ping_pong() {
    local primer=$1 total=$((50 + $1))
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 50 --primer "$primer" \
        --json-file "$WORK_DIR/pp.json"
    check_json "$WORK_DIR/pp.json" "
        same 'num_points', \$d->{summary}{num_points}, 50;
        same 'primer_iterations', \$d->{config}{primer_iterations}, $primer;
    " || fail "ping-pong --primer $primer: wrong report"
    grep -q $'^\titerations: 50 measured, after '"$primer"' unrecorded primer iterations$' <<<"$OUT" ||
        fail "ping-pong --primer $primer: the iterations line does not state the primer"
    wait_for_log "Test for $total iterations"
    wait_for_log "finished $total iterations"
    pass "ping-pong --primer $primer: the server served 50 + $primer round trips"
}
ping_pong 7
ping_pong 0

# The framed modes: each of 2 flows sends 30 measured messages after PRIMER
# primers; the server counts the primers too, the client's count does not.
# load LABEL PRIMER CLIENT-ARGS...
load() {
    local label=$1 primer=$2
    shift 2
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 5 --flows 2 -c 30 \
        --primer "$primer" --interval 0 --json-file "$WORK_DIR/load.json" "$@"
    check_json "$WORK_DIR/load.json" "
        my \$l = \$d->{load};
        my (\$flows, \$sent, \$primer) = (2, 30, $primer);
        same 'primer_iterations', \$d->{config}{primer_iterations}, \$primer;
        same 'messages_sent', \$l->{messages_sent}, \$flows * \$sent;
        same 'messages_received_by_server', \$l->{messages_received_by_server}, \$flows * \$sent;
        same 'messages_lost', \$l->{messages_lost}, 0;
        same 'server messages_received', \$l->{server}{messages_received}, \$flows * (\$sent + \$primer);
        same 'server replies_sent', \$l->{server}{replies_sent}, \$flows * (\$sent + \$primer);
    " || fail "$label --primer $primer: accounting"
    grep -q $'^\tprimer: '"$primer"' unrecorded round trips on each flow before the load$' <<<"$OUT" ||
        fail "$label --primer $primer: the primer line"
    pass "$label --primer $primer: the server counted 2 x (30 + $primer) messages"
}
load "rate" 7 --rate 2000
load "rate" 0 --rate 2000
load "framed ping-pong" 7

# --warmup in ping-pong: 0.3 s of round trips after the primer, then 0.5 s
# measured. The server, told to serve until the client closes, counts
# them all: primer + warm-up + measured, exactly.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 --duration 0.5 --warmup 0.3 \
    --json-file "$WORK_DIR/pp.json"
warm=$(json_field "$WORK_DIR/pp.json" warmup.round_trips)
measured=$(json_field "$WORK_DIR/pp.json" summary.num_points)
[ "$(json_field "$WORK_DIR/pp.json" warmup.duration_s)" = 0.3 ] || fail "ping-pong --warmup: duration_s"
[ "$warm" -gt 0 ] && [ "$measured" -gt 0 ] || fail "ping-pong --warmup: $warm warm-up, $measured measured"
perl -e 'exit !($ARGV[0] >= 0.5 && $ARGV[0] < 0.8)' -- "$(json_field "$WORK_DIR/pp.json" summary.duration_s)" ||
    fail "ping-pong --warmup: the measured duration is not the 0.5 s asked"
grep -q $'^	warm-up: 0.300 s after the primer, not recorded: '"$warm"' round trips$' <<<"$OUT" ||
    fail "ping-pong --warmup: the warm-up line"
wait_for_log "finished $((100 + warm + measured)) iterations"
pass "ping-pong --warmup 0.3: the server served 100 + $warm + $measured round trips"

# --warmup in rate mode: 2 flows of 1000 messages per second, 0.5 s of
# warm-up, then 1 s measured. The schedule decides by due time, so the
# counts are exact however late the client runs: 2 x 500 in the warm-up,
# 2 x 1000 measured, and the server counts 2 x 100 primers on top:
# 200 + 1000 + 2000 = 3200. The progress lines cover the measured second
# alone: 4 intervals of 0.25 s whose sends add up to the 2000 (with the
# warm-up in them, 6 adding up to 3000).
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 5 --flows 2 --rate 1000 \
    --duration 1 --warmup 0.5 --interval 0.25 --interval-csv "$WORK_DIR/intervals.csv" \
    --json-file "$WORK_DIR/load.json"
check_json "$WORK_DIR/load.json" "
    my \$l = \$d->{load};
    same 'warmup duration_s', \$d->{warmup}{duration_s}, 0.5;
    same 'warmup messages', \$d->{warmup}{messages}, 1000;
    same 'messages_sent', \$l->{messages_sent}, 2000;
    same 'messages_replied', \$l->{messages_replied}, 2000;
    same 'messages_lost', \$l->{messages_lost}, 0;
    same 'messages_received_by_server', \$l->{messages_received_by_server}, 2000;
    same 'server messages_received', \$l->{server}{messages_received}, 3200;
    same 'num_points', \$d->{summary}{num_points}, 2000;
    die 'duration_s is ' . \$d->{summary}{duration_s} . qq{, not the measured second\n}
        unless \$d->{summary}{duration_s} >= 0.99 && \$d->{summary}{duration_s} < 1.5;
" || fail "rate --warmup: accounting"
grep -q $'^\twarm-up: 0.500 s of load after the primer, not recorded: 1000 messages sent in it, in no other count$' \
    <<<"$OUT" || fail "rate --warmup: the warm-up line"
read -r lines sent < <(awk -F, 'NR > 1 { n++; s += $3 } END { print n, s }' "$WORK_DIR/intervals.csv")
# (A fifth, short line when the last replies come in after the second.)
[ "$lines" -ge 4 ] && [ "$lines" -le 5 ] && [ "$sent" = 2000 ] ||
    fail "rate --warmup: the interval CSV has $lines lines sending $sent, not 4 sending 2000"
pass "rate --warmup 0.5: 1000 messages unrecorded, 2000 measured, the server counted 3200"

# --warmup unpaced, in throughput mode and in framed ping-pong (2 flows):
# whatever the counts, the server's is the primers, the warm-up and the
# measured ones, and the measured are the client's.
for mode in "--throughput" "--flows 2"; do
    # shellcheck disable=SC2086 # the mode's words are meant to split
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 5 $mode --duration 0.3 \
        --warmup 0.2 --interval 0 --json-file "$WORK_DIR/load.json"
    check_json "$WORK_DIR/load.json" "
        my \$l = \$d->{load};
        my \$warm = \$d->{warmup}{messages};
        die qq{no warm-up messages\n} unless \$warm > 0;
        same 'server messages_received', \$l->{server}{messages_received},
            100 * \$l->{flows} + \$warm + \$l->{messages_sent};
        same 'messages_received_by_server', \$l->{messages_received_by_server}, \$l->{messages_sent};
    " || fail "$mode --warmup: accounting"
    pass "$mode --warmup 0.2: the server counted the primers, the warm-up and the measured"
done

# --warmup with --start-at: the warm-up runs before the instant, so that the
# measurement begins at it, as on every other host given the same instant.
# Begun at the instant instead, the measurement would be 0.5 s late. The
# instant is 3 to 4 s ahead, whole seconds: start-up, connection, primer and
# warm-up fit in that under a sanitizer on a busy machine (2 s ahead left
# 1.5 s for them). A control waits for the same instant beside the client
# (start_wait_control), so that a stall of the machine at the instant, which
# makes both late, is not counted against the client.
for mode in "-s 4" "-s 5 --rate 1000"; do
    instant=$(($(date +%s) + 4))
    start_wait_control "$instant" "$WORK_DIR/control"
    # shellcheck disable=SC2086 # the mode's words are meant to split
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" $mode --duration 0.3 --warmup 0.5 \
        --interval 0 --start-at "$instant" --json-file "$WORK_DIR/start.json"
    late_allowance "$WORK_DIR/control" 100000
    late_us=$(json_field "$WORK_DIR/start.json" start_at.late_us)
    perl -e 'exit !(abs($ARGV[0]) < $ARGV[1])' -- "$late_us" "$LATE_ALLOWANCE_US" ||
        fail "--warmup 0.5 --start-at ($mode): the measurement began $late_us us from the instant"
    pass "--warmup 0.5 --start-at ($mode): the measurement began at the instant ($late_us us late)"
done

# --warmup needs a --duration: a usage error naming the rule.
run_capture 2 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 10 --warmup 1
grep -q -- "--warmup needs --duration" <<<"$ERR" || fail "--warmup with -c: no sentence"
pass "--warmup with -c is a usage error"

# A bad count is a usage error naming the rule.
run_capture 2 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 --primer 1000001
grep -q -- "--primer must be 0..1000000" <<<"$ERR" || fail "--primer 1000001: no sentence"
pass "--primer 1000001 is a usage error"

# A server that goes silent in the warm-up: the client's one line says the
# run was in its warm-up, and no progress line is printed for the
# measurement that never began (its time would be negative).
start_server SOCK_STREAM_srv -t tcp
(sleep 1 && kill -STOP "$SERVER_PID") &
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 5 --rate 100 --duration 1 \
    --warmup 3 --io-timeout 1 --interval 0.5
kill -CONT "$SERVER_PID"
grep -q "flow 0, [0-9.]* s into the run (in the warm-up): no whole reply" <<<"$ERR" ||
    fail "silent in the warm-up: the failure does not say so: $ERR"
! grep -q '^\[ *-' <<<"$ERR" || fail "silent in the warm-up: a progress line before the measurement"
pass "a server silent in the warm-up: exit 1, named as in the warm-up"
