#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Set-up time and accounting of many TCP flows at a low rate: 10,000 flows
# of 1 message/s each (128 bytes) over loopback for 30 s, server on CPU 1,
# client on CPU 0, for one or two builds, alternating round by round.
#
# Printed per run: the set-up time the client reports (connect, negotiate
# and prime every flow), messages sent, received by the server, replied and
# lost (all must agree, lost 0), the most threads the server ran while the
# flows ran (from /proc), the server's and the client's peak RSS (VmHWM, KiB,
# read from /proc just before each ends), and the load average at the end of
# the run, since other work on a 2-CPU machine shares the pinned CPUs.
#
# Usage: bench/ten_thousand_flows.sh [-a BIN_DIR_A] [-b BIN_DIR_B] [-f FLOWS]
#                                    [-d SECONDS] [-r ROUNDS] [-w WINDOW] [-i ADDRS]
#   -a, -b  directories holding SOCK_STREAM_srv and _clt (default: -b build/bin
#           alone); with both, A runs first in each round
#   -f      flows (default 10000)      -d  seconds of traffic (default 30)
#   -r      rounds (default 1)         -w  --connect-window for build B
#   -i      -i for build B (a comma-separated list of local addresses)
#   -c      "W1 W2 ...": instead, the connect phase alone: for A (if given)
#           and for B at each --connect-window W, the time from the client's
#           start until the server holds FLOWS accepted connections (its
#           descriptors in /proc), sampled every 20 ms; the client is then
#           ended
# The descriptor limit's hard value (ulimit -Hn) must allow FLOWS + 32 in each
# process; the soft one is raised to it. Every run is bounded by SECONDS + 300 s.

source "$(dirname "$0")/bench_lib.sh"

flows=10000
duration_s=30
rounds=1
window=
local_addresses=
dir_a=
dir_b=$build_bin_dir
windows=
while getopts "a:b:f:d:r:w:i:c:h" opt; do
    case $opt in
        a) dir_a=$OPTARG ;;
        b) dir_b=$OPTARG ;;
        f) flows=$OPTARG ;;
        d) duration_s=$OPTARG ;;
        r) rounds=$OPTARG ;;
        w) window=$OPTARG ;;
        i) local_addresses=$OPTARG ;;
        c) windows=$OPTARG ;;
        *) sed -n '3,27p' "$0"; exit 2 ;;
    esac
done
[[ $flows =~ ^[0-9]+$ && $flows -ge 1 ]] || { echo "-f: flows, 1 or more" >&2; exit 2; }
[[ $duration_s =~ ^[0-9]+$ && $duration_s -ge 1 ]] || { echo "-d: whole seconds, 1 or more" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
need jq taskset timeout python3
ulimit -n "$(ulimit -Hn)"
[[ $(ulimit -n) == unlimited || $(ulimit -n) -ge $((flows + 32)) ]] ||
    die "ulimit -Hn is $(ulimit -Hn): $flows flows need $((flows + 32)) descriptors per process"
limit_s=$((duration_s + 300))
server_cpu=1
client_cpu=0

sides=(b)
[[ -n $dir_a ]] && sides=(a b)
snapshot_builds "${sides[@]}"

# /proc/PID/status's FIELD (kB for memory), or nothing once PID is gone.
status_field() {
    awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null || true
}

# The program `timeout` runs as PID's child (taskset execs it), once started.
program_of() {
    pgrep -P "$1" | head -1 || true
}

# run_side SIDE: one run of that build against its own server; prints its line.
run_side() {
    local side=$1 json=$work_dir/$1.json client server threads most_threads=0 client_hwm=0 hwm
    local extra=()
    bin_dir=$work_dir/$side
    if [[ $side == b ]]; then
        [[ -n $window ]] && extra+=(--connect-window "$window")
        [[ -n $local_addresses ]] && extra+=(-i "$local_addresses")
    fi
    start_sctp_perf_server "$server_cpu" "$limit_s" --max-clients $((flows + 16))
    timeout "$limit_s" taskset -c "$client_cpu" "$bin_dir/SOCK_STREAM_clt" -t tcp \
        -H 127.0.0.1 -p "$srv_port" -s 7 --flows "$flows" --rate 1 --duration "$duration_s" \
        --interval 0 --format json "${extra[@]+"${extra[@]}"}" >"$json" 2>"$work_dir/clt.log" &
    client=$!
    started_pids+=("$client")
    server=$(program_of "$srv_pid")
    while kill -0 "$client" 2>/dev/null; do
        threads=$(status_field "$server" Threads)
        ((${threads:-0} > most_threads)) && most_threads=$threads
        hwm=$(status_field "$(program_of "$client")" VmHWM)
        ((${hwm:-0} > client_hwm)) && client_hwm=$hwm
        sleep 0.5
    done
    if ! wait "$client"; then
        # A build that cannot set the flows up is a result too: its line
        # says why, and the other build still runs.
        stop_pid "$srv_pid"
        printf '%-5s %6d | failed: %s\n' "$side" "$round" "$(tail -1 "$work_dir/clt.log")"
        return 0
    fi
    server_hwm=$(status_field "$server" VmHWM)
    stop_pid "$srv_pid"
    jq -r --arg side "$side" --arg threads "$most_threads" --arg shwm "${server_hwm:-?}" \
        --arg chwm "$client_hwm" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" \
        '.load | [$side, .setup_s, .messages_sent, .messages_received_by_server,
                  .messages_replied, .messages_lost, $threads, $shwm, $chwm, $load] | @tsv' "$json" |
        awk -F'\t' '{ printf "%-5s %6d | %9.3f | %9s %9s %9s %5s | %7s %10s %10s | %s\n",
                      $1, round, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' round="$round"
}

# The descriptors PID holds.
descriptors() {
    find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l
}

# connect_phase SIDE [WINDOW]: prints the milliseconds until FLOWS
# connections stand.
connect_phase() {
    local side=$1 window=${2:-} client server base start_ns end_ns extra=()
    bin_dir=$work_dir/$side
    [[ -n $window ]] && extra+=(--connect-window "$window")
    start_sctp_perf_server "$server_cpu" "$limit_s" --max-clients $((flows + 16))
    server=$(program_of "$srv_pid")
    base=$(descriptors "$server")
    start_ns=$(date +%s%N)
    timeout "$limit_s" taskset -c "$client_cpu" "$bin_dir/SOCK_STREAM_clt" -t tcp \
        -H 127.0.0.1 -p "$srv_port" -s 7 --flows "$flows" --rate 1 --duration 1 \
        --interval 0 "${extra[@]+"${extra[@]}"}" >/dev/null 2>"$work_dir/clt.log" &
    client=$!
    started_pids+=("$client")
    while kill -0 "$client" 2>/dev/null && (($(descriptors "$server") < base + flows)); do
        sleep 0.02
    done
    end_ns=$(date +%s%N)
    stop_pid "$client"
    stop_pid "$srv_pid"
    printf '%-5s %-8s | %8d | %s\n' "$side" "${window:-one}" $(((end_ns - start_ns) / 1000000)) \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
}

bin_dir=$work_dir/b
machine_line
if [[ -n $windows ]]; then
    [[ -n $dir_a ]] && echo "A: $dir_a (one flow after another)"
    echo "B: $dir_b"
    echo "TCP loopback, the time until $flows connections stand, server CPU $server_cpu, client CPU $client_cpu"
    echo
    printf '%-5s %-8s | %8s | %s\n' build window ms "load average"
    for ((round = 1; round <= rounds; round++)); do
        [[ -n $dir_a ]] && connect_phase a
        for w in $windows; do
            connect_phase b "$w"
        done
    done
    load_line end
    exit 0
fi
[[ -n $dir_a ]] && echo "A: $dir_a"
echo "B: $dir_b${window:+ (--connect-window $window)}${local_addresses:+ (-i $local_addresses)}"
echo "TCP loopback, $flows flows x 1 msg/s x ${duration_s} s, 128-byte requests, server CPU $server_cpu, client CPU $client_cpu"
echo
printf '%-5s %6s | %9s | %9s %9s %9s %5s | %7s %10s %10s | %s\n' build round "set-up s" sent \
    "by server" replied lost "srv thr" "srv KiB" "clt KiB" "load average"
for ((round = 1; round <= rounds; round++)); do
    for side in "${sides[@]}"; do
        run_side "$side"
    done
done
load_line end
