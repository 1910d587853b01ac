#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Garbage, refused headers, early disconnects and silent clients each end their
# own connection with a logged reason; the server keeps serving proper clients,
# and stops cleanly on SIGTERM even with a client connected.
source "$(dirname "$0")/lib.sh"

start_server SOCK_STREAM_srv -t tcp --io-timeout 4 --idle-report 5
port=$SERVER_PORT

# Bash flushes printf to a socket line by line, and the server may close after
# the first 16 bytes: a later write must fail with EPIPE, not kill this script.
trap '' PIPE

# A test header of protocol version 3 is 24 bytes: magic, version 3, flags
# (the mode), payload bytes, iterations, then 8 zero bytes here: reply bytes
# 0 (the mode's own) and max_gap_ms 0 (no schedule).

# send_bytes PRINTF_FORMAT: connects, sends the bytes, reads what comes back
# for at most 3 s, and closes.
send_bytes() {
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    # shellcheck disable=SC2059
    printf "$1" >&3 2>/dev/null || true
    timeout 3 head -c 8 <&3 >/dev/null || true
    exec 3>&-
}

# A silent client first: it must not hold up anyone below.
exec 4<>"/dev/tcp/127.0.0.1/$port"

send_bytes 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'
wait_for_log "refused: not an sctp-perf test header"
pass "garbage refused"

# Clients of earlier releases (protocol versions 1 and 2, whose headers are
# 16 bytes) are refused by name, at once.
send_bytes 'SPRF\x00\x01\x00\x00\x00\x00\x00\x80\x00\x00\x04\x4c'
wait_for_log "refused: the client speaks protocol version 1, this server version 3"
send_bytes 'SPRF\x00\x02\x00\x00\x00\x00\x00\x80\x00\x00\x04\x4c'
wait_for_log "refused: the client speaks protocol version 2, this server version 3"
send_bytes 'SPRF\x00\x03\x00\x00\x00\x01\x00\x01\x00\x00\x00\x0a\x00\x00\x00\x00\x00\x00\x00\x00'
wait_for_log "refused: payload size outside 1..65536 bytes"
send_bytes 'SPRF\x00\x03\x00\x00\x00\x00\x00\x80\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00'
wait_for_log "refused: iteration count above"
# Server timestamps (flag bit 2) in rate mode with 16-byte replies: the
# stamps need 16 bytes more than the message header.
send_bytes 'SPRF\x00\x03\x00\x05\x00\x00\x00\x80\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x00'
wait_for_log "refused: reply size outside the mode's minimum"
# Count 0: a test that runs until the client closes, as --duration sends.
send_bytes 'SPRF\x00\x03\x00\x00\x00\x00\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
pass "wrong versions, oversized payload, absurd counts and replies too small for the stamps refused"

exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'SPRF\x00' >&3
exec 3>&-
wait_for_log "after 5 of 16 bytes"
exec 3<>"/dev/tcp/127.0.0.1/$port"
exec 3>&-
pass "truncated header and immediate disconnect"

# A proper header, one round trip, then the client vanishes mid-test.
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'SPRF\x00\x03\x00\x00\x00\x00\x00\x04\x00\x00\x03\xe8\x00\x00\x00\x00\x00\x00\x00\x00' >&3
timeout 3 head -c 8 <&3 >/dev/null
printf 'ping' >&3
# Everything the server sent (its settings, then the reply), so that closing
# leaves nothing unread: unread data would turn the close into a reset.
timeout 1 cat <&3 >/dev/null || true
exec 3>&-
wait_for_log "closed after 1 iterations: the peer closed the connection"
pass "client vanished mid-test"

# Meanwhile a proper client is served at once, the silent one notwithstanding.
run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$port" -s 5 -c 1000 --format json
echo "$OUT" >"$WORK_DIR/run.json"
[ "$(json_field "$WORK_DIR/run.json" summary.num_points)" = 1000 ] || fail "proper client"
pass "proper client served after all of the above"

wait_for_log "no whole test header within 2.0 s (--header-timeout): receive timed out" 10
exec 4>&-
pass "silent client closed at the server's --header-timeout"

# A header trickled a byte every 0.5 s (each byte well within the 4 s I/O
# timeout) is cut off when the whole header has taken 2 s, --header-timeout.
exec 3<>"/dev/tcp/127.0.0.1/$port"
start=$(date +%s%N)
for byte in S P R F; do
    printf '%s' "$byte" >&3 2>/dev/null || break
    sleep 0.5
done
wait_for_log "no whole test header within 2.0 s (--header-timeout): the peer sent" 5
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
exec 3>&-
[ "$elapsed_ms" -lt 4000 ] || fail "a trickled header held its connection for $elapsed_ms ms"
pass "trickled header closed at --header-timeout (${elapsed_ms} ms)"

# A valid header, then a request trickled a byte every 0.5 s: the whole
# request must come within the 4 s I/O timeout, not each byte.
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'SPRF\x00\x03\x00\x00\x00\x00\x00\x10\x00\x00\x03\xe8\x00\x00\x00\x00\x00\x00\x00\x00' >&3
timeout 3 head -c 8 <&3 >/dev/null
for _ in $(seq 16); do
    printf 'x' >&3 2>/dev/null || break
    sleep 0.5
done
exec 3>&-
wait_for_log "bytes of a message in 4.0 s (a message must come whole within the I/O timeout)" 5
pass "request trickled after a valid header: the session ends at the I/O timeout"

# While no test runs, the server says it is still waiting, every 5 s here
# (--idle-report 5, as ACE did).
wait_for_log "select timed out" 7
pass "idle server logs 'select timed out'"

# SIGTERM with a client connected mid-test: the server exits 0 promptly.
exec 5<>"/dev/tcp/127.0.0.1/$port"
printf 'SPRF\x00\x03\x00\x00\x00\x00\x00\x04\x00\x00\x03\xe8\x00\x00\x00\x00\x00\x00\x00\x00' >&5
timeout 3 head -c 8 <&5 >/dev/null
kill -TERM "$SERVER_PID"
status=0
timeout 5 tail --pid="$SERVER_PID" -f /dev/null || fail "server did not stop within 5 s"
wait "$SERVER_PID" || status=$?
exec 5>&-
[ "$status" = 0 ] || fail "server exited $status on SIGTERM"
kill -0 "$SERVER_PID" 2>/dev/null && fail "server still running"
pass "SIGTERM stops the server with a client connected"
