# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 300
# (A bound on a hang, not on speed: 17 clients under TCG on a slow, busy
# 2-CPU host took 115 s for SOCK_STREAM and more than 150 for SOCK_SEQPACK.)
# SOCK_STREAM over SCTP at every payload size the programs accept (2^0 to
# 2^16 bytes): each run exits 0 and reports exactly the samples it was asked
# for, so no size loses, splits or merges a message.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

count=200
need_modules
require_program SOCK_STREAM_srv
require_program SOCK_STREAM_clt

start_server "${CHECK_WORK}/srv.log" - SOCK_STREAM_srv -t sctp -p 0
log "server on port ${SERVER_PORT}; ${count} iterations per size"
run_every_size "${count}" SOCK_STREAM_clt -t sctp
pass "17 sizes x ${count} round trips, exact counts"
