# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# The load modes over real SCTP, for both socket styles (SOCK_STREAM's
# one-to-one sockets, SOCK_SEQPACK's one-to-many): several flows at once
# lose, duplicate and merge no message, and the client's accounting agrees
# with the server's to the message.
#
#   rate:       --rate 500 -c 300 --flows 4: 4 x 300 = 1200 messages sent,
#               each asks for a reply (echo every 1 with --rate), so 1200
#               replies and 1200 corrected latency points; the server also
#               saw 100 primer messages per flow: 4 x (300 + 100) = 1600,
#               and logs "finished 400 messages" once per flow.
#   throughput: --throughput -c 5000 --flows 2: 2 x 5000 = 10000 sent,
#               every 1000th asks for a reply: 10000 / 1000 = 10 replies,
#               5 per flow; no corrected latency (null); the server saw
#               2 x (5000 + 100) = 10200 messages and logs "finished 5100
#               messages" once per flow.
#   ping-pong:  -c 200 --flows 2: framed, a closed loop per flow: 400 sent
#               and replied, the server saw 2 x (200 + 100) = 600 and logs
#               "finished 300 iterations" once per flow.
#
# Counts only: the guest's timing is emulated, so no latency is judged. The
# rate runs take 0.6 s at their nominal rate, 1 to 3 s under TCG; each
# throughput run, 10000 SCTP messages through an emulated kernel, takes 2 to
# 6 s depending on how busy the host is.
# The 40 s bound on each run is there for a hang.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles

# per_flow KEY: KEY of every load.per_flow entry, comma-separated.
per_flow() {
    _list=""
    _flow=0
    while _v="$(report_field "load.per_flow.${_flow}.$1")" && [ -n "${_v}" ]; do
        _list="${_list}${_list:+,}${_v}"
        _flow=$((_flow + 1))
    done
    echo "${_list}"
}

# load_run STYLE MODE CLIENT ARGS...: runs CLIENT against the server started
# last with run_report, which fails unless it exits 0 and sets REPORT, its
# flattened form FLAT and RUN_S, the run's seconds.
load_run() {
    _style="$1"
    _mode="$2"
    _client="$3"
    shift 3
    run_report "${_style} ${_mode}" "${CHECK_WORK}/${_style}-${_mode}.json" "${client_limit_s}" - \
        "${_client}" -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 --interval 0 --format json \
        --io-timeout 10 "$@"
}

# counts_seen: the last run's counts, for the log.
counts_seen() {
    # Throughput mode times no message against a schedule: null, no points.
    _corrected="$(report_field load.latency_corrected.num_points)"
    [ -n "${_corrected}" ] || _corrected="$(report_field load.latency_corrected)"
    echo "sent=$(report_field load.messages_sent)" \
        "received_by_server=$(report_field load.messages_received_by_server)" \
        "echo_requested=$(report_field load.messages_echo_requested)" \
        "replied=$(report_field load.messages_replied)" \
        "lost=$(report_field load.messages_lost)" \
        "duplicated=$(report_field load.messages_duplicated)" \
        "corrected_points=${_corrected}" \
        "per_flow_sent=$(per_flow messages_sent)" \
        "server_received=$(report_field load.server.messages_received)" \
        "[${RUN_S} s]"
}

# load_modes STYLE SERVER CLIENT [TRANSPORT ARGS...]: both runs against one
# fresh server of that style.
load_modes() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    start_server "${CHECK_WORK}/${_style}-srv.log" - "${_server}" "$@" -p 0
    _srv_log="${CHECK_WORK}/${_style}-srv.log"

    load_run "${_style}" rate "${_client}" "$@" --rate 500 -c 300 --flows 4
    expect_field load.mode rate
    expect_field load.flows 4
    expect_field load.messages_sent 1200
    expect_field load.messages_received_by_server 1200
    expect_field load.messages_echo_requested 1200
    expect_field load.messages_replied 1200
    expect_field load.messages_lost 0
    expect_field load.messages_duplicated 0
    expect_field load.latency_corrected.num_points 1200
    expect_field load.server.messages_received 1600
    _sent="$(per_flow messages_sent)"
    [ "${_sent}" = "300,300,300,300" ] ||
        mismatches="${mismatches}; per_flow messages_sent is '${_sent}', expected 300 in each of 4 flows"
    _replied="$(per_flow messages_replied)"
    [ "${_replied}" = "300,300,300,300" ] ||
        mismatches="${mismatches}; per_flow messages_replied is '${_replied}', expected 300 in each of 4 flows"
    await_lines "${_srv_log}" 'finished 400 messages' 4 10 ||
        mismatches="${mismatches}; the server logged $(count_lines "${_srv_log}" 'finished 400 messages') 'finished 400 messages' lines, expected 4"
    judge "${_style} rate" "$(counts_seen)"

    load_run "${_style}" throughput "${_client}" "$@" --throughput -c 5000 --flows 2
    expect_field load.mode throughput
    expect_field load.flows 2
    expect_field load.echo_every 1000
    expect_field load.messages_sent 10000
    expect_field load.messages_received_by_server 10000
    expect_field load.messages_echo_requested 10
    expect_field load.messages_replied 10
    expect_field load.messages_lost 0
    expect_field load.messages_duplicated 0
    expect_field load.latency_corrected null
    expect_field load.server.messages_received 10200
    _sent="$(per_flow messages_sent)"
    [ "${_sent}" = "5000,5000" ] ||
        mismatches="${mismatches}; per_flow messages_sent is '${_sent}', expected 5000 in each of 2 flows"
    _replied="$(per_flow messages_replied)"
    [ "${_replied}" = "5,5" ] ||
        mismatches="${mismatches}; per_flow messages_replied is '${_replied}', expected 5 in each of 2 flows"
    await_lines "${_srv_log}" 'finished 5100 messages' 2 10 ||
        mismatches="${mismatches}; the server logged $(count_lines "${_srv_log}" 'finished 5100 messages') 'finished 5100 messages' lines, expected 2"
    judge "${_style} throughput" "$(counts_seen)"

    # Ping-pong over two flows runs framed: a closed loop on each.
    load_run "${_style}" framed-ping-pong "${_client}" "$@" -c 200 --flows 2
    expect_field load.mode ping-pong
    expect_field load.messages_sent 400
    expect_field load.messages_received_by_server 400
    expect_field load.messages_replied 400
    expect_field load.messages_lost 0
    expect_field load.latency_uncorrected.num_points 400
    expect_field load.server.messages_received 600
    _sent="$(per_flow messages_sent)"
    [ "${_sent}" = "200,200" ] ||
        mismatches="${mismatches}; per_flow messages_sent is '${_sent}', expected 200 in each of 2 flows"
    await_lines "${_srv_log}" 'finished 300 iterations' 2 10 ||
        mismatches="${mismatches}; the server logged $(count_lines "${_srv_log}" 'finished 300 iterations') 'finished 300 iterations' lines, expected 2"
    judge "${_style} framed-ping-pong" "$(counts_seen)"

    server_alive "${SERVER_PID}" "${_srv_log}"
    stop_pid "${SERVER_PID}"
}

load_modes stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
load_modes seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt
pass "rate (4 flows x 300), throughput (2 flows x 5000) and framed ping-pong (2 flows x 200) with exact counts, SOCK_STREAM and SOCK_SEQPACK"
