#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What CPU placement does to a loopback ping-pong: TCP, 128-byte request,
# 2-byte reply, in four placements, each round running all four in turn so
# that drift in the machine reaches each alike:
#   unpinned          neither end pinned: the scheduler chooses
#   one CPU           server --cpu A, client --cpu A
#   two CPUs          server --cpu B, client --cpu A
#   two CPUs, spin    the same, both ends with --spin
# Prints p50 and p99 of every run, and the affinity each end reported, so
# that a figure says where it was taken. The manual's section 10 quotes it.
#
# Usage: bench/placement_effect.sh [-c COUNT] [-r ROUNDS] [-A CPU] [-B CPU]
#   -c  round trips per run (default 100000)   -r  rounds (default 3)
#   -A  the client's CPU (default 0)   -B  the other CPU (default 1)
# Every run is bounded by 120 s.

source "$(dirname "$0")/bench_lib.sh"

count=100000
rounds=3
cpu_a=0
cpu_b=1
while getopts "c:r:A:B:h" option; do
    case $option in
    c) count=$OPTARG ;;
    r) rounds=$OPTARG ;;
    A) cpu_a=$OPTARG ;;
    B) cpu_b=$OPTARG ;;
    *) sed -n '3,/^$/s/^# \{0,1\}//p' "$0"; exit 2 ;;
    esac
done
[[ $cpu_a != "$cpu_b" ]] || die "-A and -B must name different CPUs"
need jq taskset timeout python3
snapshot_binaries
all_cpus=$(cat /sys/devices/system/cpu/online)

# run LABEL SERVER_ARGS CLIENT_ARGS: one run, one line.
run() {
    local label=$1 json=$work_dir/run.json
    local -a server_args client_args
    read -r -a server_args <<<"$2"
    read -r -a client_args <<<"$3"
    # taskset to every online CPU: the server's own --cpu, if any, narrows it.
    start_sctp_perf_server "$all_cpus" 120 "${server_args[@]+"${server_args[@]}"}"
    timeout 120 "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$srv_port" -s 7 -c "$count" \
        "${client_args[@]+"${client_args[@]}"}" --format json >"$json" ||
        die "$label: the client failed"
    stop_pid "$srv_pid"
    printf '%-26s %s\n' "$label" "$(jq -r '"p50 \(.percentiles.p50_us) us  p99 \(.percentiles.p99_us) us  (client CPUs \(.environment.client_cpu_affinity), server CPUs \(.server.cpu_affinity))"' "$json")"
}

machine_line
echo "TCP loopback, -s 7 -c $count, $rounds rounds"
for round in $(seq "$rounds"); do
    echo "round $round"
    run "unpinned" "" ""
    run "one CPU" "--cpu $cpu_a" "--cpu $cpu_a"
    run "two CPUs" "--cpu $cpu_b" "--cpu $cpu_a"
    run "two CPUs, both --spin" "--cpu $cpu_b --spin" "--cpu $cpu_a --spin"
done
load_line end
