#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Ping-pong latency next to the bare-C floor (pingpong_floor.c): TCP loopback,
# 128-byte request, 2-byte reply, TCP_NODELAY, both ends of both tools on
# CPU 0, the same count of timed round trips, the tools alternating round by
# round. Compares the p50 round trip; the ratio is sctp-perf / bare C.
#
# Usage: bench/pingpong_vs_floor.sh [-c COUNT] [-r ROUNDS]
#   -c  timed round trips per run (default 100000)   -r  rounds (default 3)
# Every run is bounded by 120 s.

source "$(dirname "$0")/bench_lib.sh"

count=100000
rounds=3
while getopts "c:r:h" opt; do
    case $opt in
        c) count=$OPTARG ;;
        r) rounds=$OPTARG ;;
        *) sed -n '3,12p' "$0"; exit 2 ;;
    esac
done
[[ $count =~ ^[0-9]+$ && $count -ge 1 ]] || { echo "-c: a count, 1 or more" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
need cc jq taskset timeout
limit_s=120
cpu=0

cc -O2 -Wall -Wextra -o "$work_dir/pingpong_floor" "$bench_dir/pingpong_floor.c" ||
    die "cannot build pingpong_floor.c"

# Sets floor_p50_us.
run_floor() {
    local out=$work_dir/floor.out
    timeout "$limit_s" taskset -c "$cpu" "$work_dir/pingpong_floor" "$count" >"$out" ||
        die "pingpong_floor failed"
    floor_p50_us=$(awk '$1 == "p50_us" { print $2 }' "$out")
}

# Sets sctp_p50_us.
run_sctp_perf() {
    local json=$work_dir/pp.json
    start_sctp_perf_server "$cpu" "$limit_s"
    timeout "$limit_s" taskset -c "$cpu" "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 \
        -p "$srv_port" -s 7 -c "$count" --format json >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    sctp_p50_us=$(report_p50_us "$json")
}

snapshot_binaries
machine_line
echo "TCP loopback ping-pong, 128-byte request, 2-byte reply, both ends CPU $cpu, $count round trips per run, $rounds rounds"
echo
printf '%-5s | %14s %14s %7s\n' round "bare C p50 us" "sctp-perf p50" ratio
ratios=()
for round in $(seq "$rounds"); do
    run_floor
    run_sctp_perf
    ratios+=("$(ratio "$sctp_p50_us" "$floor_p50_us")")
    printf '%-5s | %14.3f %14.3f %7s\n' "$round" "$floor_p50_us" "$sctp_p50_us" "${ratios[-1]}"
done
echo
echo "median ratio p50 sctp-perf / bare C: $(printf '%s\n' "${ratios[@]}" | median)"
load_line end
