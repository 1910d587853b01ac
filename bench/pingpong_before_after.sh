#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Ping-pong latency of two builds of sctp-perf side by side: TCP loopback,
# 128-byte request, 2-byte reply (-s 7, which every build since the first
# takes), each build's client against its own server, in two placements:
# both ends on CPU A ("1cpu"), and the client on CPU A with the server on
# CPU S ("2cpu"). Within a round the builds alternate, placement by
# placement, and which goes first swaps every round, so that drift in a busy
# machine falls on both. The ratio is the p50 of build B / the p50 of build
# A (1.00 = no cost; below 1.00, B is faster).
#
# A is the fixed reference (bench/build_baseline.sh, fec1a73 unless told),
# B the current build, so that every run compares with the same baseline
# and not with the run before.
#
# Usage: bench/pingpong_before_after.sh [-a BIN_DIR_A] [-b BIN_DIR_B] [-c COUNT] [-r ROUNDS]
#                                       [-A CPU] [-S CPU] [-p 1cpu|2cpu|both]
#   -a  the reference's bin directory (default: $SCTP_PERF_BASELINE_BIN, or
#       bench/build_baseline.sh's build of fec1a73, built when missing)
#   -b  the build measured (default: $SCTP_PERF_BIN, or build/bin)
#   -c  timed round trips per run (default 100000)   -r  rounds (default 5)
#   -A  the client's CPU (default 0)   -S  the server's CPU in 2cpu (default 1)
#   -p  placements (default both)
# Every run is bounded by 120 s.

source "$(dirname "$0")/bench_lib.sh"

count=100000
rounds=5
cpu_a=0
cpu_s=1
placements=both
dir_a=
dir_b=$build_bin_dir
while getopts "a:b:c:r:A:S:p:h" opt; do
    case $opt in
        a) dir_a=$OPTARG ;;
        b) dir_b=$OPTARG ;;
        c) count=$OPTARG ;;
        r) rounds=$OPTARG ;;
        A) cpu_a=$OPTARG ;;
        S) cpu_s=$OPTARG ;;
        p) placements=$OPTARG ;;
        *) sed -n '3,25p' "$0"; exit 2 ;;
    esac
done
check_pingpong_arguments
need jq taskset timeout
limit_s=120
if [[ -z $dir_a ]]; then
    resolve_baseline
    dir_a=$baseline_bin_dir
fi

snapshot_builds a b

# run_side SIDE CLIENT_CPU SERVER_CPU: sets p50_us from one run of that
# build's client against its own server.
run_side() {
    local json=$work_dir/$1.json
    bin_dir=$work_dir/$1
    start_sctp_perf_server "$3" "$limit_s"
    timeout "$limit_s" taskset -c "$2" "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 \
        -p "$srv_port" -s 7 -c "$count" --format json >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt ($1) failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    p50_us=$(report_p50_us "$json")
    [[ -n $p50_us ]] || die "no p50 in the report of build $1"
}

declare -A a_p50s=() b_p50s=() ratios=()
# placement NAME SERVER_CPU: one run of each build, in the round's order.
placement() {
    local name=$1 srv_cpu=$2 a_p50 b_p50 side
    for side in $( ((round % 2)) && echo a b || echo b a); do
        run_side "$side" "$cpu_a" "$srv_cpu"
        if [[ $side == a ]]; then a_p50=$p50_us; else b_p50=$p50_us; fi
    done
    a_p50s[$name]+="$a_p50 "
    b_p50s[$name]+="$b_p50 "
    ratios[$name]+="$(ratio "$b_p50" "$a_p50") "
    printf '%-5s %-5s | %12.3f %12.3f %7s\n' "$round" "$name" "$a_p50" "$b_p50" \
        "$(ratio "$b_p50" "$a_p50")"
}

bin_dir=$work_dir/b
machine_line
build_line A "$dir_a"
build_line B "$dir_b"
echo "TCP loopback ping-pong, 128-byte request, 2-byte reply, $count round trips per run, $rounds rounds"
echo "1cpu: both ends on CPU $cpu_a; 2cpu: client CPU $cpu_a, server CPU $cpu_s; each build against its own server"
echo
printf '%-11s | %12s %12s %7s\n' round "A p50 us" "B p50 us" "B / A"
for round in $(seq "$rounds"); do
    for name in $placements; do
        if [[ $name == 1cpu ]]; then placement 1cpu "$cpu_a"; else placement 2cpu "$cpu_s"; fi
    done
done
echo
for name in $placements; do
    printf '%s median p50: A %.3f us, B %.3f us\n' "$name" "$(list_median "${a_p50s[$name]}")" \
        "$(list_median "${b_p50s[$name]}")"
    echo "$name median ratio p50 B / A: $(list_median "${ratios[$name]}")  (target <= 1.00)"
done
load_line end
