# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# A server started with --max-clients 1 serves one client and refuses a
# second as busy, and the refused client says why: exit 1 and the server's
# reason on stderr, not a reset or a wait for its I/O timeout (the server
# reads a refused client's header, within 1 s, before it answers). Once the
# first client is gone its slot is free again: a proper client completes.
# SOCK_STREAM_srv over SCTP, then SOCK_SEQPACK_srv.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

count=200
busy_text="the server refused the test: server is serving its maximum number of clients"
need_both_styles

# busy_round NAME SERVER CLIENT [-t sctp]: the whole story against one server.
busy_round() {
    name="$1"
    server="$2"
    client="$3"
    shift 3
    server_log="${CHECK_WORK}/srv-${name}.log"
    start_server "${server_log}" - "${server}" "$@" -p 0 --max-clients 1
    port="${SERVER_PORT}"
    log "${name}: ${server}${1:+ $*} --max-clients 1 on port ${port}"

    # The first client holds the only slot: a proper run, far longer than
    # this check, taken as in progress once the server has accepted it.
    start_client "${CHECK_WORK}/holder-${name}.json" - "${client}" "$@" -H 127.0.0.1 \
        -p "${port}" -s 6 -c 1000000000 --format json --io-timeout 20
    holder="${CLIENT_PID}"
    await_lines "${server_log}" 'Test for' 1 20 || fail "${name}: the first client was never accepted"

    status=0
    started="$(now_s)"
    run_client "${CHECK_WORK}/refused-${name}.json" 30 - "${client}" "$@" -H 127.0.0.1 \
        -p "${port}" -s 6 -c "${count}" --format json --io-timeout 10 || status=$?
    took_s="$(float_sub "$(now_s)" "${started}")"
    log "${name}: second client: exit ${status} after ${took_s} s: $(head -n 1 "${CHECK_WORK}/refused-${name}.json.err")"
    if [ "${status}" -ne 1 ] || ! grep -q "${busy_text}" "${CHECK_WORK}/refused-${name}.json.err"; then
        sed 's/^/    client: /' "${CHECK_WORK}/refused-${name}.json.err"
        show_server_logs
        fail "${name}: the second client exited ${status} without saying the server is busy"
    fi
    kill -0 "${holder}" 2>/dev/null || fail "${name}: the first client ended before the second was refused"
    await_lines "${server_log}" 'refused: too many clients at once' 1 10 ||
        fail "${name}: the server did not log the refusal"
    log "${name}: server: $(grep 'refused: too many clients' "${server_log}" | sed 's/^[^)]*) //')"
    server_alive "${SERVER_PID}" "${server_log}"

    # Free the slot; the server must notice the first client is gone.
    kill -KILL "${holder}" 2>/dev/null
    wait "${holder}" 2>/dev/null
    await_lines "${server_log}" 'closed after [0-9]+ iterations' 1 20 ||
        fail "${name}: the server never noticed that the first client had gone"
    log "${name}: server: $(grep -E 'closed after [0-9]+ iterations' "${server_log}" | sed 's/^[^)]*) //')"

    status=0
    run_client "${CHECK_WORK}/after-${name}.json" 60 - "${client}" "$@" -H 127.0.0.1 \
        -p "${port}" -s 6 -c "${count}" --format json --io-timeout 10 || status=$?
    check_run "${CHECK_WORK}/after-${name}.json" "${status}" "${count}" "${name}: client after the slot was freed"
    log "${name}: client once the slot was free: $(describe_run "${CHECK_WORK}/after-${name}.json")"
    server_alive "${SERVER_PID}" "${server_log}"
    # Its own CPU time back for the next round.
    stop_pid "${SERVER_PID}"
}

busy_round stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
busy_round seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt
pass "stream and seqpack: second client refused as busy with the reason; ${count} round trips once the slot was free"
