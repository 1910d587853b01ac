#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Throughput mode against two builds of SOCK_STREAM_srv side by side, with
# one client for both: one TCP connection on loopback, 128-byte messages,
# server on CPU 1 and client on CPU 0, the servers alternating round by round
# and which goes first swapping every round. For a change to the server: the
# ratio is the messages/s against server B / against server A (1.00 = no
# cost).
#
# The client is build B's SOCK_STREAM_clt (-t tcp -s 7 --throughput
# --duration SECONDS --interval 0 --format json); the rate is the report's
# load.messages_sent / load.sending_s, as in throughput_vs_sockperf.sh, and
# each row shows the messages the server received against those sent. A
# client refuses a server of another protocol version; for builds on either
# side of a protocol change, -o runs each server with its own build's client,
# and the ratio is then that of the two builds, client and server.
#
# Usage: bench/server_before_after.sh -a BIN_DIR_A -b BIN_DIR_B [-o] [-d SECONDS] [-r ROUNDS]
#   -a, -b  directories holding SOCK_STREAM_srv and SOCK_STREAM_clt
#   -o      each server with its own build's client (default: B's client for both)
#   -d      seconds per run (default 4)   -r  rounds (default 6)
# Every run is bounded by SECONDS + 30 s.

source "$(dirname "$0")/bench_lib.sh"

duration_s=4
rounds=6
dir_a=
dir_b=
own_clients=false
while getopts "a:b:od:r:h" opt; do
    case $opt in
        a) dir_a=$OPTARG ;;
        b) dir_b=$OPTARG ;;
        o) own_clients=true ;;
        d) duration_s=$OPTARG ;;
        r) rounds=$OPTARG ;;
        *) sed -n '3,22p' "$0"; exit 2 ;;
    esac
done
[[ -n $dir_a && -n $dir_b ]] || { echo "-a and -b name the two builds' bin directories" >&2; exit 2; }
[[ $duration_s =~ ^[0-9]+$ && $duration_s -ge 1 ]] || { echo "-d: whole seconds, 1 or more" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
need jq taskset timeout
limit_s=$((duration_s + 30))
server_cpu=1
client_cpu=0

snapshot_builds a b

# run_side SIDE: sets rate, sent and received from one run against that
# build's server.
run_side() {
    local json=$work_dir/$1.json client=$work_dir/b/SOCK_STREAM_clt
    bin_dir=$work_dir/$1
    [[ $own_clients == false ]] || client=$bin_dir/SOCK_STREAM_clt
    start_sctp_perf_server "$server_cpu" "$limit_s"
    timeout "$limit_s" taskset -c "$client_cpu" "$client" -t tcp -H 127.0.0.1 -p "$srv_port" \
        -s 7 --throughput --duration "$duration_s" --interval 0 --format json \
        >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt against server $1 failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    read -r rate sent received < <(jq -r '.load | "\(.messages_sent / .sending_s) \(.messages_sent) \(.messages_received_by_server)"' "$json")
    [[ -n $rate ]] || die "no load figures in the client's report"
}

bin_dir=$work_dir/b
build_bin_dir=$dir_b
machine_line
echo "A: $dir_a/SOCK_STREAM_srv, $(date -u -r "$dir_a/SOCK_STREAM_srv" '+built %F %H:%M UTC')"
echo "B: $dir_b/SOCK_STREAM_srv, $(date -u -r "$dir_b/SOCK_STREAM_srv" '+built %F %H:%M UTC')"
if [[ $own_clients == true ]]; then
    echo "client: each build's own SOCK_STREAM_clt (-o)"
else
    echo "client: B's SOCK_STREAM_clt for both"
fi
echo "TCP loopback, throughput mode, 128-byte messages, server CPU $server_cpu, client CPU $client_cpu, ${duration_s} s per run, $rounds rounds"
echo
printf '%-5s | %-5s | %12s %12s %7s | %21s %21s\n' round first "A msg/s" "B msg/s" "B / A" \
    "A srv_recv/sent" "B srv_recv/sent"
ratios=()
declare -A rates=() counts=()
for round in $(seq "$rounds"); do
    if ((round % 2)); then order=(a b); else order=(b a); fi
    for side in "${order[@]}"; do
        run_side "$side"
        rates[$side]=$rate
        counts[$side]=$received/$sent
    done
    ratios+=("$(ratio "${rates[b]}" "${rates[a]}")")
    printf '%-5s | %-5s | %12.0f %12.0f %7s | %21s %21s\n' "$round" "${order[0]^^}" \
        "${rates[a]}" "${rates[b]}" "${ratios[-1]}" "${counts[a]}" "${counts[b]}"
done
echo
echo "median ratio messages/s B / A: $(printf '%s\n' "${ratios[@]}" | median)  (target >= 1.0)"
load_line end
