#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Throughput mode with --batch 16 next to --batch 1 (one message per
# system call, the default): one TCP connection on loopback, 128-byte
# messages, server on CPU 1 and client on CPU 0, the two alternating round
# by round (which goes first alternating too) so that drift in the machine
# hits both. The target: --batch 16 moves at least 2x the messages per
# second of --batch 1.
#
# The client sets TCP_NODELAY unless told -n (Nagle on), and runs here with
# its default: each send call becomes a TCP segment of its own, so the
# kernel's work per segment, which batching divides among 16 messages, sets
# the pace of --batch 1.
#
# Each run reports messages/s (messages sent / sending time), the messages
# per system call the client achieved (load.messages_per_send_call), and the
# server's count against the client's.
#
# Usage: bench/batch_throughput.sh [-d SECONDS] [-r ROUNDS]
#   -d  seconds per run (default 5)   -r  rounds (default 5)
# Each round runs two clients of SECONDS each; every run is bounded by
# SECONDS + 30 s.

source "$(dirname "$0")/bench_lib.sh"

duration_s=5
rounds=5
while getopts "d:r:h" opt; do
    case $opt in
        d) duration_s=$OPTARG ;;
        r) rounds=$OPTARG ;;
        *) sed -n '3,22p' "$0"; exit 2 ;;
    esac
done
[[ $duration_s =~ ^[0-9]+$ && $duration_s -ge 1 ]] || { echo "-d: whole seconds, 1 or more" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
need jq taskset timeout
limit_s=$((duration_s + 30))
server_cpu=1
client_cpu=0

# One run with --batch $1: sets rate (messages per second), per_call,
# sent and received (by the server). A fresh server per run, as the client
# leaves it nothing to carry over.
run_batch() {
    local batch=$1 json=$work_dir/batch$1.json
    start_sctp_perf_server "$server_cpu" "$limit_s"
    timeout "$limit_s" taskset -c "$client_cpu" "$bin_dir/SOCK_STREAM_clt" -t tcp \
        -H 127.0.0.1 -p "$srv_port" -s 7 --throughput --duration "$duration_s" --interval 0 \
        --batch "$batch" --format json >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt --batch $batch failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    read -r rate per_call sent received < <(jq -r '.load | "\(.messages_sent / .sending_s) \(.messages_per_send_call) \(.messages_sent) \(.messages_received_by_server)"' "$json")
    [[ $sent == "$received" ]] || die "--batch $batch: the server counted $received of $sent messages"
}

snapshot_binaries
"$bin_dir/SOCK_STREAM_clt" --help | grep -q -- '--batch' || die "this SOCK_STREAM_clt has no --batch"
machine_line
echo "TCP loopback, TCP_NODELAY (the client's default), 128-byte messages, --throughput, server CPU $server_cpu, client CPU $client_cpu, ${duration_s} s per run, $rounds rounds"
echo
printf '%-5s | %12s %9s | %12s %9s | %7s | %s\n' round "batch 1" "msg/call" "batch 16" "msg/call" ratio "srv_recv/sent (1; 16)"
ratios=()
rates_1=()
rates_16=()
declare -A rate_of per_call_of count_of  # this round's, by --batch
for round in $(seq "$rounds"); do
    if ((round % 2)); then order=(1 16); else order=(16 1); fi
    for batch in "${order[@]}"; do
        run_batch "$batch"
        rate_of[$batch]=$rate
        per_call_of[$batch]=$per_call
        count_of[$batch]=$received/$sent
    done
    rates_1+=("${rate_of[1]}")
    rates_16+=("${rate_of[16]}")
    ratios+=("$(ratio "${rate_of[16]}" "${rate_of[1]}")")
    printf '%-5s | %12.0f %9.3f | %12.0f %9.3f | %7s | %s; %s\n' "$round" "${rate_of[1]}" \
        "${per_call_of[1]}" "${rate_of[16]}" "${per_call_of[16]}" "${ratios[-1]}" "${count_of[1]}" \
        "${count_of[16]}"
done
echo
printf 'median msg/s, --batch 1:   %.0f\n' "$(printf '%s\n' "${rates_1[@]}" | median)"
printf 'median msg/s, --batch 16:  %.0f\n' "$(printf '%s\n' "${rates_16[@]}" | median)"
echo "median ratio batch 16 / batch 1: $(printf '%s\n' "${ratios[@]}" | median)  (target >= 2.0)"
load_line end
