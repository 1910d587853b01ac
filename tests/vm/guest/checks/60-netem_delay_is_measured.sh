# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 150
# netem adds 1 ms on each end of a veth link, so every round trip over it
# crosses 2 ms of added delay. The programs must see it, over SCTP and TCP:
#   - minimum RTT >= 2000 us, always: nothing can come back sooner;
#   - median RTT "close above" 2000 us: below 2000 us + the same path's
#     median without netem + 1900 us of timer slack. Under emulation netem's
#     timers fire late when the host is busy, so the slack is as wide as it
#     can be while a report that counted the added delay twice (4000 us)
#     still fails.
# The median without netem is measured on a twin link with no qdisc, right
# before each delayed run, because under emulation it swings with the host's
# load (a busy host makes some runs wait a 4 ms guest tick per round trip).
# For the same reason the median bound gets up to three attempts, all
# printed; a report that halves, doubles or ignores the delay
# fails both. The minimum bound gets no second chance.
#
#   ns c  nd0c 10.77.3.1/24 ---- netem 1 ms each way ---- nd0s 10.77.3.2/24  ns s
#         nd1c 10.77.5.1/24 ---- no qdisc (baseline) ---- nd1s 10.77.5.2/24
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

count=200
added_us=2000
slack_us=1900
need_modules
require_program SOCK_STREAM_srv
require_program SOCK_STREAM_clt

make_netns c
make_netns s
veth_link c nd0c 10.77.3.1/24 s nd0s 10.77.3.2/24
veth_link c nd1c 10.77.5.1/24 s nd1s 10.77.5.2/24
ip netns exec c "${TC}" qdisc add dev nd0c root netem delay 1ms || fail "tc netem on nd0c failed"
ip netns exec s "${TC}" qdisc add dev nd0s root netem delay 1ms || fail "tc netem on nd0s failed"
log "netem: $(ip netns exec c "${TC}" qdisc show dev nd0c) / $(ip netns exec s "${TC}" qdisc show dev nd0s)"

# run OUT TRANSPORT PORT HOST
run() {
    status=0
    run_client "$1" 60 c SOCK_STREAM_clt -t "$2" -H "$4" -p "$3" -s 6 -c "${count}" \
        --format json --io-timeout 10 || status=$?
    check_run "$1" "${status}" "${count}" "$2 run to $4"
}

verdicts=""
for transport in sctp tcp; do
    # Listening on every address, so one server serves both links.
    start_server "${CHECK_WORK}/srv-${transport}.log" s SOCK_STREAM_srv -t "${transport}" -p 0
    port="${SERVER_PORT}"
    attempt=1
    while :; do
        base="${CHECK_WORK}/base-${transport}-${attempt}.json"
        delayed="${CHECK_WORK}/delay-${transport}-${attempt}.json"
        run "${base}" "${transport}" "${port}" 10.77.5.2
        run "${delayed}" "${transport}" "${port}" 10.77.3.2
        log "${transport} attempt ${attempt}, no netem:     $(describe_run "${base}")"
        log "${transport} attempt ${attempt}, netem 2x1 ms: $(describe_run "${delayed}")"
        min_us="$(json_num "${delayed}" summary min_us)"
        p50_us="$(json_num "${delayed}" percentiles p50_us)"
        base_p50_us="$(json_num "${base}" percentiles p50_us)"
        p50_bound_us="$(awk -v b="${base_p50_us}" -v a="${added_us}" -v s="${slack_us}" \
            'BEGIN { printf "%.0f", a + b + s }')"
        log "${transport}: min ${min_us} us (must be >= ${added_us}); p50 ${p50_us} us (must be < ${p50_bound_us} = ${added_us} + ${base_p50_us} + ${slack_us})"
        float_ge "${min_us}" "${added_us}" ||
            fail "${transport}: minimum RTT ${min_us} us is below the ${added_us} us netem adds"
        float_lt "${p50_us}" "${p50_bound_us}" && break
        [ "${attempt}" -lt 3 ] ||
            fail "${transport}: median RTT ${p50_us} us is not within ${p50_bound_us} us, three times"
        log "${transport}: median above its bound; measuring once more"
        attempt=$((attempt + 1))
    done
    verdicts="${verdicts}${transport} min ${min_us} p50 ${p50_us} us; "
done
pass "${verdicts%; }"
