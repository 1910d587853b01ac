# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 150
# One SEQPACK server, two clients at the same time: the server keeps the two
# associations apart, and both clients get every reply they wait for. Both
# are given one --start-at instant a few seconds ahead: each connects and
# primes at once, then waits for it, so their associations are open together
# however slow the host (two clients merely started together could run one
# after the other on a busy one: under ASan beside a whole other test suite,
# the first had finished before the second connected). How far ahead comes
# from this VM as it is now: a client of the same kind is timed from its
# start to its report (connect, primer, one round trip, exit), and the
# instant is three times that ahead, at least 4 s (a fixed 4 s was passed
# 0.17 s before a client was ready, with two other VMs on the host).
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

count=500
need_modules
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt

start_server "${CHECK_WORK}/srv.log" - SOCK_SEQPACK_srv -p 0
ready_from="$(now_s)"
ready_status=0
run_client "${CHECK_WORK}/ready.json" 60 - SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" \
    -s 10 -c 1 --format json --io-timeout 10 || ready_status=$?
check_run "${CHECK_WORK}/ready.json" "${ready_status}" 1 "the timing client"
ready_s="$(float_sub "$(now_s)" "${ready_from}")"
lead_s="$(awk -v r="${ready_s}" 'BEGIN { l = 3 * r; if (l < 4) l = 4; printf "%d", l + 0.999 }')"
start_at=$(($(date +%s) + lead_s))
log "a client took ${ready_s} s from its start to its report here now: the instant is ${lead_s} s ahead"
log "server on port ${SERVER_PORT}; two clients, ${count} iterations each, both measuring from ${start_at} (Unix seconds)"
start_client "${CHECK_WORK}/a.json" - SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" \
    -s 10 -c "${count}" --format json --io-timeout 10 --start-at "${start_at}"
pid_a="${CLIENT_PID}"
start_client "${CHECK_WORK}/b.json" - SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" \
    -s 4 -c "${count}" --format json --io-timeout 10 --start-at "${start_at}"
pid_b="${CLIENT_PID}"
# Sample the server's associations while the clients run: two at once is
# the proof that the runs overlapped rather than queued.
most_at_once=0
ticks=0
while { kill -0 "${pid_a}" || kill -0 "${pid_b}"; } 2>/dev/null && [ "${ticks}" -lt 600 ]; do
    now="$(count_assocs "${SERVER_PORT}")"
    [ "${now}" -gt "${most_at_once}" ] && most_at_once="${now}"
    sleep 0.1
    ticks=$((ticks + 1))
done
status_a=0
wait_bounded "${pid_a}" 1 || status_a=$?
status_b=0
wait_bounded "${pid_b}" 1 || status_b=$?
check_run "${CHECK_WORK}/a.json" "${status_a}" "${count}" "client a (1024 bytes)"
check_run "${CHECK_WORK}/b.json" "${status_b}" "${count}" "client b (16 bytes)"
log "client a, 1024 bytes: $(describe_run "${CHECK_WORK}/a.json")"
log "client b, 16 bytes:   $(describe_run "${CHECK_WORK}/b.json")"
log "server associations open at once: ${most_at_once}"
server_alive "${SERVER_PID}" "${CHECK_WORK}/srv.log"
[ "${most_at_once}" -ge 2 ] || fail "the two clients never had associations open at the same time"
pass "both clients completed ${count} round trips concurrently"
