# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# The SCTP stream server meets bad peers: garbage of several sizes (shorter
# than any request, a few requests' worth, more than the largest payload)
# and a client killed in the middle of its run. Each may end its own
# connection, never the server: a proper client still completes afterwards.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

count=200
need_modules
require_program SOCK_STREAM_srv
require_program SOCK_STREAM_clt
require_program sctp_garbage_peer

# --io-timeout 5: a peer that sends half a request and then goes quiet
# costs the server at most that long.
start_server "${CHECK_WORK}/srv.log" - SOCK_STREAM_srv -t sctp -p 0 --io-timeout 5
log "server on port ${SERVER_PORT}"

for bytes in 1 3 1000 70000; do
    status=0
    timeout -s KILL 20 "${SCTPPERF_BIN}/sctp_garbage_peer" 127.0.0.1 "${SERVER_PORT}" \
        garbage "${bytes}" "${bytes}" \
        >"${CHECK_WORK}/garbage-${bytes}.out" 2>&1 || status=$?
    log "garbage ${bytes} bytes: $(tr '\n' ';' <"${CHECK_WORK}/garbage-${bytes}.out") exit ${status}"
    [ "${status}" -eq 0 ] || fail "sctp_garbage_peer (${bytes} bytes) exited with status ${status}"
    server_alive "${SERVER_PID}" "${CHECK_WORK}/srv.log"
done

# Early disconnect: a long run killed once its association is up.
start_client "${CHECK_WORK}/killed.json" - SOCK_STREAM_clt -t sctp -H 127.0.0.1 \
    -p "${SERVER_PORT}" -s 8 -c 1000000 --format json --io-timeout 10
victim="${CLIENT_PID}"
ticks=0
while [ "$(count_assocs "${SERVER_PORT}")" -eq 0 ] && [ "${ticks}" -lt 100 ]; do
    sleep 0.1
    ticks=$((ticks + 1))
done
[ "$(count_assocs "${SERVER_PORT}")" -gt 0 ] || fail "the client to be killed never connected"
sleep 0.5
kill -KILL "${victim}" 2>/dev/null || fail "the client to be killed had already exited"
wait "${victim}" 2>/dev/null
log "killed a running client (pid ${victim}) mid-run"
sleep 0.5
server_alive "${SERVER_PID}" "${CHECK_WORK}/srv.log"

status=0
run_client "${CHECK_WORK}/after.json" 60 - SOCK_STREAM_clt -t sctp -H 127.0.0.1 -p "${SERVER_PORT}" \
    -s 6 -c "${count}" --format json --io-timeout 10 || status=$?
check_run "${CHECK_WORK}/after.json" "${status}" "${count}" "proper client after the bad peers"
log "proper client afterwards: $(describe_run "${CHECK_WORK}/after.json")"
server_alive "${SERVER_PID}" "${CHECK_WORK}/srv.log"
log "server log (last lines):"
tail -n 12 "${CHECK_WORK}/srv.log" | sed 's/^/    server: /'
pass "server survived 4 garbage peers and a killed client; then ${count} round trips"
