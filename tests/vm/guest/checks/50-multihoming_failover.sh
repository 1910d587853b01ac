# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# Multihoming: client and server each have two addresses on two separate
# links. Midway through a SEQPACK run the first link goes down; SCTP moves
# the association to the second path and the run completes. With RTOs of
# 50..200 ms the worst round trip stays below the kernel's default minimum
# RTO (1 s), which is what any default-RTO failover would cost at least.
#
#   ns c                                 ns s
#   mh0c 10.77.1.1/24 ---- path 1 ---- mh0s 10.77.1.2/24   (set down midway)
#   mh1c 10.77.2.1/24 ---- path 2 ---- mh1s 10.77.2.2/24
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_modules
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt
need_option SOCK_SEQPACK_clt sctp-rto-min
need_option SOCK_SEQPACK_srv sctp-rto-min

rto="--sctp-rto-initial 100 --sctp-rto-min 50 --sctp-rto-max 200"
# One round trip after the link goes down may wait for a client and a
# server retransmission timeout (at most 200 ms each, rto_max); 1 s keeps
# room for emulation and is still below one default minimum RTO.
max_rtt_bound_us=1000000
# Time for the rest of the run once the link is down.
after_down_bound_s=60

make_netns c
make_netns s
veth_link c mh0c 10.77.1.1/24 s mh0s 10.77.1.2/24
veth_link c mh1c 10.77.2.1/24 s mh1s 10.77.2.2/24

# --header-timeout 20: under the sanitizers, on a host busy with the rest
# of the test command, a client took longer than the default 2 s from its
# association to its test header; the check is about the paths, not that.
# shellcheck disable=SC2086 # ${rto} is a list of options
start_server "${CHECK_WORK}/srv.log" s SOCK_SEQPACK_srv -p 0 -a 10.77.1.2,10.77.2.2 ${rto} \
    --header-timeout 20
port="${SERVER_PORT}"
client_args="-H 10.77.1.2,10.77.2.2 -i 10.77.1.1,10.77.2.1 -p ${port} -s 6 --format json --io-timeout 20 ${rto}"
log "server in ns s on 10.77.1.2,10.77.2.2 port ${port}; options: ${rto}"

# How fast does emulation run today? A short run sizes the real one so the
# link goes down early in it, whatever the host's speed.
status=0
# shellcheck disable=SC2086
run_client "${CHECK_WORK}/calibrate.json" 60 c SOCK_SEQPACK_clt ${client_args} -c 300 || status=$?
check_run "${CHECK_WORK}/calibrate.json" "${status}" 300 "calibration run"
log "calibration, both links up: $(describe_run "${CHECK_WORK}/calibrate.json")"
calibrate_s="$(json_num "${CHECK_WORK}/calibrate.json" summary duration_s)"
# Enough iterations for about 8 s of traffic, between 2000 and 100000.
count="$(awk -v d="${calibrate_s}" 'BEGIN { n = int(8 * 300 / (d > 0 ? d : 1)); if (n < 2000) n = 2000; if (n > 100000) n = 100000; print n }')"

# Packets the server sent on each path, from its side of each link.
server_tx() {
    ip netns exec s cat "/sys/class/net/$1/statistics/tx_packets"
}
path1_before="$(server_tx mh0s)"
path2_before="$(server_tx mh1s)"

# shellcheck disable=SC2086
start_client "${CHECK_WORK}/run.json" c SOCK_SEQPACK_clt ${client_args} -c "${count}"
client="${CLIENT_PID}"
# "Midway": once path 1 has carried the primer and a few hundred measured
# round trips (one server packet each), however fast emulation runs today.
ticks=0
while [ $(($(server_tx mh0s) - path1_before)) -lt 400 ] && [ "${ticks}" -lt 200 ] &&
    kill -0 "${client}" 2>/dev/null; do
    sleep 0.1
    ticks=$((ticks + 1))
done
kill -0 "${client}" 2>/dev/null ||
    fail "the ${count}-iteration run ended before the link went down; the calibration misjudged the speed"
path1_up="$(server_tx mh0s)"
ip -n s link set mh0s down || fail "cannot set mh0s down"
down_at="$(now_s)"
log "$(date +%T) path 1 (mh0s) set down; client running ${count} iterations"

status=0
wait_bounded "${client}" "${after_down_bound_s}" || status=$?
after_down_s="$(float_sub "$(now_s)" "${down_at}")"
path2_after="$(server_tx mh1s)"
check_run "${CHECK_WORK}/run.json" "${status}" "${count}" "run with path 1 set down"
log "run with path 1 down midway: $(describe_run "${CHECK_WORK}/run.json")"
log "finished ${after_down_s} s after the link went down"
log "server packets on path 1 before it went down: $((path1_up - path1_before)); on path 2 during the run: $((path2_after - path2_before))"
# The client's own summary, as its report has it.
log "client summary: $(json_object "${CHECK_WORK}/run.json" summary)"
log "client percentiles: $(json_object "${CHECK_WORK}/run.json" percentiles)"
server_alive "${SERVER_PID}" "${CHECK_WORK}/srv.log"

# Path 1 was the one in use, so its loss is what the run survived.
[ $((path1_up - path1_before)) -ge 100 ] ||
    fail "path 1 carried only $((path1_up - path1_before)) server packets before it went down; it was not the primary path"
# Path 2 carried the traffic after the failure: the server sent on it at
# least one packet per remaining round trip (heartbeats alone are a handful).
[ $((path2_after - path2_before)) -ge 100 ] ||
    fail "path 2 carried only $((path2_after - path2_before)) server packets; the association did not fail over"
max_us="$(json_num "${CHECK_WORK}/run.json" summary max_us)"
float_lt "${max_us}" "${max_rtt_bound_us}" ||
    fail "worst round trip ${max_us} us is not below ${max_rtt_bound_us} us with rto_max 200 ms"
pass "failover to path 2; max RTT ${max_us} us < ${max_rtt_bound_us} us; done ${after_down_s} s after link down"
