# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 150
# --batch over real SCTP, for both socket styles: the client sends several
# requests per system call with sendmmsg, each still one SCTP message.
#
#   throughput: --throughput -c 5000 --batch 16: 5000 sent and received by
#               the server (5100 with the primer), none lost, more than one
#               message per send call; and at least 5101 ordered DATA chunks
#               sent (5000 + 100 primers + the end of test): one chunk per
#               request, as on SOCK_SEQPACKET, where a request of the wrong
#               size would end the association. A gathering write, which a
#               byte stream takes, would make one SCTP message (one chunk)
#               of 16 requests on SOCK_STREAM.
#   ticks:      --rate 1000 --tick-rate 10 -c 500 --batch 64 --streams 4: the
#               100 messages of each tick go in calls of up to 64, each on
#               its own stream (k % 4), every reply checked against its
#               request's stream: 500 sent, replied and received by the
#               server, more than one message per call.
#
# Counts only: the guest's timing is emulated, so no latency is judged.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles
need_option SOCK_STREAM_clt --batch

# expect_above_one PATH: notes a mismatch unless PATH is a number above 1.
expect_above_one() {
    _got="$(report_field "$1")"
    [ -n "${_got}" ] && float_ge "${_got}" 1.0001 ||
        mismatches="${mismatches}; $1 is '${_got}', expected above 1"
}

# batch_run STYLE NAME CLIENT ARGS...: a client run that must succeed; sets
# REPORT and FLAT.
batch_run() {
    _style="$1"
    _name="$2"
    _client="$3"
    shift 3
    run_report "${_style} ${_name}" "${CHECK_WORK}/${_style}-${_name}.json" "${client_limit_s}" - \
        "${_client}" -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 --interval 0 --format json \
        --io-timeout 10 "$@"
}

# figures_seen: the last run's figures, for the log.
figures_seen() {
    echo "sent=$(report_field load.messages_sent)" \
        "received_by_server=$(report_field load.messages_received_by_server)" \
        "replied=$(report_field load.messages_replied)" \
        "send_calls=$(report_field load.send_calls)" \
        "messages_per_send_call=$(report_field load.messages_per_send_call)" \
        "ordered_chunks_sent=$(report_field transport.ordered_chunks_sent)" \
        "packets_sent=$(report_field transport.packets_sent)"
}

# batches STYLE SERVER CLIENT [TRANSPORT ARGS...]: both runs against one
# fresh server of that style.
batches() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    start_server "${CHECK_WORK}/${_style}-srv.log" - "${_server}" "$@" --streams 4 -p 0

    batch_run "${_style}" throughput "${_client}" "$@" --throughput -c 5000 --batch 16
    expect_field load.batch 16
    expect_field load.messages_sent 5000
    expect_field load.messages_received_by_server 5000
    expect_field load.messages_lost 0
    expect_field load.server.messages_received 5100
    expect_above_one load.messages_per_send_call
    expect_at_least transport.ordered_chunks_sent 5101
    judge "${_style} throughput --batch 16" "$(figures_seen)"

    batch_run "${_style}" ticks "${_client}" "$@" --rate 1000 --tick-rate 10 -c 500 --batch 64 \
        --streams 4
    expect_field load.tick_rate_per_s 10.0
    expect_field load.messages_sent 500
    expect_field load.messages_replied 500
    expect_field load.messages_received_by_server 500
    expect_field load.messages_lost 0
    expect_field load.server.messages_received 600
    expect_above_one load.messages_per_send_call
    judge "${_style} --tick-rate 10 --batch 64 --streams 4" "$(figures_seen)"

    server_alive "${SERVER_PID}" "${CHECK_WORK}/${_style}-srv.log"
    stop_pid "${SERVER_PID}"
}

batches stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
batches seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt
pass "sendmmsg batches: throughput --batch 16 and ticks over 4 streams, exact counts, one SCTP message per request, SOCK_STREAM and SOCK_SEQPACK"
