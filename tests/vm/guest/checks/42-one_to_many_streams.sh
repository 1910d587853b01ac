# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 180
# 100 associations x 16 streams on SOCK_SEQPACK_srv's one socket: every
# message of every stream of every association accounted for.
#
#   server: --streams 16 (it offers 16 streams each way).
#   client: --flows 100 --streams 16 --rate 20 -c 32: each flow sends its
#           32 timed messages round-robin over its 16 streams, 2 per stream:
#           100 x 32 = 3200 sent and replied, 100 x 2 = 200 per stream, and
#           the server saw 100 x (32 + 100) = 13200 (primers included).
#
# The server answers each request on the stream it came on (SCTP_SNDINFO
# with the SCTP_RCVINFO it read); the client times each reply against its
# request by sequence and token. Counts only; the guest's timing is emulated.
#
# The server gets --header-timeout 10: its one thread reads the test headers
# of all 100 associations in turn from the socket's one queue, and under TCG
# the last ones were read more than the default 2 s after their
# associations came up (4 runs in 10 ended with "no whole test header
# within 2.0 s" for one association), though the client had sent them.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=120
need_modules
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt

start_server "${CHECK_WORK}/srv.log" - SOCK_SEQPACK_srv -p 0 --streams 16 --io-timeout 30 \
    --header-timeout 10
run_report "100 associations x 16 streams" "${CHECK_WORK}/streams.json" "${client_limit_s}" - \
    SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 --flows 100 --streams 16 --rate 20 \
    -c 32 --interval 0 --format json --io-timeout 30
expect_field load.flows 100
expect_field load.messages_sent 3200
expect_field load.messages_received_by_server 3200
expect_field load.messages_replied 3200
expect_field load.messages_lost 0
expect_field load.messages_duplicated 0
expect_field load.server.messages_received 13200
expect_field server.data_path "one-to-many, one socket"
expect_field sctp.outbound_streams 16
expect_field server.sctp.outbound_streams 16
stream=0
replied=""
while [ "${stream}" -lt 16 ]; do
    expect_field "load.per_stream.${stream}.stream" "${stream}"
    expect_field "load.per_stream.${stream}.messages_replied" 200
    replied="${replied}${replied:+,}$(report_field "load.per_stream.${stream}.messages_replied")"
    stream=$((stream + 1))
done
[ -z "$(report_field load.per_stream.16.stream)" ] ||
    mismatches="${mismatches}; more than 16 streams in the report"
judge "100 associations x 16 streams"
server_alive "${SERVER_PID}" "${CHECK_WORK}/srv.log"
log "replied per stream: ${replied}; server received $(report_field load.server.messages_received)"
pass "100 associations x 16 streams on one socket: 3200 messages, 200 on each stream, all replied"
