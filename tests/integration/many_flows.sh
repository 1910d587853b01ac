#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A thousand flows against one server: every message accounted for, and the
# server serving them all from its worker threads (each an event loop), not
# a thread per connection. Its thread count is read from /proc while the
# flows run: --threads 2 makes the main thread and 2 workers, 3 in all,
# whatever the number of flows (a thread per session made 1,001). Up to 2
# more are allowed, the target's "online CPUs + 3", for a runtime's own
# (ThreadSanitizer runs one in the background). Then two thousand flows,
# set up a few at a time and dealt over two local addresses.
source "$(dirname "$0")/lib.sh"

flows=1000
start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1 --threads 2 --quiet
out=$WORK_DIR/flows.json
timeout 120 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 \
    --flows "$flows" --total-rate 4000 --duration 4 --interval 0 --format json \
    >"$out" 2>"$WORK_DIR/flows.err" &
client=$!
most_threads=0
while kill -0 "$client" 2>/dev/null; do
    threads=$(awk '/^Threads:/ { print $2 }' "/proc/$SERVER_PID/status")
    [ "${threads:-0}" -gt "$most_threads" ] && most_threads=$threads
    sleep 0.2
done
status=0
wait "$client" || status=$?
[ "$status" -eq 0 ] || {
    cat "$WORK_DIR/flows.err" >&2
    fail "the client of $flows flows exited $status"
}
[ "$most_threads" -ge 3 ] && [ "$most_threads" -le 5 ] ||
    fail "the server ran $most_threads threads for $flows flows, expected 3 (at most 5)"
sent=$(json_field "$out" load.messages_sent)
by_server=$(json_field "$out" load.messages_received_by_server)
replied=$(json_field "$out" load.messages_replied)
lost=$(json_field "$out" load.messages_lost)
# 4 s at 4,000 messages/s in all, 4 per second per flow: 16 per flow.
[ "$sent" -eq $((16 * flows)) ] || fail "sent $sent, expected $((16 * flows))"
[ "$by_server" = "$sent" ] && [ "$replied" = "$sent" ] && [ "$lost" = 0 ] ||
    fail "sent $sent, received by the server $by_server, replied $replied, lost $lost"
[ "$(json_field "$out" server.threads)" = 2 ] || fail "the server's settings do not say 2 threads"
pass "$flows flows: $sent messages sent, received and answered, none lost; the server ran $most_threads threads"

# Two thousand flows set up 16 at a time (--connect-window 16), dealt over
# two local addresses (-i): every message accounted for, and 1,000
# connections from each address, as `ss` sees them while the flows run.
flows=2000
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt $((flows + 64)) ]; then
    echo "SKIP part: $flows flows need ulimit -Hn $((flows + 64)), this shell has $(ulimit -Hn)"
else
    out=$WORK_DIR/dealt.json
    timeout 120 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 \
        --flows "$flows" --connect-window 16 -i 127.0.0.1,127.0.0.2 --total-rate 4000 \
        --duration 4 --interval 0 --format json >"$out" 2>"$WORK_DIR/dealt.err" &
    client=$!
    dealt=
    while kill -0 "$client" 2>/dev/null; do
        # With a state filter ss leaves the state out: the local address is
        # the third column.
        counts=$(ss -Htn state established "( dport = :$SERVER_PORT )" |
            awk '{ sub(/:[0-9]+$/, "", $3); n[$3]++ } END { print n["127.0.0.1"] + 0, n["127.0.0.2"] + 0 }')
        [ "$counts" = "1000 1000" ] && dealt=yes
        sleep 0.2
    done
    status=0
    wait "$client" || status=$?
    [ "$status" -eq 0 ] || {
        cat "$WORK_DIR/dealt.err" >&2
        fail "the client of $flows flows over two addresses exited $status"
    }
    [ -n "$dealt" ] || fail "never saw 1000 connections from each of 127.0.0.1 and 127.0.0.2 (last: $counts)"
    sent=$(json_field "$out" load.messages_sent)
    by_server=$(json_field "$out" load.messages_received_by_server)
    replied=$(json_field "$out" load.messages_replied)
    lost=$(json_field "$out" load.messages_lost)
    # 4 s at 4,000 messages/s in all, 2 per second per flow: 8 per flow.
    [ "$sent" -eq $((8 * flows)) ] || fail "sent $sent, expected $((8 * flows))"
    [ "$by_server" = "$sent" ] && [ "$replied" = "$sent" ] && [ "$lost" = 0 ] ||
        fail "sent $sent, received by the server $by_server, replied $replied, lost $lost"
    pass "$flows flows, 16 set up at a time, 1000 from each of two addresses: $sent messages sent, received and answered, none lost (set-up $(json_field "$out" load.setup_s) s)"
fi

# More clients than the descriptor limit allows is a usage error that says
# what to do, before the server listens.
status=0
(ulimit -n 256 && exec "$BIN_DIR/SOCK_STREAM_srv" -t tcp -a 127.0.0.1 -p 0 --max-clients 1000) \
    >"$WORK_DIR/limit.out" 2>"$WORK_DIR/limit.err" || status=$?
[ "$status" -eq 2 ] || fail "--max-clients beyond ulimit -n: exit $status, expected 2"
grep -q "ulimit -n 1064" "$WORK_DIR/limit.err" ||
    fail "the error does not say what to raise ulimit -n to: $(cat "$WORK_DIR/limit.err")"
pass "--max-clients beyond the descriptor limit: exit 2, naming ulimit -n"
