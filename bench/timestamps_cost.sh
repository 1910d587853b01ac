#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What --timestamps costs the round trip it splits: TCP loopback ping-pong,
# 128-byte request, 2-byte reply, one build, runs three ways side by side:
# "off" without stamps, "on" with --timestamps (the client's kernel stamps),
# and "full" with --timestamps --one-way (the server's stamps in every reply
# too, its kernel's receive stamp and its transmit stamp of the previous
# reply among them: the whole split, 34-byte replies), in two placements: both ends on CPU A ("1cpu"), and the client
# on CPU A with the server on CPU S ("2cpu"). Within a round each placement
# runs every way, in an order that turns every round, so that drift in a
# busy machine falls on all. For each placement: the median over rounds of
# the p50 and p99 round trip, and the p50's ratio with the stamps to
# without (issue target: at most 1.05). Each run with the stamps must split
# every round trip, none missing a stamp.
#
# With -m rate, the load engine instead: one flow at -R messages a second
# for -d seconds (--rate), each message matched to its own stamps
# (client/load/flow_stamps.hpp); the p50 and p99 are the round trip from
# each send (latency_uncorrected, the one the split divides), and each run
# with the stamps must account for every reply, split or counted missing
# (a reply that shared its read with another has no arrival stamp).
#
# Usage: bench/timestamps_cost.sh [-b BIN_DIR] [-c COUNT] [-r ROUNDS] [-A CPU] [-S CPU]
#                                 [-p 1cpu|2cpu|both] [-m pingpong|rate] [-R RATE] [-d SECONDS]
#   -b  the build measured (default: $SCTP_PERF_BIN, or build/bin)
#   -c  timed round trips per run (default 50000)   -r  rounds (default 5)
#   -A  the client's CPU (default 0)   -S  the server's CPU in 2cpu (default 1)
#   -p  placements (default both)
#   -m  mode (default pingpong)   -R  rate mode's messages/s (default 2000)
#   -d  rate mode's seconds a run (default 5)
# Every run is bounded by 120 s.

source "$(dirname "$0")/bench_lib.sh"

count=50000
rounds=5
cpu_a=0
cpu_s=1
placements=both
mode=pingpong
rate=2000
seconds=5
dir_b=$build_bin_dir
# shellcheck disable=SC2034 # dir_b: read by snapshot_builds, as dir_SIDE
while getopts "b:c:r:A:S:p:m:R:d:h" opt; do
    case $opt in
        b) dir_b=$OPTARG ;;
        c) count=$OPTARG ;;
        r) rounds=$OPTARG ;;
        A) cpu_a=$OPTARG ;;
        S) cpu_s=$OPTARG ;;
        p) placements=$OPTARG ;;
        m) mode=$OPTARG ;;
        R) rate=$OPTARG ;;
        d) seconds=$OPTARG ;;
        *) sed -n '3,31p' "$0"; exit 2 ;;
    esac
done
check_pingpong_arguments
case $mode in
    pingpong) load=(-c "$count") ;;
    rate) load=(--rate "$rate" --duration "$seconds") ;;
    *) die "-m is pingpong or rate, not $mode" ;;
esac
need jq taskset timeout
limit_s=120

snapshot_builds b
bin_dir=$work_dir/b

# run_way WAY CLIENT_CPU SERVER_CPU: sets p50 and p99 from one run, WAY
# "off" (no stamps), "on" (--timestamps) or "full" (--timestamps --one-way).
run_way() {
    local json=$work_dir/run.json stamps=()
    [[ $1 == on ]] && stamps=(--timestamps)
    [[ $1 == full ]] && stamps=(--timestamps --one-way)
    start_sctp_perf_server "$3" "$limit_s"
    timeout "$limit_s" taskset -c "$2" "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 \
        -p "$srv_port" -s 7 "${load[@]}" "${stamps[@]}" --format json \
        >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt ($1) failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    if [[ $mode == rate ]]; then
        if [[ $1 != off ]]; then
            jq -e '.round_trip_split as $s | $s.split_round_trips + $s.missing_stamps
                   + $s.clock_set_round_trips == .load.messages_replied' "$json" >/dev/null ||
                die "--timestamps did not account for every reply: $(jq -c .round_trip_split "$json" | head -c 300)"
            split_share=$(jq -r '.round_trip_split.split_round_trips / .load.messages_replied' "$json")
        fi
        p50=$(jq -r .load.latency_uncorrected.p50_us "$json")
        p99=$(jq -r .load.latency_uncorrected.p99_us "$json")
    else
        if [[ $1 != off ]]; then
            [[ $(jq -r '.round_trip_split.split_round_trips' "$json") == "$count" &&
                $(jq -r '.round_trip_split.missing_stamps' "$json") == 0 ]] ||
                die "--timestamps did not split every round trip: $(jq -c .round_trip_split "$json" | head -c 300)"
        fi
        p50=$(report_p50_us "$json")
        p99=$(jq -r .percentiles.p99_us "$json")
    fi
    [[ -n $p50 && -n $p99 ]] || die "no p50 or p99 in the report ($1)"
}

declare -A p50s=() p99s=()

machine_line
if [[ $mode == rate ]]; then
    echo "TCP loopback, one flow at $rate messages/s for $seconds s a run (--rate), 128-byte request, 2-byte reply, $rounds rounds"
    echo "p50 and p99: the round trip from each send (latency_uncorrected); split: the share of replies split"
else
    echo "TCP loopback ping-pong, 128-byte request, 2-byte reply, $count round trips per run, $rounds rounds"
fi
echo "1cpu: both ends on CPU $cpu_a; 2cpu: client CPU $cpu_a, server CPU $cpu_s; one build"
echo "ways: off (no stamps), on (--timestamps), full (--timestamps --one-way)"
echo
printf '%-5s %-5s %-4s | %10s %10s\n' round place ways "p50 us" "p99 us"
for round in $(seq "$rounds"); do
    case $((round % 3)) in
        1) ways=(off on full) ;;
        2) ways=(on full off) ;;
        *) ways=(full off on) ;;
    esac
    for name in $placements; do
        srv_cpu=$cpu_a
        [[ $name == 2cpu ]] && srv_cpu=$cpu_s
        for way in "${ways[@]}"; do
            run_way "$way" "$cpu_a" "$srv_cpu"
            p50s[$name.$way]+="$p50 "
            p99s[$name.$way]+="$p99 "
            split_note=""
            [[ $mode == rate && $way != off ]] && split_note=$(printf '  split %.3f' "$split_share")
            printf '%-5s %-5s %-4s | %10.3f %10.3f%s\n' "$round" "$name" "$way" "$p50" "$p99" "$split_note"
        done
    done
done
echo
printf '%-5s %-4s | %10s %10s %10s\n' place ways "p50 us" "p99 us" "p50 / off"
for name in $placements; do
    off=$(list_median "${p50s[$name.off]}")
    printf '%-5s %-4s | %10.3f %10.3f %10s\n' "$name" off "$off" "$(list_median "${p99s[$name.off]}")" ""
    for way in on full; do
        p50=$(list_median "${p50s[$name.$way]}")
        printf '%-5s %-4s | %10.3f %10.3f %10s\n' "$name" "$way" "$p50" \
            "$(list_median "${p99s[$name.$way]}")" "$(ratio "$p50" "$off")"
    done
done
load_line end
