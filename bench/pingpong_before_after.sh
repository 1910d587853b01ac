#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Ping-pong latency of two builds of sctp-perf side by side: TCP loopback,
# 128-byte request, 2-byte reply, both ends on CPU 0, the builds alternating
# round by round, the same count per run. For a change to the hot path:
# the ratio is the p50 of build B / the p50 of build A (1.00 = no cost).
#
# Usage: bench/pingpong_before_after.sh -a BIN_DIR_A -b BIN_DIR_B [-c COUNT] [-r ROUNDS]
#   -a, -b  directories holding SOCK_STREAM_srv and SOCK_STREAM_clt
#   -c      timed round trips per run (default 100000)   -r  rounds (default 5)
# Every run is bounded by 120 s.

source "$(dirname "$0")/bench_lib.sh"

count=100000
rounds=5
dir_a=
dir_b=
while getopts "a:b:c:r:h" opt; do
    case $opt in
        a) dir_a=$OPTARG ;;
        b) dir_b=$OPTARG ;;
        c) count=$OPTARG ;;
        r) rounds=$OPTARG ;;
        *) sed -n '3,12p' "$0"; exit 2 ;;
    esac
done
[[ -n $dir_a && -n $dir_b ]] || { echo "-a and -b name the two builds' bin directories" >&2; exit 2; }
[[ $count =~ ^[0-9]+$ && $count -ge 1 ]] || { echo "-c: a count, 1 or more" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
need jq taskset timeout
limit_s=120
cpu=0

snapshot_builds a b

# run_side SIDE: sets p50_us from one run of that build (its own server).
run_side() {
    local json=$work_dir/$1.json
    bin_dir=$work_dir/$1
    start_sctp_perf_server "$cpu" "$limit_s"
    timeout "$limit_s" taskset -c "$cpu" "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 \
        -p "$srv_port" -s 7 -c "$count" --format json >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt ($1) failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    p50_us=$(report_p50_us "$json")
}

bin_dir=$work_dir/b
machine_line
echo "A: $dir_a"
echo "B: $dir_b"
echo "TCP loopback ping-pong, 128-byte request, 2-byte reply, both ends CPU $cpu, $count round trips per run, $rounds rounds"
echo
printf '%-5s | %12s %12s %7s\n' round "A p50 us" "B p50 us" "B / A"
ratios=()
for round in $(seq "$rounds"); do
    run_side a
    a_p50=$p50_us
    run_side b
    ratios+=("$(ratio "$p50_us" "$a_p50")")
    printf '%-5s | %12.3f %12.3f %7s\n' "$round" "$a_p50" "$p50_us" "${ratios[-1]}"
done
echo
echo "median ratio p50 B / A: $(printf '%s\n' "${ratios[@]}" | median)"
load_line end
