# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 40
# After the modules are loaded, the kernel creates SCTP sockets: the stream
# server starts on SCTP and the kernel lists its endpoint.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_modules
[ -d /proc/net/sctp ] || fail "no /proc/net/sctp after loading sctp.ko"
require_program SOCK_STREAM_srv

start_server "${CHECK_WORK}/srv.log" - SOCK_STREAM_srv -t sctp -p 0
log "SOCK_STREAM_srv -t sctp -p 0 reported port ${SERVER_PORT}"
# /proc/net/sctp/eps: one line per listening endpoint, LPORT in column 6.
if ! awk -v p="${SERVER_PORT}" 'NR > 1 && $6 == p { found = 1 } END { exit !found }' /proc/net/sctp/eps; then
    cat /proc/net/sctp/eps
    fail "port ${SERVER_PORT} is not in /proc/net/sctp/eps"
fi
log "kernel endpoint: $(awk -v p="${SERVER_PORT}" 'NR > 1 && $6 == p' /proc/net/sctp/eps)"
pass "SCTP server listening on port ${SERVER_PORT}"
