# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# A load-mode client whose server dies in the middle of the run ends, with
# exit 1 and one line saying which flow met what, instead of waiting for
# ever. It used to hang: with the default --interval (1 s in the load modes)
# a flow that failed handed its last part to an interval the collector had
# already taken, so the run never drained. Over real SCTP, both socket
# styles: SOCK_STREAM (one-to-one) and SOCK_SEQPACK (one-to-many).
#
#   client: -s 7 --rate 200 --duration 30 --flows 2 --io-timeout 5, default
#           --interval: 2 flows x 200 = 400 messages a second, a progress
#           line on stderr every second.
#   server: killed with SIGKILL once the client has printed its first
#           progress line, about 1.1 s into the run under TCG. Its kernel ends
#           the associations (ABORT, or SHUTDOWN when nothing was left
#           unread), so the client's next receive or send fails at once;
#           were no word to come, --io-timeout 5 would still end it.
#   bound:  exit 1 within 5 s (--io-timeout) + 10 s of margin for TCG = 15 s
#           after the kill, half of --duration 30: a client that hangs, or
#           that ignores the failure and runs out its 30 s, fails the check.
#           A prompt end took 0.1 to 0.2 s in the VM; the whole check 6 to
#           7 s (about 24 s when a client hangs and waits out the bound).
#   output: stderr holds the progress lines and exactly one other line,
#           "CLIENT: flow F, T s into the run (interval I, from S s): the
#           peer ...", naming the peer's end (closed, reset, aborted, lost),
#           not a timeout; stdout (--format json) is one error object with
#           "exit_code": 1.
#
# A hang fails this check at the 15 s bound, never the whole VM run: the
# check kills the client there, and timeout(1), 60 s, ends the client even
# if the check itself is killed first. The limit of 120 s covers each
# half's own bounds: 2 x (20 s server start + 20 s first progress line +
# 15 s) = 110 s. Behaviour only: the guest's timing is emulated.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

io_timeout_s=5
duration_s=30
end_bound_s=$((io_timeout_s + 10))
client_limit_s=60
first_line_limit_s=20
# A progress line: "[   1.000 s] sent      400 recv ...".
progress_line='^\[ *[0-9]+\.[0-9]+ s] sent '

need_both_styles

# start_bounded_client OUT CLIENT ARGS...: start_client, under timeout(1).
# busybox's timeout execs the program in its own process, so CLIENT_PID is
# the client; coreutils' (native mode) stays the client's parent and passes
# its exit status through.
start_bounded_client() {
    _out="$1"
    _prog="$2"
    shift 2
    timeout -s KILL "${client_limit_s}" "${SCTPPERF_BIN}/${_prog}" "$@" \
        </dev/null >"${_out}" 2>"${_out}.err" &
    CLIENT_PID=$!
    echo "${CLIENT_PID}" >>"${PID_FILE}"
}

# show_client OUT: the client's stderr and stdout, to see a failure.
show_client() {
    sed 's/^/    client: /' "$1.err"
    head -c 2000 "$1" | sed 's/^/    stdout: /'
}

# peer_dies STYLE SERVER CLIENT [TRANSPORT ARGS...]: one rate run whose
# server is killed after the first progress line; fails unless the client
# ends as described above.
peer_dies() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    _srv_log="${CHECK_WORK}/${_style}-srv.log"
    _out="${CHECK_WORK}/${_style}.json"
    start_server "${_srv_log}" - "${_server}" "$@" -p 0
    _server_pid="${SERVER_PID}"
    start_bounded_client "${_out}" "${_client}" "$@" -H 127.0.0.1 -p "${SERVER_PORT}" \
        -s 7 --rate 200 --duration "${duration_s}" --flows 2 --io-timeout "${io_timeout_s}" \
        --format json

    # The first progress line: both flows are connected and under load.
    _ticks=0
    while _lines="$(count_lines "${_out}.err" "${progress_line}")" && [ "${_lines:-0}" -lt 1 ]; do
        if ! kill -0 "${CLIENT_PID}" 2>/dev/null; then
            show_client "${_out}"
            show_server_logs
            fail "${_style}: the client exited before its first progress line, with the server alive"
        fi
        if [ "${_ticks}" -ge $((first_line_limit_s * 10)) ]; then
            show_client "${_out}"
            show_server_logs
            fail "${_style}: the client printed no progress line within ${first_line_limit_s} s"
        fi
        sleep 0.1
        _ticks=$((_ticks + 1))
    done

    _seen="$(grep -E "${progress_line}" "${_out}.err" | head -n 1 | cut -c 1-40)"
    kill -KILL "${_server_pid}" 2>/dev/null || fail "${_style}: the server had exited before it was killed"
    _killed_at="$(now_s)"
    wait "${_server_pid}" 2>/dev/null
    log "${_style}: killed the server (pid ${_server_pid}) after the client's line '${_seen}...'"

    _status=0
    wait_bounded "${CLIENT_PID}" "${end_bound_s}" || _status=$?
    _took="$(float_sub "$(now_s)" "${_killed_at}")"
    if [ "${_status}" -ne 1 ]; then
        show_client "${_out}"
        [ "${_status}" -eq 124 ] &&
            fail "${_style}: the client was still running ${end_bound_s} s after its server was killed (it hangs)"
        [ "${_status}" -eq 137 ] &&
            fail "${_style}: the client was killed at its ${client_limit_s} s bound (it hangs)"
        fail "${_style}: the client exited with status ${_status} ${_took} s after its server was killed, expected 1"
    fi

    # Exactly one line besides the progress lines, naming the flow and the
    # peer's end.
    _others="$(grep -cvE "${progress_line}" "${_out}.err" || true)"
    _line="$(grep -vE "${progress_line}" "${_out}.err" | head -n 1)"
    _expected="^${_client}: flow [0-9]+, [0-9]+\.[0-9]+ s into the run \(interval [0-9]+, from [0-9]+\.[0-9]+ s\): the (peer|association) .*(closed|reset|aborted|lost)"
    if [ "${_others}" -ne 1 ] || ! echo "${_line}" | grep -qE "${_expected}"; then
        show_client "${_out}"
        fail "${_style}: stderr holds ${_others} lines besides the progress lines, expected one like" \
            "'${_client}: flow F, T s into the run (interval I, from S s): the peer closed ...'"
    fi

    # stdout: the error object and nothing else.
    _json_exit="$(json_value "${_out}" exit_code)"
    _json_error="$(json_value "${_out}" error)"
    if [ "${_json_exit}" != 1 ] || ! echo "${_json_error}" | grep -q 'flow [0-9]' ||
        [ -n "$(json_value "${_out}" summary.num_points)" ]; then
        show_client "${_out}"
        fail "${_style}: stdout is not one error object with \"exit_code\": 1 naming the flow"
    fi
    log "${_style}: exit 1 ${_took} s after the kill (bound ${end_bound_s} s):" \
        "$(count_lines "${_out}.err" "${progress_line}") progress lines, then '${_line}'"
}

# SCTP is SOCK_STREAM's default transport; named here so the check says it.
peer_dies stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
peer_dies seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt
pass "a rate run (2 flows, default --interval) whose server is killed ends with exit 1 within ${end_bound_s} s," \
    "one line naming the flow and the peer's end, and a JSON error object; SOCK_STREAM and SOCK_SEQPACK"
