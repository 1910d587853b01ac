# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 150
# Any payload size (--payload-bytes) and replies of any size (--reply-bytes,
# --echo) over real SCTP, for both socket styles: on SOCK_SEQPACK every
# request and every reply is one SCTP message of exactly its size, so a
# reply of the wrong size ends the association; on SOCK_STREAM over SCTP the
# sizes frame the byte stream. The client checks every byte of every reply.
#
#   ping-pong, 200 round trips each, exact num_points:
#     --payload-bytes 100 --echo            (100-byte replies, the request back)
#     --payload-bytes 63000 --reply-bytes 1000
#     --payload-bytes 63000 --echo          (63000-byte replies)
#   rate, --rate 500 -c 200 --flows 2, every message timed:
#     --payload-bytes 100 --echo: 2 x 200 = 400 sent and replied,
#       bytes_sent = bytes_replied = 400 x 100 = 40000; the server, primers
#       included, received and sent 2 x (200 + 100) x 100 = 60000 bytes
#     --payload-bytes 63000 --reply-bytes 1000: 400 sent and replied,
#       bytes_sent 400 x 63000 = 25200000, bytes_replied 400 x 1000 =
#       400000; the server received 600 x 63000 = 37800000 and sent
#       600 x 1000 = 600000 bytes
#
# Counts only: the guest's timing is emulated, so no latency is judged.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles
need_option SOCK_STREAM_clt --payload-bytes

# sized_run STYLE NAME CLIENT ARGS...: runs CLIENT against the server started
# last; fails unless it exits 0. Sets REPORT and its flattened form FLAT.
sized_run() {
    _style="$1"
    _name="$2"
    _client="$3"
    shift 3
    run_report "${_style} ${_name}" "${CHECK_WORK}/${_style}-${_name}.json" "${client_limit_s}" - \
        "${_client}" -H 127.0.0.1 -p "${SERVER_PORT}" --format json --io-timeout 10 "$@"
}

# sizes_seen: the sizes and counts of the last run, for the log.
sizes_seen() {
    _bytes=""
    [ -z "$(report_field load.bytes_sent)" ] ||
        _bytes=" bytes_sent=$(report_field load.bytes_sent) bytes_replied=$(report_field load.bytes_replied) server_bytes_received=$(report_field load.server.bytes_received) server_bytes_sent=$(report_field load.server.bytes_sent)"
    echo "payload=$(report_field config.payload_bytes) reply=$(report_field config.reply_bytes)" \
        "points=$(report_field summary.num_points)${_bytes}"
}

# ping_pong STYLE PAYLOAD REPLY CLIENT ARGS...: 200 round trips, exact count and sizes.
ping_pong() {
    _style="$1"
    _payload="$2"
    _reply="$3"
    _client="$4"
    shift 4
    sized_run "${_style}" "ping-pong-${_payload}-${_reply}" "${_client}" -c 200 "$@"
    expect_field summary.num_points 200
    expect_field config.payload_bytes "${_payload}"
    expect_field config.reply_bytes "${_reply}"
    judge "${_style} ping-pong ${_payload}/${_reply}" "$(sizes_seen)"
}

# rate STYLE PAYLOAD REPLY CLIENT ARGS...: 2 flows x 200 messages, exact bytes.
rate() {
    _style="$1"
    _payload="$2"
    _reply="$3"
    _client="$4"
    shift 4
    sized_run "${_style}" "rate-${_payload}-${_reply}" "${_client}" --rate 500 -c 200 --flows 2 \
        --interval 0 "$@"
    expect_field config.reply_bytes "${_reply}"
    expect_field load.messages_sent 400
    expect_field load.messages_replied 400
    expect_field load.messages_lost 0
    expect_field load.bytes_sent $((400 * _payload))
    expect_field load.bytes_replied $((400 * _reply))
    expect_field load.server.messages_received 600
    expect_field load.server.bytes_received $((600 * _payload))
    expect_field load.server.replies_sent 600
    expect_field load.server.bytes_sent $((600 * _reply))
    judge "${_style} rate ${_payload}/${_reply}" "$(sizes_seen)"
}

# sizes_and_echo STYLE SERVER CLIENT [TRANSPORT ARGS...]: every run against
# one fresh server of that style.
sizes_and_echo() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    start_server "${CHECK_WORK}/${_style}-srv.log" - "${_server}" "$@" -p 0
    ping_pong "${_style}" 100 100 "${_client}" "$@" --payload-bytes 100 --echo
    ping_pong "${_style}" 63000 1000 "${_client}" "$@" --payload-bytes 63000 --reply-bytes 1000
    ping_pong "${_style}" 63000 63000 "${_client}" "$@" --payload-bytes 63000 --echo
    rate "${_style}" 100 100 "${_client}" "$@" --payload-bytes 100 --echo
    rate "${_style}" 63000 1000 "${_client}" "$@" --payload-bytes 63000 --reply-bytes 1000
    server_alive "${SERVER_PID}" "${CHECK_WORK}/${_style}-srv.log"
    stop_pid "${SERVER_PID}"
}

sizes_and_echo stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
sizes_and_echo seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt
pass "payloads of 100 and 63000 bytes, replies of 1000 bytes and full echoes, ping-pong and rate, exact counts and bytes, SOCK_STREAM and SOCK_SEQPACK"
