#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Flows far slower than the server's I/O timeout: the client states its
# schedule's longest gap in its test header, and the server waits that long
# plus its --io-timeout for each next request, so no flow is cut off between
# two messages and every message is accounted for.
source "$(dirname "$0")/lib.sh"

# --io-timeout 1 s against one message every 2 s per flow (--rate 0.5): a
# server that waited its I/O timeout alone would end both flows before their
# second message. 2 flows of 3 messages each, the second flow's phase 1 s
# (uniform arrivals): messages due at 0, 1, 2, 3, 4 and 5 s, the run about
# 5 s after the 100 primer round trips.
start_server SOCK_STREAM_srv -t tcp --io-timeout 1
run_capture 0 timeout 30 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" \
    -s 4 --rate 0.5 --flows 2 -c 3 --format json
json=$WORK_DIR/slow.json
echo "$OUT" >"$json"

for field in messages_sent messages_replied latency_corrected.num_points; do
    expect_field "$json" "load.$field" 6
done
expect_field "$json" load.messages_lost 0
# The server counts the primer too: 2 x (3 + 100).
expect_field "$json" load.server.messages_received 206
pass "--rate 0.5, 2 flows of 3 messages against --io-timeout 1: all 6 sent, replied and timed"

# The client's own clock: about 5 s of schedule, so the flows did wait far
# longer than the I/O timeout between messages.
awk -v d="$(json_field "$json" load.duration_s)" 'BEGIN { exit !(d >= 4.5) }' ||
    fail "the run took $(json_field "$json" load.duration_s) s, expected the 5 s of its schedule"

# The server's side: both sessions finished (103 messages each), none ended
# early for silence.
wait_for_log "finished 103 messages"
[ "$(grep -c "finished 103 messages" "$SERVER_LOG")" = 2 ] || {
    cat "$SERVER_LOG" >&2
    fail "the server did not finish both flows"
}
if grep -E "failed in|no request for|no whole request" "$SERVER_LOG" >&2; then
    fail "the server ended a slow flow early"
fi
pass "the server waited out every gap: both sessions finished, none ended early"
