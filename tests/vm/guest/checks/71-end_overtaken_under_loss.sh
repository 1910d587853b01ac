# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 480
# (A bound for a hang only: the four runs took 8 to 15 s each with the plain
# programs and the VM alone on the host; sanitized, beside the other VM run,
# they may take several times as long.)
# Over SCTP the end-of-test message can overtake requests sent before it.
# Delivered out of order (other streams, unordered), they come within a
# moment; lost on the way, they come again only after a retransmission
# timeout, and the server must wait for that too, or it reports requests
# that did reach it as never received (and then takes them for data after
# the end of the test and fails the session).
#
#   ns c  ol0c 10.77.5.1/24 ---- netem loss 10% each way ---- ol0s 10.77.5.2/24  ns s
#
# Throughput runs (--throughput -c 1000, 16 streams, unordered) over
# SOCK_STREAM and SOCK_SEQPACK, two each: every run must report all 1000
# requests received by the server and none lost. A run puts the server to
# the test when a request is lost shortly before the end (too few SACKs
# follow for a fast retransmission, so it waits out the RTO): 5 of the
# first 6 runs here did (of 2000 requests each), and a server that did not
# wait failed the first of them, counting 1995 of 2000. How many runs drew
# such a wait is logged from the server's line. RTOs of 300 ms to 1 s on
# both ends, above the server's 200 ms quiet, keep the runs short.
# Counts only; the guest's timing is emulated.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

runs=2
count=1000
rto="--sctp-rto-initial 500 --sctp-rto-min 300 --sctp-rto-max 1000"
# A lost INIT or test header waits out the initial RTO: both ends allow far
# more than that before they take the peer for gone.
timeouts="--io-timeout 30"

need_modules
need_program SOCK_STREAM_srv
need_program SOCK_STREAM_clt
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt

make_netns c
make_netns s
veth_link c ol0c 10.77.5.1/24 s ol0s 10.77.5.2/24

# shellcheck disable=SC2086 # ${rto} and ${timeouts} are lists of options
start_server "${CHECK_WORK}/stream-srv.log" s SOCK_STREAM_srv -t sctp -p 0 -a 10.77.5.2 \
    --streams 16 ${rto} ${timeouts} --header-timeout 30
stream_port="${SERVER_PORT}"
# shellcheck disable=SC2086
start_server "${CHECK_WORK}/seqpack-srv.log" s SOCK_SEQPACK_srv -p 0 -a 10.77.5.2 \
    --streams 16 ${rto} ${timeouts} --header-timeout 30
seqpack_port="${SERVER_PORT}"

ip netns exec c "${TC}" qdisc add dev ol0c root netem loss 10% || fail "tc netem on ol0c failed"
ip netns exec s "${TC}" qdisc add dev ol0s root netem loss 10% || fail "tc netem on ol0s failed"

for style in stream seqpack; do
    if [ "${style}" = stream ]; then
        client=SOCK_STREAM_clt
        port="${stream_port}"
    else
        client=SOCK_SEQPACK_clt
        port="${seqpack_port}"
    fi
    run=1
    while [ "${run}" -le "${runs}" ]; do
        # shellcheck disable=SC2086
        run_report "${style} run ${run}" "${CHECK_WORK}/${style}-${run}.json" 120 c "${client}" \
            -H 10.77.5.2 -p "${port}" -s 7 --streams 16 --unordered --throughput -c "${count}" \
            --interval 0 --format json ${rto} ${timeouts}
        expect_field load.messages_sent "${count}"
        expect_field load.messages_received_by_server "${count}"
        expect_field load.messages_lost 0
        judge "${style} run ${run}" "all ${count} received by the server [${RUN_S} s]"
        run=$((run + 1))
    done
done

waits="$(count_lines "${CHECK_WORK}/stream-srv.log" "waiting for the kernel's retransmission")"
waits=$((waits + $(count_lines "${CHECK_WORK}/seqpack-srv.log" "waiting for the kernel's retransmission")))
log "runs whose end came before a lost request and waited for its retransmission: ${waits} of $((2 * runs))"
pass "$((2 * runs)) throughput runs over 16 unordered streams with 10% loss each way, SOCK_STREAM and SOCK_SEQPACK: every request counted by the server (${waits} waited for a retransmission after the end)"
