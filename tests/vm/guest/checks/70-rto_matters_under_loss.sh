# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 170
# Under packet loss an SCTP round trip that loses a packet waits for a
# retransmission timeout. The kernel's default rto_min is 1000 ms, so with
# default RTOs the worst round trip is at least a second; with
# --sctp-rto-min/--sctp-rto-max 20 ms on both ends it stays far below that.
#
#   ns c  nl0c 10.77.4.1/24 ---- netem loss 5% each way ---- nl0s 10.77.4.2/24  ns s
#
# Counts: a round trip crosses the lossy link twice, so 9.75% of them lose
# a packet. 100 measured round trips all escape loss with probability
# 0.9025^100 = 3.5e-5, so the default run shows a retransmission almost
# surely; with the 100 primer round trips it costs about
# 200 * 0.0975 * 1 s = 20 s. The tuned run can afford 300.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

default_count=100
tuned_count=300
default_rto_min_us=1000000
tuned_rto="--sctp-rto-initial 20 --sctp-rto-min 20 --sctp-rto-max 20"
# A tuned round trip may wait out a few 20 ms timeouts (a lost request, then
# a lost reply); 500 ms is half the default minimum and leaves room for
# emulation.
tuned_max_bound_us=500000

need_modules
require_program SOCK_STREAM_srv
require_program SOCK_STREAM_clt
need_option SOCK_STREAM_clt sctp-rto-min
need_option SOCK_STREAM_srv sctp-rto-min

make_netns c
make_netns s
veth_link c nl0c 10.77.4.1/24 s nl0s 10.77.4.2/24

# Default RTOs start at rto_initial = 3 s before the first RTT sample and
# double on every loss, so an unlucky setup exchange alone can wait
# 3 + 6 + 12 s. Both ends get --io-timeout 60 so such waits are never
# taken for a dead peer, and the servers --header-timeout 60 too: a lost
# test header is retransmitted only after rto_initial, 3 s, beyond the
# server's default 2 s for the whole header. The check's own limit still
# bounds the run.
io_timeout_s=60

# The server's RTO governs lost replies, so each run has its own server.
start_server "${CHECK_WORK}/srv-default.log" s SOCK_STREAM_srv -t sctp -p 0 -a 10.77.4.2 \
    --io-timeout "${io_timeout_s}" --header-timeout "${io_timeout_s}"
port_default="${SERVER_PORT}"
# shellcheck disable=SC2086 # ${tuned_rto} is a list of options
start_server "${CHECK_WORK}/srv-tuned.log" s SOCK_STREAM_srv -t sctp -p 0 -a 10.77.4.2 \
    --io-timeout "${io_timeout_s}" --header-timeout "${io_timeout_s}" ${tuned_rto}
port_tuned="${SERVER_PORT}"

ip netns exec c "${TC}" qdisc add dev nl0c root netem loss 5% || fail "tc netem on nl0c failed"
ip netns exec s "${TC}" qdisc add dev nl0s root netem loss 5% || fail "tc netem on nl0s failed"
log "netem: $(ip netns exec c "${TC}" qdisc show dev nl0c) / $(ip netns exec s "${TC}" qdisc show dev nl0s)"

status=0
run_client "${CHECK_WORK}/default.json" 110 c SOCK_STREAM_clt -t sctp -H 10.77.4.2 \
    -p "${port_default}" -s 6 -c "${default_count}" --format json --io-timeout "${io_timeout_s}" ||
    status=$?
check_run "${CHECK_WORK}/default.json" "${status}" "${default_count}" "default-RTO run"
log "default RTO:    $(describe_run "${CHECK_WORK}/default.json")"

status=0
# shellcheck disable=SC2086
run_client "${CHECK_WORK}/tuned.json" 60 c SOCK_STREAM_clt -t sctp -H 10.77.4.2 \
    -p "${port_tuned}" -s 6 -c "${tuned_count}" --format json --io-timeout "${io_timeout_s}" \
    ${tuned_rto} || status=$?
check_run "${CHECK_WORK}/tuned.json" "${status}" "${tuned_count}" "tuned-RTO run"
log "RTO 20 ms:      $(describe_run "${CHECK_WORK}/tuned.json")"

default_max_us="$(json_num "${CHECK_WORK}/default.json" summary max_us)"
tuned_max_us="$(json_num "${CHECK_WORK}/tuned.json" summary max_us)"
log "maximum RTT: default RTO ${default_max_us} us, RTO 20 ms ${tuned_max_us} us"
float_ge "${default_max_us}" "${default_rto_min_us}" ||
    fail "default-RTO run never waited a default RTO (max ${default_max_us} us): no loss seen, or the kernel's rto_min is not 1 s"
float_lt "${tuned_max_us}" "${tuned_max_bound_us}" ||
    fail "RTO 20 ms run still had a ${tuned_max_us} us round trip (bound ${tuned_max_bound_us} us)"
pass "max RTT ${default_max_us} us with default RTO vs ${tuned_max_us} us with RTO 20 ms"
