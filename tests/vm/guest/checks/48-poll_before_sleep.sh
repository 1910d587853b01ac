# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# --poll-before-sleep over real SCTP, both socket styles and both server data
# paths a wait can take: each end polls for up to 200 us before it sleeps.
# Each run must count exactly the round trips or replies it was asked for,
# and its report must state the bound at both ends and that neither spun:
#   config.poll_before_sleep_us and server.poll_before_sleep_us 200,
#   config.spin and server.spin false.
# Ping-pong (the client's channel and a server session's own wait), a load
# run of two flows (the client's and the server worker's epoll sets) on
# SOCK_STREAM; ping-pong and two flows on SOCK_SEQPACK's one-to-many socket.
# And a polling client whose server stops answering (SIGSTOP): --io-timeout 1
# must still end it, with exit 1, within a few seconds.
#
# Counts and statements only: the guest's timing is emulated.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles

# polled_run STYLE CLIENT WHAT COUNT ARGS...: one run against the server
# started last, both ends polling; checks its count and its statements.
# WHAT is "round trips" (ping-pong) or "replies" (--rate).
polled_run() {
    _style="$1"
    _client="$2"
    _what="$3"
    _count="$4"
    shift 4
    run_report "${_style}" "${CHECK_WORK}/${_style}.json" "${client_limit_s}" - "${_client}" \
        -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 --poll-before-sleep 200 --format json "$@"
    expect_field config.poll_before_sleep_us 200
    expect_field server.poll_before_sleep_us 200
    expect_field config.spin false
    expect_field server.spin false
    expect_field config.transport sctp
    if [ "${_what}" = replies ]; then
        expect_field load.messages_replied "${_count}"
        expect_field load.messages_lost 0
    else
        expect_field summary.num_points "${_count}"
    fi
    judge "${_style}" "${_count} ${_what}, both ends polling up to 200 us before sleeping"
}

start_server "${CHECK_WORK}/stream-srv.log" - SOCK_STREAM_srv -p 0 --poll-before-sleep 200
polled_run stream-ping-pong SOCK_STREAM_clt "round trips" 300 -c 300
polled_run stream-two-flows SOCK_STREAM_clt replies 400 --rate 200 -c 200 --flows 2 --interval 0
stream_pid="${SERVER_PID}"
stream_port="${SERVER_PORT}"
grep -q 'waits poll for up to 200 us before they sleep' "${CHECK_WORK}/stream-srv.log" ||
    fail "SOCK_STREAM_srv did not log its bound at start"

start_server "${CHECK_WORK}/seqpack-srv.log" - SOCK_SEQPACK_srv -p 0 --poll-before-sleep 200
polled_run seqpack-ping-pong SOCK_SEQPACK_clt "round trips" 300 -c 300
polled_run seqpack-two-flows SOCK_SEQPACK_clt replies 400 --rate 200 -c 200 --flows 2 --interval 0
stop_pid "${SERVER_PID}"

# A polling client against a server that stops answering mid-run.
expect_io_timeout_ends "polling client" "${stream_pid}" "${stream_port}" --poll-before-sleep 200
pass "--poll-before-sleep over SCTP, SOCK_STREAM and SOCK_SEQPACK, ping-pong and two flows; the wait stays bounded"
