# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# --bind-device and --max-seg over real SCTP, for both socket styles (the
# SOCK_SEQPACK server on its one socket and with --peel-off), and
# -i and -a with an interface name. The server runs with -a lo
# --bind-device lo --max-seg 1000 (binding 127.0.0.1, and on SOCK_SEQPACK
# every address of lo), the client with --bind-device lo --max-seg 1202
# -i lo and 3000-byte requests echoed back, so that every message is
# fragmented at both ends. SCTP_MAXSEG read back is each association's fragmentation
# point, which the kernel rounds down to 4 bytes: the client's 1202 must
# read back as 1200 (and be reported as lowered), the server's 1000 as
# 1000; SO_BINDTODEVICE must read back lo at both ends; the kernel's
# SctpFragUsrMsgs must count at least one fragmented message per request
# and per reply, primers included: 2 x (200 + 100) = 600.
#
# Counts only: the guest's timing is emulated, so no latency is judged.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles
need_option SOCK_STREAM_clt --max-seg

frag_messages() {
    awk '$1 == "SctpFragUsrMsgs" { print $2 }' /proc/net/sctp/snmp
}

# device_and_segment STYLE SERVER CLIENT [TRANSPORT ARGS...]; the server
# also takes $server_args.
device_and_segment() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    _log="${CHECK_WORK}/${_style}-srv.log"
    # shellcheck disable=SC2086 # server_args: words
    start_server "${_log}" - "${_server}" "$@" ${server_args} -p 0 -a lo --bind-device lo \
        --max-seg 1000
    grep -q -e "on interface lo (127.0.0.1)" -e "interface lo gave 127.0.0.1" "${_log}" ||
        fail "${_style}: the server does not log the address -a lo gave"
    grep -q "bound to device lo (SO_BINDTODEVICE, read back)" "${_log}" ||
        fail "${_style}: the server does not log its device read back"
    grep -q "segment size: 1000 bytes asked, 1000 read back" "${_log}" ||
        fail "${_style}: the server does not log its segment size read back"
    _before="$(frag_messages)"
    run_report "${_style}" "${CHECK_WORK}/${_style}.json" "${client_limit_s}" - "${_client}" "$@" \
        -H 127.0.0.1 -p "${SERVER_PORT}" --format json --io-timeout 10 -c 200 \
        --payload-bytes 3000 --echo -i lo --bind-device lo --max-seg 1202
    _fragmented=$(($(frag_messages) - _before))
    expect_field summary.num_points 200
    expect_field config.bind_device lo
    expect_field environment.client_bind_device lo
    expect_field server.bind_device lo
    expect_field config.max_seg_requested_bytes 1202
    expect_field environment.client_max_seg_bytes 1200
    expect_field server.max_seg_requested_bytes 1000
    expect_field server.max_seg_bytes 1000
    expect_field environment.client_interfaces.0.name lo
    expect_field environment.client_interfaces.0.addresses.0 127.0.0.1
    [ "${_fragmented}" -ge 600 ] ||
        mismatches="${mismatches}; SctpFragUsrMsgs grew by ${_fragmented}, not 600 or more"
    judge "${_style}"
    log "${_style}: device lo at both ends; segment 1202 asked -> 1200 in use, server 1000 ->" \
        "$(report_field server.max_seg_bytes); ${_fragmented} messages fragmented;" \
        "local $(report_field environment.local_addresses.0)"
    server_alive "${SERVER_PID}" "${_log}"
    stop_pid "${SERVER_PID}"
}

server_args=""
device_and_segment stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
device_and_segment seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt
# Peeled-off associations take the device and the segment size from the
# one-to-many socket they leave.
server_args="--peel-off"
device_and_segment seqpack-peel-off SOCK_SEQPACK_srv SOCK_SEQPACK_clt
pass "--bind-device lo and --max-seg (SCTP_MAXSEG) read back at both ends, -i lo bound, SOCK_STREAM and SOCK_SEQPACK (one socket and peeled off)"
