# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# Fan-out over real SCTP (SOCK_STREAM, one-to-one, the default -t sctp):
# SOCK_STREAM_clt -H 127.0.0.1:P1,127.0.0.1:P2 --flows 4 deals flows 0 and 2
# to the first server, 1 and 3 to the second, and reports a row per server
# that equals that server's own account.
#
#   --rate 500 -c 200 --flows 4: 4 x 200 = 800 messages, 400 per server,
#   each asking for a reply; each server saw 100 primer messages per flow
#   too: its account says 2 x (200 + 100) = 600, and it logs "finished 300
#   messages" once per flow, twice.
#
# Then the second server is stopped: a run over both exits 1 with one line
# naming it ("server 2 of 2 (127.0.0.1:P2), flow 1 of 4: cannot connect").
#
# SOCK_SEQPACK_clt's -H list is one multi-homed server's addresses, not
# several servers (multihoming_failover checks it): nothing to fan out.
# Counts only: the guest's timing is emulated, so no latency is judged.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_modules
require_program SOCK_STREAM_srv
require_program SOCK_STREAM_clt

start_server "${CHECK_WORK}/srv1.log" - SOCK_STREAM_srv -t sctp -p 0
port1="${SERVER_PORT}"
pid1="${SERVER_PID}"
start_server "${CHECK_WORK}/srv2.log" - SOCK_STREAM_srv -t sctp -p 0
port2="${SERVER_PORT}"
pid2="${SERVER_PID}"

run_report "fan-out over two servers" "${CHECK_WORK}/fan-out.json" 60 - SOCK_STREAM_clt \
    -H "127.0.0.1:${port1},127.0.0.1:${port2}" -s 7 --rate 500 -c 200 --flows 4 --interval 0 \
    --format json --io-timeout 10
expect_field config.transport sctp
expect_field load.messages_sent 800
expect_field load.messages_replied 800
expect_field load.messages_lost 0
expect_field load.server.messages_received 1200
expect_field servers.1.settings.transport sctp
expect_field server_settings_differ false
for s in 0 1; do
    expect_field "load.per_server.${s}.flows" 2
    expect_field "load.per_server.${s}.messages_sent" 400
    expect_field "load.per_server.${s}.messages_received_by_server" 400
    expect_field "load.per_server.${s}.messages_replied" 400
    expect_field "load.per_server.${s}.messages_lost" 0
    expect_field "load.per_server.${s}.server_account.messages_received" 600
    [ -n "$(report_field "load.per_server.${s}.p99_9_us")" ] ||
        mismatches="${mismatches}; load.per_server.${s} has no p99_9_us"
done
expect_field load.per_server.0.server "127.0.0.1:${port1}"
expect_field load.per_server.1.server "127.0.0.1:${port2}"
for n in 1 2; do
    await_lines "${CHECK_WORK}/srv${n}.log" 'finished 300 messages' 2 10 ||
        mismatches="${mismatches}; server ${n} logged $(count_lines "${CHECK_WORK}/srv${n}.log" 'finished 300 messages') 'finished 300 messages' lines, expected 2"
done
judge fan-out
log "per server: $(report_field load.per_server.0.server) sent=$(report_field load.per_server.0.messages_sent)," \
    "$(report_field load.per_server.1.server) sent=$(report_field load.per_server.1.messages_sent)"
server_alive "${pid1}" "${CHECK_WORK}/srv1.log"
server_alive "${pid2}" "${CHECK_WORK}/srv2.log"

# The second server gone: the run fails, naming it.
stop_pid "${pid2}"
DOWN="${CHECK_WORK}/down.json"
_status=0
run_client "${DOWN}" 60 - SOCK_STREAM_clt -H "127.0.0.1:${port1},127.0.0.1:${port2}" \
    -s 7 --rate 500 -c 20 --flows 4 --interval 0 --io-timeout 10 || _status=$?
[ "${_status}" -eq 1 ] || {
    sed 's/^/    client: /' "${DOWN}.err"
    fail "a server down: client exited ${_status}, expected 1"
}
grep -q "server 2 of 2 (127.0.0.1:${port2}), flow 1 of 4: cannot connect to 127.0.0.1:${port2}" \
    "${DOWN}.err" || {
    sed 's/^/    client: /' "${DOWN}.err"
    fail "a server down: the failure does not name server 2"
}
log "server 2 down: $(cat "${DOWN}.err")"
server_alive "${pid1}" "${CHECK_WORK}/srv1.log"
stop_pid "${pid1}"
pass "4 flows over 2 SCTP servers: each server's row 400 sent, received and replied, its account 600 and 2 'finished 300 messages' lines; server 2 down named, exit 1"
