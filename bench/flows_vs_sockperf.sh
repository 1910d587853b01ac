#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Latency under load over many flows, next to sockperf's under-load mode:
# TCP on loopback, 128-byte requests, the same TOTAL rate whatever the
# number of flows, server on CPU 1 and client on CPU 0.
#
# A figure that changes with the number of flows at a fixed total rate
# measures the tool, not the kernel: each request still crosses loopback
# alone. sctp-perf runs each flow count with --arrivals uniform (the
# default: the flows' phases spread evenly) and --arrivals in-step (every
# flow's message k due at the same instant, the behaviour before
# --arrivals), and sockperf ul drives one socket per flow from a feed file
# (-f, one T:127.0.0.1:PORT line each) at --mps TOTAL with a reply to every
# message (--reply-every 1) and full round trips (--full-rtt).
#
# Printed per flow count: sctp-perf's corrected p50 (from each message's
# due time), its uncorrected p50 and p99 (from each send), sockperf's p50
# and p99 (from each send, as it has no due times), and the ratios the
# targets name: corrected p50 over the same variant's corrected p50 at the
# first flow count given (1 by default), and
# uncorrected p50 and p99 over sockperf's.
#
# With -v, the sctp-perf variants to run per flow count (default "uniform
# in-step"): "spin" is uniform arrivals with the client polling its sockets
# (--spin) instead of sleeping between sends, as sockperf's under-load
# client keeps its CPU busy; the server sleeps in both tools. "poll" is
# uniform arrivals with both ends polling up to -P microseconds (default 50)
# before they sleep (--poll-before-sleep). Each row also gives the client's
# CPU (% of one CPU), which polling spends.
#
# Usage: bench/flows_vs_sockperf.sh [-d SECONDS] [-r TOTAL_RATE] [-f "1 10 100 1000"]
#                                   [-v "uniform in-step spin poll"] [-P USEC]
# Every run is bounded by SECONDS + 60 s; the descriptor limit must allow
# the largest flow count (ulimit -n).

source "$(dirname "$0")/bench_lib.sh"

duration_s=5
total_rate=10000
flow_counts="1 10 100 1000"
variants="uniform in-step"
poll_us=50
while getopts "d:r:f:v:P:h" opt; do
    case $opt in
        d) duration_s=$OPTARG ;;
        r) total_rate=$OPTARG ;;
        f) flow_counts=$OPTARG ;;
        v) variants=$OPTARG ;;
        P) poll_us=$OPTARG ;;
        *) sed -n '3,35p' "$0"; exit 2 ;;
    esac
done
[[ $duration_s =~ ^[0-9]+$ && $duration_s -ge 1 ]] || { echo "-d: whole seconds, 1 or more" >&2; exit 2; }
[[ $total_rate =~ ^[0-9]+$ && $total_rate -ge 1 ]] || { echo "-r: messages per second, 1 or more" >&2; exit 2; }
for variant in $variants; do
    [[ $variant =~ ^(uniform|in-step|spin|poll)$ ]] || { echo "-v: uniform, in-step, spin or poll, not $variant" >&2; exit 2; }
done
[[ $poll_us =~ ^[0-9]+$ ]] || { echo "-P: whole microseconds" >&2; exit 2; }
need sockperf jq taskset timeout python3
limit_s=$((duration_s + 60))
server_cpu=1
client_cpu=0

# sctp-perf at F flows as VARIANT: sets corrected_p50, p50, p99 (µs) and
# clt_cpu_percent (% of one CPU).
run_sctp_perf() {
    local flows=$1 variant=$2 json=$work_dir/flows.json
    local -a how=(--arrivals "$variant") server_how=()
    [[ $variant != spin ]] || how=(--arrivals uniform --spin)
    if [[ $variant == poll ]]; then
        how=(--arrivals uniform --poll-before-sleep "$poll_us")
        server_how=(--poll-before-sleep "$poll_us")
    fi
    start_sctp_perf_server "$server_cpu" "$limit_s" --max-clients 4096 "${server_how[@]}"
    timeout "$limit_s" taskset -c "$client_cpu" "$bin_dir/SOCK_STREAM_clt" -t tcp \
        -H 127.0.0.1 -p "$srv_port" -s 7 --flows "$flows" --total-rate "$total_rate" \
        "${how[@]}" --duration "$duration_s" --interval 0 --format json \
        >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt --flows $flows failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    read -r corrected_p50 p50 p99 clt_cpu_percent < <(jq -r '.load | "\(.latency_corrected.p50_us) \(.latency_uncorrected.p50_us) \(.latency_uncorrected.p99_us) \(.client_cpu_percent)"' "$json")
}

# sockperf ul over F sockets: sets sockperf_p50, sockperf_p99 (µs).
run_sockperf() {
    local flows=$1 feed=$work_dir/feed out=$work_dir/ul.log base pid
    base=$(free_port)
    : >"$feed"
    for ((i = 0; i < flows; i++)); do
        # Below Linux's ephemeral range (32768-60999), so that no client
        # socket holds one of them.
        echo "T:127.0.0.1:$((10000 + (base + i) % 20000))" >>"$feed"
    done
    timeout "$limit_s" taskset -c "$server_cpu" sockperf sr -f "$feed" >"$work_dir/sr.log" 2>&1 &
    pid=$!
    started_pids+=("$pid")
    sleep $((1 + flows / 200))  # its listeners are up
    timeout "$limit_s" taskset -c "$client_cpu" sockperf ul -f "$feed" --mps "$total_rate" \
        --reply-every 1 --full-rtt -m 128 -t "$duration_s" >"$out" 2>&1 ||
        die "sockperf ul over $flows sockets failed: $(tail -3 "$out")"
    stop_pid "$pid"
    sockperf_p50=$(sed -n 's/.*percentile 50.000 = *\([0-9.]*\).*/\1/p' "$out" | head -1)
    sockperf_p99=$(sed -n 's/.*percentile 99.000 = *\([0-9.]*\).*/\1/p' "$out" | head -1)
    [[ -n $sockperf_p50 && -n $sockperf_p99 ]] || die "no percentiles from sockperf ul: $(tail -3 "$out")"
}

snapshot_binaries
machine_line
echo "TCP loopback, 128-byte requests, $total_rate messages/s in all, ${duration_s} s per run,"
echo "server CPU $server_cpu, client CPU $client_cpu; microseconds of a full round trip"
echo
printf '%6s | %-8s %10s %10s %10s %8s | %10s %10s | %8s %8s %8s\n' flows variant "corr p50" "p50" "p99" \
    "clt CPU%" "sp p50" "sp p99" "corr/1" "p50/sp" "p99/sp"
declare -A one_flow_corrected  # per variant: its corrected p50 at the first flow count
for flows in $flow_counts; do
    run_sockperf "$flows"
    for variant in $variants; do
        run_sctp_perf "$flows" "$variant"
        [[ -n ${one_flow_corrected[$variant]:-} ]] || one_flow_corrected[$variant]=$corrected_p50
        printf '%6s | %-8s %10s %10s %10s %8.1f | %10s %10s | %8s %8s %8s\n' "$flows" "$variant" \
            "$corrected_p50" "$p50" "$p99" "$clt_cpu_percent" "$sockperf_p50" "$sockperf_p99" \
            "$(ratio "$corrected_p50" "${one_flow_corrected[$variant]}")" "$(ratio "$p50" "$sockperf_p50")" \
            "$(ratio "$p99" "$sockperf_p99")"
    done
done
echo
echo "targets (1,000 flows, uniform): corr/1 <= 1.25; p50/sp and p99/sp <= 1.0"
load_line end
