#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The CPU time each end of a ping-pong round trip takes, for two builds side
# by side: TCP loopback, 128-byte request, 2-byte reply (-s 7), both ends on
# one CPU, each build's client against its own server. Each end's time is
# counted by `perf stat -e task-clock` (the server's from just before the
# client starts until it ends; the client's for its whole run, start-up
# included, which the count makes small) and divided by the round trips.
#
# With both ends on one CPU a round trip is the two ends' CPU time and
# little else, kernel included, so this tells where a difference of p50 is
# spent: at the client, at the server, or in neither (the scheduler). Each
# row also gives both builds' p50. Within a round the builds alternate, and
# which goes first swaps every round.
#
# Usage: bench/cpu_per_round_trip.sh [-a BIN_DIR_A] [-b BIN_DIR_B] [-c COUNT] [-r ROUNDS] [-A CPU]
#   -a  the reference's bin directory (default: $SCTP_PERF_BASELINE_BIN, or
#       bench/build_baseline.sh's build of fec1a73, built when missing)
#   -b  the build measured (default: $SCTP_PERF_BIN, or build/bin)
#   -c  timed round trips per run (default 100000)   -r  rounds (default 7)
#   -A  the CPU both ends run on (default 0)
# Every run is bounded by 120 s.

source "$(dirname "$0")/bench_lib.sh"

count=100000
rounds=7
cpu=0
dir_a=
dir_b=$build_bin_dir
while getopts "a:b:c:r:A:h" opt; do
    case $opt in
        a) dir_a=$OPTARG ;;
        b) dir_b=$OPTARG ;;
        c) count=$OPTARG ;;
        r) rounds=$OPTARG ;;
        A) cpu=$OPTARG ;;
        *) sed -n '3,22p' "$0"; exit 2 ;;
    esac
done
[[ $count =~ ^[0-9]+$ && $count -ge 1000 ]] || { echo "-c: a count, 1000 or more" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
[[ $cpu =~ ^[0-9]+$ ]] || { echo "-A: a CPU number" >&2; exit 2; }
need jq perf taskset timeout
limit_s=120
if [[ -z $dir_a ]]; then
    resolve_baseline
    dir_a=$baseline_bin_dir
fi
snapshot_builds a b

# task_clock_us FILE ROUND_TRIPS: microseconds of CPU per round trip from a
# `perf stat -x,` output file.
task_clock_us() {
    awk -F, -v n="$2" '$3 == "task-clock" { printf "%.3f", $1 * 1000 / n; found = 1 }
        END { if (!found) exit 1 }' "$1"
}

# run_side SIDE: sets p50_us, server_us and client_us from one run of that
# build's client against its own server.
run_side() {
    local json=$work_dir/$1.json srv_stat=$work_dir/$1.srv.stat clt_stat=$work_dir/$1.clt.stat
    local stat_pid server_pid
    bin_dir=$work_dir/$1
    start_sctp_perf_server "$cpu" "$limit_s"
    # srv_pid is timeout's; the server is its child (taskset execs it).
    server_pid=$(pgrep -P "$srv_pid" | head -1)
    [[ -n $server_pid ]] || die "cannot find the server's process under pid $srv_pid"
    perf stat -x, -e task-clock -p "$server_pid" -o "$srv_stat" &
    stat_pid=$!
    started_pids+=("$stat_pid")
    sleep 0.2  # perf has attached before the first round trip
    timeout "$limit_s" perf stat -x, -e task-clock -o "$clt_stat" \
        taskset -c "$cpu" "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$srv_port" -s 7 \
        -c "$count" --format json >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt ($1) failed: $(tail -3 "$work_dir/clt.log")"
    # perf stat writes its count when SIGINT ends it; then it is forgotten.
    kill -INT "$stat_pid" 2>/dev/null || true
    wait "$stat_pid" 2>/dev/null || true
    stop_pid "$stat_pid"
    stop_pid "$srv_pid"
    p50_us=$(report_p50_us "$json")
    server_us=$(task_clock_us "$srv_stat" "$count") || die "no task-clock count for the server ($1)"
    client_us=$(task_clock_us "$clt_stat" "$count") || die "no task-clock count for the client ($1)"
}

bin_dir=$work_dir/b
machine_line
build_line A "$dir_a"
build_line B "$dir_b"
echo "TCP loopback ping-pong, -s 7, both ends on CPU $cpu, $count round trips per run, $rounds rounds;"
echo "CPU time per round trip (perf stat -e task-clock), us"
echo
printf '%-5s | %9s %9s %9s | %9s %9s %9s | %7s %7s\n' round "A p50" "A srv" "A clt" \
    "B p50" "B srv" "B clt" "p50 B/A" "cpu B/A"
p50_ratios='' cpu_ratios=''
for round in $(seq "$rounds"); do
    declare -A p50=() srv=() clt=()
    for side in $( ((round % 2)) && echo a b || echo b a); do
        run_side "$side"
        p50[$side]=$p50_us srv[$side]=$server_us clt[$side]=$client_us
    done
    p50_ratio=$(ratio "${p50[b]}" "${p50[a]}")
    cpu_ratio=$(awk -v a="${srv[a]}" -v b="${srv[b]}" -v c="${clt[a]}" -v d="${clt[b]}" \
        'BEGIN { printf "%.3f", (b + d) / (a + c) }')
    p50_ratios+="$p50_ratio " cpu_ratios+="$cpu_ratio "
    printf '%-5s | %9.3f %9.3f %9.3f | %9.3f %9.3f %9.3f | %7s %7s\n' "$round" \
        "${p50[a]}" "${srv[a]}" "${clt[a]}" "${p50[b]}" "${srv[b]}" "${clt[b]}" \
        "$p50_ratio" "$cpu_ratio"
done
echo
echo "median ratio p50 B / A: $(list_median "$p50_ratios")"
echo "median ratio of both ends' CPU per round trip B / A: $(list_median "$cpu_ratios")"
load_line end
