# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# --cpu and --spin over real SCTP, both socket styles: each end pinned to its
# own CPU of the guest's two, both ends polling their sockets. Each run must
# count exactly the round trips it was asked for, and its report must show
# where each end ran and that each spun:
#   config.spin and server.spin true, environment.client_cpu_affinity "0",
#   server.cpu_affinity "1".
# Also a load run (--rate, one flow), whose event loop spins on epoll, and a
# spinning client whose server stops answering (SIGSTOP): --io-timeout 1
# must still end it, with exit 1, within a few seconds.
#
# Counts and placement only: the guest's timing is emulated.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles

# placed_run STYLE CLIENT COUNT ARGS...: one spinning, pinned run against the
# server started last; checks its count and its placement.
placed_run() {
    _style="$1"
    _client="$2"
    _count="$3"
    shift 3
    run_report "${_style}" "${CHECK_WORK}/${_style}.json" "${client_limit_s}" - "${_client}" \
        -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 --cpu 0 --spin --format json "$@"
    expect_field config.spin true
    expect_field server.spin true
    expect_field environment.client_cpu_affinity 0
    expect_field server.cpu_affinity 1
    expect_field config.transport sctp
    if [ "$1" = "--rate" ]; then
        expect_field load.messages_replied "${_count}"
        expect_field load.messages_lost 0
    else
        expect_field summary.num_points "${_count}"
    fi
    judge "${_style}" "${_count} round trips, client on CPU 0, server on CPU 1, both spinning"
}

start_server "${CHECK_WORK}/stream-srv.log" - SOCK_STREAM_srv -p 0 --cpu 1 --spin
placed_run stream-ping-pong SOCK_STREAM_clt 300 -c 300
placed_run stream-rate SOCK_STREAM_clt 200 --rate 200 -c 200 --interval 0
stream_pid="${SERVER_PID}"
stream_port="${SERVER_PORT}"

start_server "${CHECK_WORK}/seqpack-srv.log" - SOCK_SEQPACK_srv -p 0 --cpu 1 --spin
placed_run seqpack-ping-pong SOCK_SEQPACK_clt 300 -c 300
stop_pid "${SERVER_PID}"

# A spinning client against a server that stops answering mid-run.
expect_io_timeout_ends "spinning client" "${stream_pid}" "${stream_port}" --cpu 0 --spin
pass "--cpu and --spin over SCTP, SOCK_STREAM and SOCK_SEQPACK, ping-pong and rate; a spinning wait is bounded"
