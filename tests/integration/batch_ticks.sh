#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --batch and --tick-rate over TCP on loopback. The server counts every
# message it is sent and reads the stream by the agreed size alone, so a
# batch that lost, doubled or cut a message (a partial write resumed in the
# wrong place) would make its count differ or end the run out of step. Each
# run's count must equal the client's exactly, and the report must give the
# messages per system call: above 1 with --batch in throughput mode, never
# above 1 without it. Ticks are seen in the send calls (a tick's messages in
# one call) and in the latency file (every due time on a tick).
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
start_server SOCK_STREAM_srv -t tcp

# Every message the client sent, the server counted (primers apart), none
# lost; and the calls make up the messages per call reported. Perl, in
# single quotes: check_json runs it.
# shellcheck disable=SC2016
exact_accounting='
    same "messages_received_by_server", $l->{messages_received_by_server}, $l->{messages_sent};
    same "server messages_received", $l->{server}{messages_received},
        $l->{messages_sent} + 100 * $l->{flows};
    same "messages_lost", $l->{messages_lost}, 0;
    my $per_call = $l->{messages_sent} / $l->{send_calls};  # the report rounds to 6 digits
    die "messages_per_send_call $l->{messages_per_send_call}, not sent / calls = $per_call\n"
        unless abs($l->{messages_per_send_call} / $per_call - 1) < 1e-5;
'
# A tick's messages go out in calls of their own only while the client keeps
# its ticks: one stalled by a whole tick (100 ms, seen on a loaded machine)
# finds the next tick due too and sends both in the same calls, so fewer.
# ticked_calls WANT FEWEST: exactly WANT calls when no message slipped by a
# tick, otherwise no more than WANT and no fewer than FEWEST, the calls of
# every message sent at once.
# shellcheck disable=SC2016
ticked_calls='
    sub ticked_calls { my ($want, $fewest) = @_;
        my ($calls, $slip) = ($l->{send_calls}, $l->{schedule_slip_max_us});
        die "no schedule_slip_max_us\n" unless defined $slip;
        if ($slip < 100000) { same "send_calls", $calls, $want; return }
        die "send_calls $calls, not within $fewest..$want\n" if $calls > $want || $calls < $fewest;
        print STDERR "note: a message slipped by $slip us, more than a tick: $calls calls, not $want\n";
    }
'

# Throughput, counted: 20,000 messages of 100 bytes (not a divisor of any
# buffer, so that a full socket cuts one) in calls of up to 16.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" --payload-bytes 100 --throughput \
    -c 20000 --batch 16 --interval 0 --json-file "$WORK_DIR/b16.json"
check_json "$WORK_DIR/b16.json" "
    $exact_accounting
    same 'messages_sent', \$l->{messages_sent}, 20000;
    same 'batch', \$l->{batch}, 16;
    same 'config batch', \$d->{config}{batch}, 16;
    die qq{messages per call \$l->{messages_per_send_call}, not above 1\n}
        unless \$l->{messages_per_send_call} > 1;
    die qq{messages per call \$l->{messages_per_send_call}, above --batch\n}
        unless \$l->{messages_per_send_call} <= 16;
" || fail "--throughput --batch 16: accounting"
grep -Eq $'^\tsend calls: [0-9.]+ messages per system call, up to 16 \\(--batch\\): 20000 messages in [0-9]+ calls$' \
    <<<"$OUT" || fail "--throughput --batch 16: no send calls line: $OUT"
pass "--throughput --batch 16: 20000 sent, 20000 counted, $(json_field "$WORK_DIR/b16.json" load.messages_per_send_call) messages per call"

# Without --batch: one message per call at most (a message cut by a full
# socket takes two).
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" --payload-bytes 100 --throughput \
    -c 20000 --interval 0 --json-file "$WORK_DIR/b1.json"
check_json "$WORK_DIR/b1.json" "
    $exact_accounting
    same 'batch', \$l->{batch}, 1;
    die qq{messages per call \$l->{messages_per_send_call} without --batch\n}
        unless \$l->{messages_per_send_call} <= 1;
" || fail "--throughput: accounting"
pass "--throughput without --batch: one message per call"

# Large messages, two flows, a duration: calls of 64 KiB and more fill the
# socket often, mid-message.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 12 --throughput --flows 2 \
    --duration 0.5 --batch 64 --interval 0 --json-file "$WORK_DIR/big.json"
check_json "$WORK_DIR/big.json" "$exact_accounting" || fail "-s 12 --batch 64: accounting"
pass "-s 12 --throughput --flows 2 --batch 64: $(json_field "$WORK_DIR/big.json" load.messages_sent) sent and counted"

# Rate mode: 2 flows of 20,000 msg/s. A sender on time sends one message
# per call; one behind, several, each timed from its own due time.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 5 --rate 20000 --flows 2 \
    -c 5000 --batch 8 --interval 0 --json-file "$WORK_DIR/rate.json"
check_json "$WORK_DIR/rate.json" "
    $exact_accounting
    same 'messages_sent', \$l->{messages_sent}, 10000;
    same 'messages_replied', \$l->{messages_replied}, 10000;
    die qq{messages per call \$l->{messages_per_send_call}\n}
        unless \$l->{messages_per_send_call} >= 1 && \$l->{messages_per_send_call} <= 8;
" || fail "--rate --batch 8: accounting"
pass "--rate 20000 --flows 2 --batch 8: 10000 sent, counted and answered"

# Ticks: 1,000 msg/s in 10 ticks a second, 1,000 messages: each tick's 100
# go together at its start, in one call (--batch 1024), so exactly 10
# calls, where a sender on time without ticks makes about 1,000. Every due
# time in the latency file (nanoseconds from t0) is on a tick, a multiple
# of 100 ms.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 5 --rate 1000 --tick-rate 10 \
    -c 1000 --batch 1024 --interval 0 --latency-file "$WORK_DIR/ticks.csv" \
    --json-file "$WORK_DIR/ticks.json"
check_json "$WORK_DIR/ticks.json" "
    $exact_accounting
    $ticked_calls
    same 'messages_sent', \$l->{messages_sent}, 1000;
    ticked_calls(10, 1);
    same 'tick_rate_per_s', \$l->{tick_rate_per_s}, 10;
    same 'config tick_rate_per_s', \$d->{config}{tick_rate_per_s}, 10;
" || fail "--tick-rate 10: accounting"
grep -q $'^\tticks: 10 per second: the messages due within each tick of 100000.000 us go together at its start, and are timed from it$' \
    <<<"$OUT" || fail "--tick-rate 10: no ticks line"
read -r rows off_tick < <(awk -F, 'NR > 1 { n++; if ($3 % 100000000 != 0) bad++ } END { print n, bad + 0 }' \
    "$WORK_DIR/ticks.csv")
[ "$rows" = 1000 ] && [ "$off_tick" = 0 ] ||
    fail "--tick-rate 10: $rows timed messages, $off_tick due off a tick"
pass "--tick-rate 10: 1000 messages in 10 calls, every one due at its tick"

# The same ticks with --batch 16: a tick's 100 messages in 7 calls (6 of
# 16, one of 4), still all due at the tick.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 5 --rate 1000 --tick-rate 10 \
    -c 1000 --batch 16 --interval 0 --json-file "$WORK_DIR/ticks16.json"
check_json "$WORK_DIR/ticks16.json" "
    $exact_accounting
    $ticked_calls
    ticked_calls(70, 63);
" || fail "--tick-rate 10 --batch 16: accounting"
pass "--tick-rate 10 --batch 16: a tick's 100 messages in 7 calls"

# What cannot apply is a usage error that says why.
run_capture 2 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 --batch 4
grep -q -- "--batch needs --rate or --throughput: ping-pong has one request in flight" <<<"$ERR" ||
    fail "--batch in ping-pong: no sentence: $ERR"
run_capture 2 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 --flows 2 --batch 4
grep -q -- "--batch needs --rate or --throughput" <<<"$ERR" ||
    fail "--batch in framed ping-pong: no sentence: $ERR"
run_capture 2 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 --throughput --tick-rate 1000
grep -q -- "--tick-rate needs --rate, not --throughput" <<<"$ERR" ||
    fail "--tick-rate with --throughput: no sentence: $ERR"
pass "--batch in ping-pong and --tick-rate with --throughput are usage errors"
