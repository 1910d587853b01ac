# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 150
# SCTP's own features, each read back from the real kernel at both ends,
# over SOCK_STREAM (one-to-one) and SOCK_SEQPACK (one-to-many, peeled off):
#
#   one run with every feature at once, client and server alike:
#     --streams 16 --unordered --pr-sctp ttl:2000 --sack-delay 100
#     --sack-freq 2 --stream-scheduler rr, --rate 500 -c 320
#   - SCTP_STATUS: 16 streams each way on both ends;
#   - SCTP_DELAYED_SACK: 100 ms and 2 packets on both ends;
#   - SCTP_STREAM_SCHEDULER: rr on both ends;
#   - SCTP_PR_SUPPORTED: agreed; no loss here, so nothing is abandoned and
#     all 320 replies come (the report counts missing ones as abandoned);
#   - every stream carries 320 / 16 = 20 round trips;
#   - SCTP_GET_ASSOC_STATS: the client sent at least 320 unordered chunks
#     and the server at least 320 (it answers with its request's flag);
#   a contrast run with --streams 4 alone sends no unordered chunk at all,
#   so a flag set on every message regardless would fail here;
#   a throughput run over 16 unordered streams, 3000 messages, 1 in 1000
#   timed: the server counts all 3000, those the end-of-test message
#   overtook included.
#
#   --pr-sctp rtx:3 is taken and stated; a client with --streams 16 against
#   a server without is refused with advice (exit 1); --stream-scheduler fc
#   (Linux 6.2) fails with the kernel it needs; --interleave fails without
#   net.sctp.intl_enable and works, read back on both ends, with it (set in
#   a namespace of its own, so nothing else sees it).
# Counts and kernel read-backs only: no timing is judged.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles

# feature_run NAME NS CLIENT ARGS...: a client run that must succeed; sets
# REPORT and FLAT.
feature_run() {
    _name="$1"
    _ns="$2"
    _client="$3"
    shift 3
    run_report "${_name}" "${CHECK_WORK}/${_name}.json" "${client_limit_s}" "${_ns}" "${_client}" \
        -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 --interval 0 --format json --io-timeout 10 "$@"
}

# refused NAME WANT_TEXT LIMIT_S NS PROGRAM ARGS...: PROGRAM must exit 1
# within LIMIT_S seconds with WANT_TEXT on stderr.
refused() {
    _name="$1"
    _want="$2"
    _out="${CHECK_WORK}/${_name}.out"
    shift 2
    _status=0
    run_client "${_out}" "$@" || _status=$?
    if [ "${_status}" -ne 1 ] || ! grep -q -- "${_want}" "${_out}.err"; then
        sed 's/^/    stderr: /' "${_out}.err"
        fail "${_name}: expected exit 1 with '${_want}', got exit ${_status}"
    fi
    log "${_name}: exit 1, $(head -n 1 "${_out}.err")"
}

all_features="--streams 16 --unordered --pr-sctp ttl:2000 --sack-delay 100 --sack-freq 2 --stream-scheduler rr"

# features STYLE SERVER CLIENT [-t sctp]
features() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    # shellcheck disable=SC2086
    start_server "${CHECK_WORK}/${_style}-srv.log" - "${_server}" "$@" -p 0 ${all_features}
    # shellcheck disable=SC2086
    feature_run "${_style}-all" - "${_client}" "$@" ${all_features} --rate 500 -c 320
    for end in sctp server.sctp; do
        expect_field "${end}.outbound_streams" 16
        expect_field "${end}.inbound_streams" 16
        expect_field "${end}.sack_delay_ms" 100
        expect_field "${end}.sack_freq" 2
        expect_field "${end}.scheduler" rr
        expect_field "${end}.pr_supported" true
        expect_field "${end}.pr_sctp" ttl:2000
        expect_field "${end}.unordered" true
    done
    expect_field load.partially_reliable true
    expect_field load.messages_sent 320
    expect_field load.messages_replied 320
    expect_field load.messages_abandoned 0
    expect_field load.messages_lost 0
    _stream=0
    while [ "${_stream}" -lt 16 ]; do
        expect_field "load.per_stream.${_stream}.messages_replied" 20
        _stream=$((_stream + 1))
    done
    expect_field load.per_stream.16.stream ""
    expect_field transport.source SCTP_GET_ASSOC_STATS
    expect_at_least transport.unordered_chunks_sent 320
    expect_at_least transport.unordered_chunks_received 320
    expect_at_least load.server.transport.unordered_chunks_sent 320
    judge "${_style} all features"
    log "${_style} all features: streams $(report_field sctp.outbound_streams)/$(report_field sctp.inbound_streams)" \
        "(server $(report_field server.sctp.outbound_streams)/$(report_field server.sctp.inbound_streams))," \
        "sack $(report_field sctp.sack_delay_ms) ms x$(report_field sctp.sack_freq)," \
        "scheduler $(report_field sctp.scheduler), pr $(report_field sctp.pr_sctp) agreed $(report_field sctp.pr_supported)," \
        "replied $(report_field load.messages_replied), unordered chunks sent $(report_field transport.unordered_chunks_sent)" \
        "received $(report_field transport.unordered_chunks_received)"

    # Throughput: most requests ask for no reply, so the end-of-test
    # message can overtake some on other streams; the server still counts
    # every one.
    feature_run "${_style}-throughput" - "${_client}" "$@" --streams 16 --unordered \
        --throughput -c 3000
    expect_field load.messages_sent 3000
    expect_field load.messages_received_by_server 3000
    expect_field load.messages_replied 3
    expect_field load.messages_lost 0
    judge "${_style} throughput"
    log "${_style} throughput, 16 streams unordered: sent $(report_field load.messages_sent)," \
        "received by the server $(report_field load.messages_received_by_server)"

    # The same server, ordered this time: no unordered chunk either way.
    feature_run "${_style}-ordered" - "${_client}" "$@" --streams 4 --rate 500 -c 100
    expect_field sctp.unordered false
    expect_field transport.unordered_chunks_sent 0
    expect_field transport.unordered_chunks_received 0
    expect_field load.per_stream.3.messages_replied 25
    expect_at_least transport.ordered_chunks_sent 100
    judge "${_style} ordered"
    log "${_style} ordered, 4 streams: unordered chunks $(report_field transport.unordered_chunks_sent)," \
        "ordered chunks sent $(report_field transport.ordered_chunks_sent)"
    stop_pid "${SERVER_PID}"

    # A server without --streams answers on fewer streams than asked.
    start_server "${CHECK_WORK}/${_style}-plain-srv.log" - "${_server}" "$@" -p 0
    refused "${_style}-streams-mismatch" "with --streams 16 too" "${client_limit_s}" - \
        "${_client}" "$@" -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 --streams 16 --rate 100 -c 10
    stop_pid "${SERVER_PID}"
}

features stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
features seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt

# rtx_and_interleave STYLE SERVER CLIENT [-t sctp]: --pr-sctp rtx:3 taken and
# stated; --interleave read back on both ends, in a namespace whose
# net.sctp.intl_enable is on (made by the caller).
rtx_and_interleave() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    start_server "${CHECK_WORK}/${_style}-rtx-srv.log" - "${_server}" "$@" -p 0 --pr-sctp rtx:3
    feature_run "${_style}-rtx" - "${_client}" "$@" --pr-sctp rtx:3 --rate 500 -c 50
    expect_field sctp.pr_sctp rtx:3
    expect_field server.sctp.pr_sctp rtx:3
    expect_field sctp.pr_supported true
    expect_field load.messages_replied 50
    judge "${_style} rtx"
    log "${_style}: pr-sctp $(report_field sctp.pr_sctp), the peer agreed: $(report_field sctp.pr_supported)"
    stop_pid "${SERVER_PID}"

    start_server "${CHECK_WORK}/${_style}-intl-srv.log" intl "${_server}" "$@" -p 0 \
        --interleave --streams 4
    feature_run "${_style}-interleave" intl "${_client}" "$@" --interleave --streams 4 \
        --rate 500 -c 40
    expect_field sctp.interleaving true
    expect_field server.sctp.interleaving true
    expect_field load.messages_replied 40
    judge "${_style} interleave"
    stop_pid "${SERVER_PID}"
    log "${_style}: I-DATA on both ends ($(report_field sctp.interleaving)/$(report_field server.sctp.interleaving)) with net.sctp.intl_enable=1"
}

# Kernel features this 6.1 kernel lacks or keeps off, named.
refused scheduler-fc "Linux 6.2" 10 - SOCK_STREAM_srv -p 0 --stream-scheduler fc
refused interleave-off "intl_enable" 10 - SOCK_SEQPACK_srv -p 0 --interleave

make_netns intl
ip netns exec intl sh -c 'echo 1 >/proc/sys/net/sctp/intl_enable' ||
    fail "cannot set net.sctp.intl_enable in a namespace"
rtx_and_interleave stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
rtx_and_interleave seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt

pass "streams, unordered, PR-SCTP (ttl, rtx), SACK delay and frequency, the rr scheduler and I-DATA read back on both ends over SOCK_STREAM and SOCK_SEQPACK; fc and interleaving without the sysctl refused by name"
