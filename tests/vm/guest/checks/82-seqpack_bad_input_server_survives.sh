# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# SOCK_SEQPACK_srv meets bad peers on one-to-many sockets (sctp_garbage_peer
# --seqpacket): single garbage messages shorter than a header, exactly a
# header long, longer than a header and longer than the largest request; a
# header that is right but for its magic number; requests one byte short and
# one byte long after a valid header; a client that leaves once its header is
# accepted; and a client killed in the middle of its run. Each ends its own
# association, and the server logs why; none ends the server: a proper client
# still completes afterwards, with an exact count.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

count=200
need_modules
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt
require_program sctp_garbage_peer

# --io-timeout 5: a peer that goes quiet costs the server at most that long.
server_log="${CHECK_WORK}/srv.log"
start_server "${server_log}" - SOCK_SEQPACK_srv -p 0 --io-timeout 5
log "server on port ${SERVER_PORT}"

# The line the server logs when it is done with a client, whatever the
# reason, and the lines of the two ways it can miss one altogether.
outcome='client [^ ]+ (failed in [0-9.]+ s: closed after|refused)|association [0-9]+ ended before|dropped a'
outcomes=0

# expect_outcome WHAT REASON: waits for the server to log its next outcome
# and fails unless that line contains REASON.
expect_outcome() {
    outcomes=$((outcomes + 1))
    if ! await_lines "${server_log}" "${outcome}" "${outcomes}" 10; then
        show_server_logs
        fail "$1: the server logged no outcome within 10 s"
    fi
    line="$(grep -E "${outcome}" "${server_log}" | sed -n "${outcomes}p")"
    line="${line#*) }"
    case "${line}" in
        *"$2"*) ;;
        *) fail "$1: the server logged '${line}', expected '$2'" ;;
    esac
    log "$1: server: ${line}"
    server_alive "${SERVER_PID}" "${server_log}"
}

# bad_peer WHAT REASON ARGS...: runs the garbage peer with ARGS, then expects
# the server to log REASON.
bad_peer() {
    what="$1"
    reason="$2"
    shift 2
    out="${CHECK_WORK}/peer-$((outcomes + 1)).out"
    status=0
    timeout -s KILL 20 "${SCTPPERF_BIN}/sctp_garbage_peer" --seqpacket 127.0.0.1 \
        "${SERVER_PORT}" "$@" >"${out}" 2>&1 || status=$?
    log "${what}: peer: $(tr '\n' ';' <"${out}") exit ${status}"
    [ "${status}" -eq 0 ] || fail "sctp_garbage_peer $* exited with status ${status}"
    expect_outcome "${what}" "${reason}"
}

bad_peer "garbage, 1 byte" "a message of 1 bytes where 24 were expected" garbage 1 1
# 16 bytes: as long as a header of version 1 or 2, judged by its magic.
bad_peer "garbage, 16 bytes" "refused: not an sctp-perf test header" garbage 16 16
bad_peer "garbage, 24 bytes" "refused: not an sctp-perf test header" garbage 24 24
bad_peer "garbage, 1000 bytes" "a message longer than the 24 bytes expected" garbage 1000 1000
bad_peer "garbage, 70000 bytes" "a message longer than the 24 bytes expected" garbage 70000 70000
bad_peer "wrong magic" "refused: not an sctp-perf test header (wrong magic number)" bad-magic
bad_peer "63-byte request" "closed after 0 iterations: a message of 63 bytes where 64 were expected" \
    wrong-size 63
bad_peer "65-byte request" "closed after 0 iterations: a message longer than the 64 bytes expected" \
    wrong-size 65
bad_peer "header, then gone" "closed after 0 iterations: the peer closed the association" \
    header-only

# Early disconnect: a long run killed once the server has accepted it.
tests_before="$(count_lines "${server_log}" 'Test for')"
start_client "${CHECK_WORK}/killed.json" - SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" \
    -s 8 -c 1000000000 --format json --io-timeout 10
victim="${CLIENT_PID}"
await_lines "${server_log}" 'Test for' $((tests_before + 1)) 20 ||
    fail "the client to be killed was never accepted"
sleep 0.5
kill -KILL "${victim}" 2>/dev/null || fail "the client to be killed had already exited"
wait "${victim}" 2>/dev/null
log "killed a running client (pid ${victim}) mid-run"
# Whether the kernel shuts the association down or aborts it depends on
# what was in flight when the process died; either is logged as the end.
expect_outcome "killed client" "iterations: the "

status=0
run_client "${CHECK_WORK}/after.json" 60 - SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" \
    -s 6 -c "${count}" --format json --io-timeout 10 || status=$?
check_run "${CHECK_WORK}/after.json" "${status}" "${count}" "proper client after the bad peers"
log "proper client afterwards: $(describe_run "${CHECK_WORK}/after.json")"
server_alive "${SERVER_PID}" "${server_log}"
pass "server logged a reason for 8 bad peers and a killed client; then ${count} round trips"
