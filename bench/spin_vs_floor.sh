#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --spin next to the bare-C floor spinning (pingpong_floor.c -s): TCP
# loopback ping-pong, 128-byte request, 2-byte reply, TCP_NODELAY, client on
# one CPU and server on another, both ends of both tools polling their
# sockets (recv with MSG_DONTWAIT in a busy loop) instead of sleeping in a
# blocking recv. The ratio is sctp-perf / bare C of the p50 round trip
# (target: at most 1.02).
#
# For context each round also runs both tools blocking (the default), both
# ends on the client's CPU, and one end on each CPU. Within a round the two
# tools alternate, configuration by configuration, and which goes first
# swaps every round, so that drift in the machine reaches both. Many short
# rounds rather than a few long ones: a spinning end shares its CPU with
# whatever else is runnable there, and on a busy machine that moves a
# 100,000-round-trip p50 by 30 %, both tools alike only if they ran close in
# time.
#
# sctp-perf is pinned by its own --cpu (the report is checked for the
# affinity each end ran with), the floor by taskset (client) and -S (server).
#
# Usage: bench/spin_vs_floor.sh [-c COUNT] [-r ROUNDS] [-C CLIENT_CPU] [-S SERVER_CPU]
#   -c  timed round trips per run (default 20000)   -r  rounds (default 15)
#   -C  the client's CPU (default 0)   -S  the server's CPU (default 1); they must differ
# Every run is bounded by 120 s.

source "$(dirname "$0")/bench_lib.sh"

count=20000
rounds=15
client_cpu=0
server_cpu=1
while getopts "c:r:C:S:h" opt; do
    case $opt in
        c) count=$OPTARG ;;
        r) rounds=$OPTARG ;;
        C) client_cpu=$OPTARG ;;
        S) server_cpu=$OPTARG ;;
        *) sed -n '3,26p' "$0"; exit 2 ;;
    esac
done
[[ $count =~ ^[0-9]+$ && $count -ge 1 ]] || { echo "-c: a count, 1 or more" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
[[ $client_cpu =~ ^[0-9]+$ && $server_cpu =~ ^[0-9]+$ && $client_cpu != "$server_cpu" ]] ||
    { echo "-C, -S: two different CPU numbers" >&2; exit 2; }
need cc jq taskset timeout
limit_s=120

cc -O2 -Wall -Wextra -o "$work_dir/pingpong_floor" "$bench_dir/pingpong_floor.c" ||
    die "cannot build pingpong_floor.c"

# run_floor CLIENT_CPU SERVER_CPU [FLAGS...]: sets p50_us.
run_floor() {
    local out=$work_dir/floor.out cpu=$1 srv_cpu=$2
    shift 2
    timeout "$limit_s" taskset -c "$cpu" "$work_dir/pingpong_floor" -S "$srv_cpu" "$@" \
        "$count" >"$out" || die "pingpong_floor $* failed"
    p50_us=$(awk '$1 == "p50_us" { print $2 }' "$out")
}

# The value at PATH of a report, or "" where that layout has none.
report_field() {
    jq -r "$2 | if . == null then \"\" else tostring end" "$1"
}

# run_sctp_perf CLIENT_CPU SERVER_CPU [FLAGS for both ends...]: sets p50_us.
run_sctp_perf() {
    local json=$work_dir/pp.json cpu=$1 srv_cpu=$2 seen
    shift 2
    start_sctp_perf_server "$srv_cpu" "$limit_s" --cpu "$srv_cpu" "$@"
    timeout "$limit_s" "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$srv_port" -s 7 \
        -c "$count" --cpu "$cpu" "$@" --format json >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt $* failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    # Each end ran where it was put (fields missing from a report are not checked).
    seen=$(report_field "$json" .environment.client_cpu_affinity)
    [[ -z $seen || $seen == "$cpu" ]] || die "the client ran on CPUs $seen, not $cpu"
    seen=$(report_field "$json" .server.cpu_affinity)
    [[ -z $seen || $seen == "$srv_cpu" ]] || die "the server ran on CPUs $seen, not $srv_cpu"
    p50_us=$(report_p50_us "$json")
    [[ -n $p50_us ]] || die "no p50 in the client's report"
}

# pair NAME CLIENT_CPU SERVER_CPU [FLAGS...]: one run of each tool, in the
# round's order; appends "floor ours ratio" to the row and NAME's ratios.
declare -A ratios=() floor_p50s=() ours_p50s=()
pair() {
    local name=$1 cpu=$2 srv_cpu=$3 floor_flags=() our_flags=() floor_p50 ours_p50
    shift 3
    if [[ ${1:-} == spin ]]; then
        floor_flags=(-s)
        our_flags=(--spin)
    fi
    if ((round % 2)); then
        run_floor "$cpu" "$srv_cpu" "${floor_flags[@]+"${floor_flags[@]}"}"
        floor_p50=$p50_us
        run_sctp_perf "$cpu" "$srv_cpu" "${our_flags[@]+"${our_flags[@]}"}"
        ours_p50=$p50_us
    else
        run_sctp_perf "$cpu" "$srv_cpu" "${our_flags[@]+"${our_flags[@]}"}"
        ours_p50=$p50_us
        run_floor "$cpu" "$srv_cpu" "${floor_flags[@]+"${floor_flags[@]}"}"
        floor_p50=$p50_us
    fi
    local r
    r=$(ratio "$ours_p50" "$floor_p50")
    ratios[$name]+="$r "
    floor_p50s[$name]+="$floor_p50 "
    ours_p50s[$name]+="$ours_p50 "
    row+=$(printf ' | %8.3f %8.3f %6s' "$floor_p50" "$ours_p50" "$r")
}

snapshot_binaries
machine_line
echo "TCP loopback ping-pong, 128-byte request, 2-byte reply, $count round trips per run, $rounds rounds"
echo "spin: client CPU $client_cpu, server CPU $server_cpu, both ends polling (floor -s, sctp-perf --spin)"
echo "block 1 CPU: both ends on CPU $client_cpu; block 2 CPUs: client $client_cpu, server $server_cpu"
echo "columns: bare C p50 us, sctp-perf p50 us, sctp-perf / bare C"
echo
printf '%-5s | %-24s | %-24s | %-24s\n' round "spin" "block 1 CPU" "block 2 CPUs"
for round in $(seq "$rounds"); do
    row=$(printf '%-5s' "$round")
    pair spin "$client_cpu" "$server_cpu" spin
    pair block1 "$client_cpu" "$client_cpu"
    pair block2 "$client_cpu" "$server_cpu"
    echo "$row"
done
echo
for name in spin block1 block2; do
    printf '%-7s median p50: bare C %8.3f us, sctp-perf %8.3f us; median ratio %s\n' "$name" \
        "$(tr ' ' '\n' <<<"${floor_p50s[$name]}" | grep . | median)" \
        "$(tr ' ' '\n' <<<"${ours_p50s[$name]}" | grep . | median)" \
        "$(tr ' ' '\n' <<<"${ratios[$name]}" | grep . | median)"
done
echo
echo "median ratio p50 sctp-perf --spin / bare C spinning: $(tr ' ' '\n' <<<"${ratios[spin]}" | grep . | median)  (target <= 1.02)"
load_line end
