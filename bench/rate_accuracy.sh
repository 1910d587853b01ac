#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Whether --rate sends what it is asked to, and whether its latency at a low
# rate agrees with ping-pong's. One TCP flow on loopback, 128-byte messages,
# client on CPU 0 and server on CPU 1, every message echoed (--rate's
# default), 5 s per rate.
#
# For each rate R (1000, 10000, 100000 msg/s) the figure is
# load.rate_achieved_per_s / R (target: within 0.1 % of 1). At 1000 msg/s,
# load.latency_corrected.p50 is set against the p50 of a ping-pong run at the
# same size and placement, run just before (target: within 10 %). The
# ping-pong reply is 2 bytes, a load reply 16: a few nanoseconds on loopback.
#
# Two bare-C ping-pongs (pingpong_floor.c, same size and placement) run
# alongside: back to back, and paced one round trip per millisecond. The
# paced one shows what idling 1 ms between messages costs by itself, so that
# a gap between --rate 1000 and ping-pong can be put down to the pacing or to
# sctp-perf.
#
# Usage: bench/rate_accuracy.sh [-r ROUNDS] [-d SECONDS]
#   -r  rounds over all rates (default 3)   -d  seconds per rate (default 5)
# Every run is bounded by SECONDS + 30 s.

source "$(dirname "$0")/bench_lib.sh"

rounds=3
duration_s=5
pingpong_count=20000
rates=(1000 10000 100000)
while getopts "r:d:h" opt; do
    case $opt in
        r) rounds=$OPTARG ;;
        d) duration_s=$OPTARG ;;
        *) sed -n '3,17p' "$0"; exit 2 ;;
    esac
done
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
[[ $duration_s =~ ^[0-9]+$ && $duration_s -ge 1 ]] || { echo "-d: whole seconds, 1 or more" >&2; exit 2; }
need cc jq taskset timeout
cc -O2 -Wall -Wextra -o "$work_dir/pingpong_floor" "$bench_dir/pingpong_floor.c" ||
    die "cannot build pingpong_floor.c"
limit_s=$((duration_s + 30))
server_cpu=1
client_cpu=0

# Runs SOCK_STREAM_clt with "$@" against a fresh server; the JSON in $json.
json=$work_dir/run.json
run_client() {
    start_sctp_perf_server "$server_cpu" "$limit_s"
    timeout "$limit_s" taskset -c "$client_cpu" "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 \
        -p "$srv_port" -s 7 --format json "$@" >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt $* failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
}

# Sets floor_p50_us; extra pingpong_floor flags in "$@".
run_floor() {
    local out=$work_dir/floor.out
    timeout "$limit_s" taskset -c "$client_cpu" "$work_dir/pingpong_floor" -S "$server_cpu" \
        "$@" >"$out" || die "pingpong_floor $* failed"
    floor_p50_us=$(awk '$1 == "p50_us" { print $2 }' "$out")
}

snapshot_binaries
machine_line
echo "TCP loopback, one flow, 128-byte messages, client CPU $client_cpu, server CPU $server_cpu, ${duration_s} s per rate, $rounds rounds"
echo
printf '%-5s | %8s %12s %9s %10s %9s | %9s %9s %7s | %9s %9s %7s\n' \
    round rate achieved "ach/R" "slip_max" "srv_recv" "corr p50" "pp p50" "ratio" \
    "C pp p50" "C 1ms p50" "ratio"
declare -A accuracy
latency_ratios=()
floor_ratios=()
for round in $(seq "$rounds"); do
    run_floor "$pingpong_count"
    floor_back_to_back_us=$floor_p50_us
    run_floor -g 1000 "$((duration_s * 1000))"
    floor_paced_us=$floor_p50_us
    run_client -c "$pingpong_count"
    pingpong_p50_us=$(report_p50_us "$json")
    for rate in "${rates[@]}"; do
        run_client --rate "$rate" --duration "$duration_s" --interval 0
        read -r achieved slip received corrected_p50_us < <(jq -r '.load |
            "\(.rate_achieved_per_s) \(.schedule_slip_max_us) \(.messages_received_by_server) \(.latency_corrected.p50_us // .latency_corrected.p50)"' "$json")
        asked_ratio=$(awk -v a="$achieved" -v r="$rate" 'BEGIN { printf "%.6f", a / r }')
        accuracy[$rate]+="$asked_ratio "
        printf '%-5s | %8s %12.2f %9s %10.1f %9s | %9.3f' "$round" "$rate" "$achieved" \
            "$asked_ratio" "$slip" "$received" "$corrected_p50_us"
        if [[ $rate == 1000 ]]; then
            latency_ratios+=("$(ratio "$corrected_p50_us" "$pingpong_p50_us")")
            floor_ratios+=("$(ratio "$corrected_p50_us" "$floor_paced_us")")
            printf ' %9.3f %7s | %9.3f %9.3f %7s' "$pingpong_p50_us" "${latency_ratios[-1]}" \
                "$floor_back_to_back_us" "$floor_paced_us" "${floor_ratios[-1]}"
        fi
        echo
    done
done
echo
for rate in "${rates[@]}"; do
    # shellcheck disable=SC2086  # the list is space-separated numbers
    echo "rate $rate: median achieved / asked $(printf '%s\n' ${accuracy[$rate]} | median)  (target 1 +- 0.001)"
done
echo "rate 1000: median corrected p50 / ping-pong p50 $(printf '%s\n' "${latency_ratios[@]}" | median)  (target 1 +- 0.10)"
echo "rate 1000: median corrected p50 / bare-C p50 paced at 1 ms $(printf '%s\n' "${floor_ratios[@]}" | median)"
load_line end
