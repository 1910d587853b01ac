# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 240
# A client stopped with SIGSTOP, and what it does to another association of
# SOCK_SEQPACK_srv: on the one socket with net.sctp.sndbuf_policy 1 and 0,
# and peeled off (--peel-off).
#
#   observer: --rate 50 --duration 10 (500 requests, each replied).
#   staller:  --throughput --echo-every 1 --reply-bytes 32768 --rcvbuf 4096,
#             started once the observer's load runs, stopped (SIGSTOP) after
#             its first progress line: the requests its kernel still holds
#             reach the server, whose replies fill the staller's 4 KiB window
#             and then the server's send buffer (--sndbuf 65536, 131072 read
#             back: four replies of 32 KiB, so that a handful of requests in
#             flight at the stop surely fill it; with 16-byte replies, about
#             1 KiB of it each, it took some 130, and a sanitized client in a
#             guest slowed by a busy host had sent 64 by its first progress
#             line, 32 of them unanswered: the server's buffer never filled,
#             its session ended for want of requests, and the check failed).
#             The server (--io-timeout 5) ends that session
#             with "send timed out: the peer stopped reading" and aborts its
#             association. 5 s, not less: a host so busy that the guest
#             stands still for seconds would otherwise end sessions that
#             were only waiting for the emulator.
#
# What each run must show (see man SOCK_SEQPACK_srv, "Data paths"):
#   policy 1, one socket: the observer loses nothing, its session ends ok,
#     and no reply of it waits 2.5 s: the stalled association's full buffer is
#     its own, and the server's one reader never waits on it. (Before the
#     server built its sends itself, lksctp's sctp_sendv() dropped
#     MSG_DONTWAIT: every try to send to the staller waited out the
#     socket's 100 ms SO_SNDTIMEO, the reader read nothing more, and the
#     observer's session ended for silence.)
#   policy 0, one socket: one send buffer for the whole socket, which the
#     staller's replies fill: the observer's replies wait, 1 s at least,
#     until the stalled session ends at its send timeout; it still loses
#     nothing and its session ends ok. That wait is the kernel's (the
#     policy), not the server's: when the observer's replies have waited
#     the send timeout too, the server sees that its association has
#     nothing unacknowledged and an open window (SCTP_STATUS), says that
#     it waits on the others' data, and waits on.
#   --peel-off (policy 0): a socket and a buffer per association; as policy 1.
# Bounds are about behaviour, not speed: the guest's timing is emulated
# (2.5 s is half the server's send timeout; policy 0 held the observer
# 6.0 s when this was written, the others at most 0.4 s).
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_modules
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt
policy_file=/proc/sys/net/sctp/sndbuf_policy
[ -w "${policy_file}" ] || skip "no ${policy_file} to set"
policy_before="$(cat "${policy_file}")"
# The system's policy comes back however the check ends.
trap 'echo "${policy_before}" >"${policy_file}"; cleanup' EXIT

# server_tx PORT: each of the server's associations on PORT as
# "TX_QUEUE/sndbuf" (/proc/net/sctp/assocs: TX_QUEUE in column 8, the
# socket's sndbuf second to last).
server_tx() {
    awk -v p="$1" 'NR > 1 && $12 == p { printf "%s%s/%s", sep, $8, $(NF - 1); sep = " " }' \
        /proc/net/sctp/assocs
}

# stall RUN POLICY [SERVER ARGS...]: one observer beside one stopped client.
# Sets OBSERVER_MAX_US, the observer's longest round trip.
stall() {
    _run="$1"
    echo "$2" >"${policy_file}"
    shift 2
    _srv_log="${CHECK_WORK}/${_run}-srv.log"
    start_server "${_srv_log}" - SOCK_SEQPACK_srv -p 0 --io-timeout 5 --sndbuf 65536 "$@"
    _obs="${CHECK_WORK}/${_run}-observer.json"
    start_client "${_obs}" - SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 \
        --rate 50 --duration 10 --interval 1 --format json --io-timeout 10
    _obs_pid="${CLIENT_PID}"
    await_lines "${_obs}.err" ' sent ' 1 30 || fail "${_run}: the observer's load never started"
    _stall="${CHECK_WORK}/${_run}-staller.json"
    start_client "${_stall}" - SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 \
        --throughput --echo-every 1 --reply-bytes 32768 --rcvbuf 4096 --duration 60 --interval 0.5 \
        --format json --io-timeout 60
    _stall_pid="${CLIENT_PID}"
    await_lines "${_stall}.err" ' sent ' 1 30 || fail "${_run}: the staller's load never started"
    kill -STOP "${_stall_pid}"
    sleep 1
    _tx="$(server_tx "${SERVER_PORT}")"
    _status=0
    wait_bounded "${_obs_pid}" 60 || _status=$?
    # The stopped client stays stopped until the server has ended its
    # session (30 s at most): when the guest is slow to start it, it may
    # stop only a few seconds before the observer's end, short of the 5 s
    # the server gives its replies (in one run it started 6 s after the
    # observer, and was let go 5 s after its stop, its session still open).
    await_lines "${_srv_log}" 'send timed out: the peer stopped reading' 1 30 || true
    kill -CONT "${_stall_pid}"
    stop_pid "${_stall_pid}"
    FLAT="${_obs}.flat"
    json_flatten "${_obs}" >"${FLAT}"
    OBSERVER_MAX_US="$(report_field summary.max_us)"
    log "${_run}: server TX_QUEUE/sndbuf per association 1 s into the stall: ${_tx};" \
        "observer: $(describe_run "${_obs}")"
    grep -E ' (ok|failed) in |full of other associations' "${_srv_log}" | sed 's/^[^)]*) /    server: /'
    mismatches=""
    [ "${_status}" -eq 0 ] || mismatches="; the observer exited with status ${_status}"
    _sent="$(report_field load.messages_sent)"
    [ -n "${_sent}" ] && [ "${_sent}" -gt 0 ] ||
        mismatches="${mismatches}; the observer's report counts no message sent"
    expect_field load.messages_replied "${_sent}"
    expect_field load.messages_lost 0
    [ "$(count_lines "${_srv_log}" ' ok in .*: finished ')" -eq 1 ] ||
        mismatches="${mismatches}; the observer's session did not end ok"
    [ "$(count_lines "${_srv_log}" 'send timed out: the peer stopped reading')" -eq 1 ] ||
        mismatches="${mismatches}; the stalled session did not end at its send timeout"
    if [ -n "${mismatches}" ]; then
        tail -n 3 "${_obs}.err" | sed 's/^/    observer: /'
        tail -n 3 "${_stall}.err" | sed 's/^/    stopped client: /'
        sed 's/^.*) /    server: /' "${_srv_log}"
        fail "${_run}: ${mismatches#; }"
    fi
    stop_pid "${SERVER_PID}"
}

stall policy-1 1
echo "${policy_before}" >"${policy_file}"
float_lt "${OBSERVER_MAX_US}" 2500000 ||
    fail "policy-1: the observer waited ${OBSERVER_MAX_US} us for a reply: the stalled association held it up"
max_1="${OBSERVER_MAX_US}"

stall policy-0 0
echo "${policy_before}" >"${policy_file}"
float_ge "${OBSERVER_MAX_US}" 1000000 ||
    fail "policy-0: the observer's longest round trip was ${OBSERVER_MAX_US} us: the shared send buffer held nothing up, which the manual says it does"
max_0="${OBSERVER_MAX_US}"

stall peel-off 0 --peel-off
echo "${policy_before}" >"${policy_file}"
float_lt "${OBSERVER_MAX_US}" 2500000 ||
    fail "peel-off: the observer waited ${OBSERVER_MAX_US} us for a reply: the stalled association held it up"
pass "beside a stopped client the observer lost nothing; longest round trip ${max_1} us (policy 1), ${max_0} us (policy 0, held by the shared send buffer), ${OBSERVER_MAX_US} us (--peel-off)"
