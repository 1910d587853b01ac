#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Throughput mode next to sockperf's: one TCP connection on loopback,
# 128-byte messages, server on CPU 1 and client on CPU 0, the tools
# alternating round by round so that drift in the machine hits both.
#
# sockperf's throughput client leaves Nagle's algorithm on unless told
# otherwise (--tcp-avoid-nodelay), while sctp-perf sets TCP_NODELAY unless
# told otherwise (-n). The headline pair is each tool's default, as asked;
# two more columns pair them with Nagle set alike, so a gap can be put down
# to Nagle or to the tool.
#
# The fixed reference build (bench/build_baseline.sh, fec1a73 unless told)
# runs in every round too, each build with its own server, with Nagle off
# and on as sctp-perf is, so that each round also gives sctp-perf / the
# reference with Nagle alike (target: at least 1.00).
#
# Each run also counts TCP segments per message (the host's Tcp OutSegs,
# both directions, ACKs included, over the client's run; other loopback
# traffic on the host adds to it). With 128-byte messages the kernel's work
# per segment, not the tool's per message, sets the pace; Nagle and TCP
# autocorking decide how many messages share a segment.
#
# Usage: bench/throughput_vs_sockperf.sh [-d SECONDS] [-r ROUNDS] [-a BIN_DIR]
#   -d  seconds per run (default 10)   -r  rounds (default 3)
#   -a  the reference's bin directory (default: $SCTP_PERF_BASELINE_BIN, or
#       bench/build_baseline.sh's build of fec1a73, built when missing)
# Each round runs six clients of SECONDS each; every run is bounded by
# SECONDS + 30 s.

source "$(dirname "$0")/bench_lib.sh"

duration_s=10
rounds=3
while getopts "d:r:a:h" opt; do
    case $opt in
        d) duration_s=$OPTARG ;;
        r) rounds=$OPTARG ;;
        a) baseline_bin_dir=$OPTARG ;;
        *) sed -n '3,28p' "$0"; exit 2 ;;
    esac
done
[[ $duration_s =~ ^[0-9]+$ && $duration_s -ge 1 ]] || { echo "-d: whole seconds, 1 or more" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
need sockperf jq taskset timeout python3
limit_s=$((duration_s + 30))
server_cpu=1
client_cpu=0

# TCP segments sent by the host so far (Tcp OutSegs in /proc/net/snmp).
tcp_out_segments() {
    awk '$1 == "Tcp:" && $2 ~ /^[0-9]+$/ { print $12 }' /proc/net/snmp
}

# sockperf: sets sockperf_rate (messages per second) and segs_per_msg. Extra
# client flags in "$@". Results go through globals, not $(...), so that the
# pids stay in this shell.
run_sockperf() {
    local port pid out=$work_dir/sockperf_tp.log segs_before segs_after messages
    port=$(free_port)
    timeout "$limit_s" taskset -c "$server_cpu" sockperf sr --tcp -i 127.0.0.1 -p "$port" \
        >"$work_dir/sockperf_sr.log" 2>&1 &
    pid=$!
    started_pids+=("$pid")
    sleep 0.5
    segs_before=$(tcp_out_segments)
    timeout "$limit_s" taskset -c "$client_cpu" \
        sockperf tp --tcp -i 127.0.0.1 -p "$port" -m 128 -t "$duration_s" "$@" >"$out" 2>&1 ||
        die "sockperf tp failed: $(tail -3 "$out")"
    segs_after=$(tcp_out_segments)
    stop_pid "$pid"
    messages=$(sed -n 's/.*Total of \([0-9]*\) messages sent.*/\1/p' "$out" | head -1)
    segs_per_msg=$(ratio "$((segs_after - segs_before))" "${messages:-0}")
    sockperf_rate=$(sed -n 's/.*Summary: Message Rate is \([0-9.]*\) \[msg\/sec\].*/\1/p' "$out" | head -1)
    [[ -n $sockperf_rate ]] || die "no 'Message Rate' line from sockperf tp: $(tail -3 "$out")"
}

# sctp-perf: sets sctp_rate (messages_sent / sending_s), achieved, sent,
# received (by the server) and segs_per_msg. BUILD ("current" or
# "reference") first, then extra client flags.
run_sctp_perf() {
    local json=$work_dir/tp.json segs_before segs_after
    bin_dir=$work_dir/$1
    shift
    start_sctp_perf_server "$server_cpu" "$limit_s"
    segs_before=$(tcp_out_segments)
    timeout "$limit_s" taskset -c "$client_cpu" "$bin_dir/SOCK_STREAM_clt" -t tcp \
        -H 127.0.0.1 -p "$srv_port" -s 7 --throughput --duration "$duration_s" --interval 0 \
        --format json "$@" >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt failed: $(tail -3 "$work_dir/clt.log")"
    segs_after=$(tcp_out_segments)
    stop_pid "$srv_pid"
    read -r sctp_rate achieved sent received < <(jq -r '.load | "\(.messages_sent / .sending_s) \(.rate_achieved_per_s) \(.messages_sent) \(.messages_received_by_server)"' "$json")
    segs_per_msg=$(ratio "$((segs_after - segs_before))" "$sent")
}

resolve_baseline
snapshot_binaries
mkdir -p "$work_dir/current" "$work_dir/reference"
cp "$bin_dir"/SOCK_STREAM_srv "$bin_dir"/SOCK_STREAM_clt "$work_dir/current/"
cp "$baseline_bin_dir"/SOCK_STREAM_srv "$baseline_bin_dir"/SOCK_STREAM_clt "$work_dir/reference/"
machine_line
build_line reference "$baseline_bin_dir"
echo "TCP loopback, 128-byte messages, server CPU $server_cpu, client CPU $client_cpu, ${duration_s} s per run, $rounds rounds"
echo "defaults: sockperf tp = Nagle on; sctp-perf = TCP_NODELAY; ref = the reference build, as sctp-perf"
echo
printf '%-5s | %10s %10s %6s | %10s %6s | %10s %6s | %10s %6s | %10s %6s | %10s %12s\n' \
    round "sockperf" "sctp-perf" ratio "sockperf-ND" "ratio" "sctp-perf-n" "ratio" \
    "ref" "/ ref" "ref -n" "/ ref" "rate_achvd" "srv_recv/sent"
ratios=()
nodelay_ratios=()
nagle_ratios=()
ref_ratios=()
ref_nagle_ratios=()
declare -A segs  # segments per message, by tool and Nagle setting
for round in $(seq "$rounds"); do
    # The two builds swap order every round, Nagle on and off alike.
    for build in $( ((round % 2)) && echo current reference || echo reference current); do
        run_sctp_perf "$build" -n
        if [[ $build == current ]]; then
            sctp_n_rate=$sctp_rate
            segs[sctp-perf -n]+="$segs_per_msg "
        else
            ref_n_rate=$sctp_rate
        fi
    done
    run_sockperf --tcp-avoid-nodelay
    sockperf_nd_rate=$sockperf_rate
    segs[sockperf --tcp-avoid-nodelay]+="$segs_per_msg "
    run_sockperf
    segs[sockperf]+="$segs_per_msg "
    for build in $( ((round % 2)) && echo reference current || echo current reference); do
        run_sctp_perf "$build"
        if [[ $build == current ]]; then
            current_rate=$sctp_rate current_achieved=$achieved current_sent=$sent
            current_received=$received
            segs[sctp-perf]+="$segs_per_msg "
        else
            ref_rate=$sctp_rate
        fi
    done
    ratios+=("$(ratio "$current_rate" "$sockperf_rate")")
    nodelay_ratios+=("$(ratio "$current_rate" "$sockperf_nd_rate")")
    nagle_ratios+=("$(ratio "$sctp_n_rate" "$sockperf_rate")")
    ref_ratios+=("$(ratio "$current_rate" "$ref_rate")")
    ref_nagle_ratios+=("$(ratio "$sctp_n_rate" "$ref_n_rate")")
    printf '%-5s | %10.0f %10.0f %6s | %10.0f %6s | %10.0f %6s | %10.0f %6s | %10.0f %6s | %10.0f %12s\n' \
        "$round" "$sockperf_rate" "$current_rate" "${ratios[-1]}" \
        "$sockperf_nd_rate" "${nodelay_ratios[-1]}" "$sctp_n_rate" "${nagle_ratios[-1]}" \
        "$ref_rate" "${ref_ratios[-1]}" "$ref_n_rate" "${ref_nagle_ratios[-1]}" \
        "$current_achieved" "$current_received/$current_sent"
done
echo
echo "median ratio sctp-perf / sockperf, each tool's default:  $(printf '%s\n' "${ratios[@]}" | median)  (target >= 1.0)"
echo "median ratio, both TCP_NODELAY (sockperf-ND):            $(printf '%s\n' "${nodelay_ratios[@]}" | median)"
echo "median ratio, both Nagle on (sctp-perf -n):              $(printf '%s\n' "${nagle_ratios[@]}" | median)"
echo "median ratio sctp-perf / reference, both TCP_NODELAY:    $(printf '%s\n' "${ref_ratios[@]}" | median)  (target >= 1.00)"
echo "median ratio sctp-perf / reference, both Nagle on (-n):  $(printf '%s\n' "${ref_nagle_ratios[@]}" | median)  (target >= 1.00)"
echo
echo "median TCP segments per message (host OutSegs / messages sent):"
for tool in "sockperf" "sctp-perf" "sockperf --tcp-avoid-nodelay" "sctp-perf -n"; do
    # shellcheck disable=SC2086  # a space-separated list of numbers
    printf '  %-30s %s\n' "$tool" "$(printf '%s\n' ${segs[$tool]} | median)"
done
load_line end
