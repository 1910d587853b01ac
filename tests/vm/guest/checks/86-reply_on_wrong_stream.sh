# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 90
# With --streams above 1 the server must answer each request on the stream
# it came on; a client that meets a reply on another stream exits 1 with one
# sentence naming both streams, instead of timing it as if nothing were
# wrong. The server here is `sctp_garbage_peer ... wrong-stream-server
# SKIP`, which answers with each request's own bytes (a proper reply to a
# client with --echo) but, after its first SKIP requests, on the next
# stream:
#   - SOCK_STREAM_clt ping-pong, --streams 4, SKIP 0: the first round trip
#     goes on stream 0 and its reply comes on stream 1;
#   - SOCK_SEQPACK_clt --rate, --streams 4, SKIP 0: the first primer round
#     trip of flow 0, on stream 0, answered on stream 1;
#   - SOCK_SEQPACK_clt --rate, --streams 4, SKIP 100: the 100 primers are
#     answered properly, the first measured request (100, stream 0) on
#     stream 1, in the measured part of the run.
# Without the check each of these clients exits 0 with a report.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_modules
require_program sctp_garbage_peer
require_program SOCK_STREAM_clt
need_program SOCK_SEQPACK_clt

# wrong_stream NAME SKIP EXPECTED CLIENT ARGS...: the client against a
# wrong-stream server must exit 1 with EXPECTED in its one line on stderr.
wrong_stream() {
    _name="$1"
    _skip="$2"
    _expected="$3"
    shift 3
    start_server "${CHECK_WORK}/${_name}-srv.log" - sctp_garbage_peer 127.0.0.1 0 \
        wrong-stream-server "${_skip}"
    _out="${CHECK_WORK}/${_name}.out"
    _status=0
    run_client "${_out}" 30 - "$@" -H 127.0.0.1 -p "${SERVER_PORT}" --streams 4 --echo \
        --io-timeout 5 || _status=$?
    _line="$(head -n 1 "${_out}.err")"
    log "${_name}: exit ${_status}: ${_line}"
    sed 's/^/    server: /' "${CHECK_WORK}/${_name}-srv.log"
    [ "${_status}" -eq 1 ] || fail "${_name}: the client exited with ${_status}, expected 1"
    case "${_line}" in
        *"${_expected}"*) ;;
        *) fail "${_name}: stderr does not say '${_expected}'" ;;
    esac
    stop_pid "${SERVER_PID}"
}

wrong_stream stream-ping-pong 0 \
    "iteration 1 of 110: the reply came on stream 1, its request went on stream 0" \
    SOCK_STREAM_clt -t sctp -s 4 -c 10
wrong_stream seqpack-primer 0 \
    "flow 0, primer round trip 1: the reply to request 0 came on stream 1, its request went on stream 0" \
    SOCK_SEQPACK_clt -s 4 --rate 100 -c 10 --interval 0
wrong_stream seqpack-measured 100 \
    "the reply to request 100 came on stream 1, its request went on stream 0" \
    SOCK_SEQPACK_clt -s 4 --rate 100 -c 10 --interval 0
pass "a reply on another stream than its request's ends the client with exit 1 and both streams named, in ping-pong, in the primer and in the measured run"
