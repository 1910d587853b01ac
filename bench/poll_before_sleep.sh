#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What a bounded poll before each sleep (--poll-before-sleep USEC) buys and
# costs: TCP loopback ping-pong, 128-byte request, 2-byte reply, both ends
# given the same bound, for each bound in the list, in two placements: both
# ends on CPU A ("1cpu"), and the client on CPU A with the server on CPU S
# ("2cpu"). Within a round every bound runs once per placement, in an order
# that rotates every round, so that drift in a busy machine falls on all.
# For each bound and placement: the median over rounds of the p50 and p99
# round trip, of the client's CPU (% of one CPU, user + system, over the
# measured round trips), and the p50's ratio to bound 0 (sleeping at once,
# the behaviour without the option). The default is chosen from this table
# (bench/README.md).
#
# Usage: bench/poll_before_sleep.sh [-b BIN_DIR] [-c COUNT] [-r ROUNDS] [-l "B1 B2 ..."]
#                                   [-A CPU] [-S CPU] [-p 1cpu|2cpu|both]
#   -b  the build measured (default: $SCTP_PERF_BIN, or build/bin)
#   -c  timed round trips per run (default 50000)   -r  rounds (default 3)
#   -l  the bounds, microseconds (default "0 10 25 50 100 200")
#   -A  the client's CPU (default 0)   -S  the server's CPU in 2cpu (default 1)
#   -p  placements (default both)
# Every run is bounded by 120 s.

source "$(dirname "$0")/bench_lib.sh"

count=50000
rounds=3
bounds="0 10 25 50 100 200"
cpu_a=0
cpu_s=1
placements=both
dir_b=$build_bin_dir  # read by snapshot_builds, as dir_SIDE
# shellcheck disable=SC2034 # dir_b: read by snapshot_builds, as dir_SIDE
while getopts "b:c:r:l:A:S:p:h" opt; do
    case $opt in
        b) dir_b=$OPTARG ;;
        c) count=$OPTARG ;;
        r) rounds=$OPTARG ;;
        l) bounds=$OPTARG ;;
        A) cpu_a=$OPTARG ;;
        S) cpu_s=$OPTARG ;;
        p) placements=$OPTARG ;;
        *) sed -n '3,22p' "$0"; exit 2 ;;
    esac
done
check_pingpong_arguments
for b in $bounds; do
    [[ $b =~ ^[0-9]+$ ]] || { echo "-l: bounds in whole microseconds, not '$b'" >&2; exit 2; }
done
[[ " $bounds " == *" 0 "* ]] || { echo "-l: the list must hold 0, the reference" >&2; exit 2; }
need jq taskset timeout
limit_s=120

snapshot_builds b
bin_dir=$work_dir/b

# run_bound BOUND CLIENT_CPU SERVER_CPU: sets p50, p99 and cpu from one run
# with both ends polling up to BOUND us.
run_bound() {
    local json=$work_dir/run.json
    start_sctp_perf_server "$3" "$limit_s" --poll-before-sleep "$1"
    timeout "$limit_s" taskset -c "$2" "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 \
        -p "$srv_port" -s 7 -c "$count" --poll-before-sleep "$1" --format json \
        >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt (bound $1) failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    [[ $(jq -r .config.poll_before_sleep_us "$json") == "$1" &&
        $(jq -r .server.poll_before_sleep_us "$json") == "$1" ]] ||
        die "the report does not state bound $1 at both ends"
    p50=$(report_p50_us "$json")
    p99=$(jq -r .percentiles.p99_us "$json")
    cpu=$(jq -r .cpu.client_percent "$json")
    [[ -n $p50 && -n $p99 && -n $cpu ]] || die "no p50, p99 or CPU in the report (bound $1)"
}

declare -A p50s=() p99s=() cpus=()

machine_line
echo "TCP loopback ping-pong, 128-byte request, 2-byte reply, $count round trips per run, $rounds rounds"
echo "1cpu: both ends on CPU $cpu_a; 2cpu: client CPU $cpu_a, server CPU $cpu_s; both ends given the same bound"
echo
printf '%-5s %-5s %8s | %10s %10s %8s\n' round place "bound us" "p50 us" "p99 us" "clt CPU%"
read -ra bound_list <<<"$bounds"
for round in $(seq "$rounds"); do
    # Rotate the order of the bounds each round.
    shift_by=$(((round - 1) % ${#bound_list[@]}))
    ordered=("${bound_list[@]:shift_by}" "${bound_list[@]:0:shift_by}")
    for name in $placements; do
        srv_cpu=$cpu_a
        [[ $name == 2cpu ]] && srv_cpu=$cpu_s
        for b in "${ordered[@]}"; do
            run_bound "$b" "$cpu_a" "$srv_cpu"
            p50s[$name.$b]+="$p50 "
            p99s[$name.$b]+="$p99 "
            cpus[$name.$b]+="$cpu "
            printf '%-5s %-5s %8s | %10.3f %10.3f %8.1f\n' "$round" "$name" "$b" "$p50" "$p99" "$cpu"
        done
    done
done
echo
printf '%-5s %8s | %10s %10s %8s %12s\n' place "bound us" "p50 us" "p99 us" "clt CPU%" "p50 / bound 0"
for name in $placements; do
    reference=$(list_median "${p50s[$name.0]}")
    for b in "${bound_list[@]}"; do
        m=$(list_median "${p50s[$name.$b]}")
        printf '%-5s %8s | %10.3f %10.3f %8.1f %12s\n' "$name" "$b" "$m" \
            "$(list_median "${p99s[$name.$b]}")" "$(list_median "${cpus[$name.$b]}")" \
            "$(ratio "$m" "$reference")"
    done
done
load_line end
