# vm-check-timeout: 150
# SOCK_SEQPACK (SCTP over SOCK_SEQPACKET sockets) at every payload size the
# programs accept (2^0 to 2^16 bytes): each run exits 0 and reports exactly
# the samples it was asked for, so no size loses, splits or merges a message.
# Skipped while the SEQPACK programs are not built.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

count=200
need_modules
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt

start_server "${CHECK_WORK}/srv.log" - SOCK_SEQPACK_srv -p 0
log "server on port ${SERVER_PORT}; ${count} iterations per size"
power=0
while [ "${power}" -le 16 ]; do
    out="${CHECK_WORK}/size-${power}.json"
    status=0
    run_client "${out}" 60 - SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" \
        -s "${power}" -c "${count}" --format json --io-timeout 10 || status=$?
    check_run "${out}" "${status}" "${count}" "payload 2^${power}"
    log "2^${power} bytes: $(describe_run "${out}")"
    server_alive "${SERVER_PID}" "${CHECK_WORK}/srv.log"
    power=$((power + 1))
done
pass "17 sizes x ${count} round trips, exact counts"
