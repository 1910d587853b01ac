#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A server that silent connections and descriptor exhaustion cannot starve:
# - 200 silent connections against --max-clients 4: a proper client is
#   answered (refused as busy, with the reason) while every silent one is
#   still open, because refusals wait for headers on the event loop, not
#   the accepting thread (which would answer it only once the header
#   timeout had closed silent ones before it); and it is served once the
#   header timeout has closed the silent ones;
# - with a limit of 24 descriptors, accept failing with EMFILE is logged
#   once per episode, not every 100 ms.
source "$(dirname "$0")/lib.sh"
trap '' PIPE

clt="$BIN_DIR/SOCK_STREAM_clt"
# A header timeout long enough that a client started on a busy machine,
# under a sanitizer, is answered within it: the order of the answer and the
# closes is what is judged, not how fast either came.
header_timeout_s=5
start_server SOCK_STREAM_srv -t tcp --max-clients 4 --header-timeout "$header_timeout_s"
port=$SERVER_PORT

# millis: now in milliseconds, from bash's own clock: a fork for date in
# each of the loops below cost 8 ms an iteration on an idle machine.
millis() {
    local now=${EPOCHREALTIME/[.,]/}
    echo $((10#$now / 1000))
}

silent=()
for _ in $(seq 200); do
    exec {fd}<>"/dev/tcp/127.0.0.1/$port"
    silent+=("$fd")
done
attack_start=$(millis)

start=$(millis)
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$port" -s 4 -c 100
answered_ms=$(($(millis) - start))
grep -q "refused the test: server is serving its maximum number of clients" <<<"$ERR" ||
    fail "busy answer: $ERR"
# read -t 0 succeeds on a connection with bytes or its end to read.
closed=0
for fd in "${silent[@]}"; do
    if read -r -t 0 -u "$fd"; then closed=$((closed + 1)); fi
done
[ "$closed" -eq 0 ] ||
    fail "the busy answer came ${answered_ms} ms after the attack began, once $closed silent connections had been closed: it waited on the header timeout"
pass "200 silent connections held: a proper client refused as busy in ${answered_ms} ms, all 200 still open"

# Served once the header timeout has closed the silent ones. Each silent
# connection sees the server close it (end of file); then a proper client is
# served within a few tries (the server may free a slot a moment after the
# close). How late the closes come after the timeout is the machine's, so
# that is bounded only against a hang, at 25 s after the busy answer; that
# it is the header timeout that closed them is the server log's line, and
# that they were not closed early, the timeout.
closed_by_s=$((EPOCHSECONDS + 25))
for fd in "${silent[@]}"; do
    while :; do
        left_s=$((closed_by_s - EPOCHSECONDS))
        [ "$left_s" -gt 0 ] || fail "a silent connection is still open 25 s after the busy answer"
        status=0
        IFS= read -r -t "$left_s" -u "$fd" _ || status=$?
        [ "$status" -eq 0 ] && continue # bytes before the close: read on
        [ "$status" -gt 128 ] && fail "a silent connection is still open 25 s after the busy answer"
        break # end of file: closed
    done
done
closed_ms=$(($(millis) - attack_start))
[ "$closed_ms" -ge $((header_timeout_s * 1000 - 100)) ] ||
    fail "the silent connections were closed after $closed_ms ms, before the ${header_timeout_s} s header timeout"
for fd in "${silent[@]}"; do exec {fd}>&-; done
grep -q "no whole test header within ${header_timeout_s}.0 s (--header-timeout)" "$SERVER_LOG" ||
    fail "no header-timeout line in the server log"
served_try=
for try in 1 2 3 4 5; do
    if timeout 30 "$clt" -t tcp -H 127.0.0.1 -p "$port" -s 4 -c 100 >/dev/null 2>"$WORK_DIR/try.err"; then
        served_try=$try
        break
    fi
    sleep 0.2
done
[ -n "$served_try" ] || fail "no proper client served in 5 tries after the silent connections closed: $(cat "$WORK_DIR/try.err")"
pass "the 200 silent connections closed by the ${header_timeout_s} s header timeout ($closed_ms ms after the attack began); a proper client then served at try $served_try"
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || fail "server did not exit 0 on SIGTERM"

# Descriptor exhaustion: accept fails with EMFILE until connections close.
log="$WORK_DIR/emfile.log"
: >"$log"
(ulimit -n 24 && exec "$BIN_DIR/SOCK_STREAM_srv" -t tcp -p 0 --header-timeout 10) 2>"$log" &
SERVER_PID=$!
STARTED_PIDS+=("$SERVER_PID")
SERVER_LOG=$log
wait_for_log "starting server at port"
port=$(sed -n 's/.*starting server at port \([0-9][0-9]*\).*/\1/p' "$log")
held=()
for _ in $(seq 30); do
    exec {fd}<>"/dev/tcp/127.0.0.1/$port" && held+=("$fd")
done
sleep 3
failures=$(grep -c "accept failed: Too many open files" "$log" || true)
[ "$failures" -ge 1 ] || fail "no EMFILE in 3 s with 30 connections and 24 descriptors"
[ "$failures" -le 2 ] || fail "EMFILE logged $failures times in 3 s: $(head -5 "$log")"
for fd in "${held[@]}"; do exec {fd}>&-; done
wait_for_log "the listener works again, after" 5
pass "EMFILE logged $failures time(s) in 3 s, then once when accepting works again"
