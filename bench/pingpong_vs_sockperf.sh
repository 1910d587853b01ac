#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Ping-pong latency next to sockperf's: one TCP connection on loopback,
# 128-byte requests, in two placements: both ends on CPU A, and the client on
# CPU A with the server on CPU B. The ratio is sctp-perf / sockperf of the p50
# round trip (target: at most 1.00).
#
# sockperf's server echoes the whole message, so sctp-perf is compared with
# the same bytes both ways (--payload-bytes 128 --echo); its default 2-byte
# reply is shown next to it as context. sockperf reports half a round trip
# unless given --full-rtt; it is given it, and each of its outputs is checked
# for the round-trip lines.
#
# sockperf pp runs by time only (-t, whole seconds), and times the part of it
# after a 400 ms warm-up (its "[Valid Duration] RunTime"). sctp-perf runs by
# --duration for the time sockperf timed in its last run, after its own 100
# primer round trips, so both time the same duration; each row shows both
# tools' timed seconds and round trips. Within a round the tools alternate,
# placement by placement, and which goes first swaps every round (sockperf
# first in odd rounds, so that its timed window is known before sctp-perf's
# first run); the 2-byte runs come last.
#
# The fixed reference build (bench/build_baseline.sh, fec1a73 unless told)
# runs beside them with its own server, with the 2-byte reply, which is all
# it has; its 2-byte run and the current build's swap order every round. So
# every run states sctp-perf / sockperf, the reference / sockperf, and
# sctp-perf / the reference, from the same minutes of the same machine.
#
# sctp-perf is pinned by its own --cpu, sockperf by taskset; every run checks
# the CPUs each end ran on (sctp-perf's report, sockperf's /proc status).
#
# Usage: bench/pingpong_vs_sockperf.sh [-t SECONDS] [-r ROUNDS] [-A CPU] [-B CPU] [-a BIN_DIR]
#   -t  sockperf's -t per run, whole seconds, 2 or more (default 2)
#   -r  rounds (default 6)   -A  client's CPU (default 0)   -B  server's other CPU (default 1)
#   -a  the reference's bin directory (default: $SCTP_PERF_BASELINE_BIN, or
#       bench/build_baseline.sh's build of fec1a73, built when missing)
# Every run is bounded by SECONDS + 30 s.

source "$(dirname "$0")/bench_lib.sh"

run_s=2
rounds=6
cpu_a=0
cpu_b=1
while getopts "t:r:A:B:a:h" opt; do
    case $opt in
        t) run_s=$OPTARG ;;
        r) rounds=$OPTARG ;;
        A) cpu_a=$OPTARG ;;
        B) cpu_b=$OPTARG ;;
        a) baseline_bin_dir=$OPTARG ;;
        *) sed -n '3,38p' "$0"; exit 2 ;;
    esac
done
[[ $run_s =~ ^[0-9]+$ && $run_s -ge 2 ]] || { echo "-t: whole seconds, 2 or more" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
[[ $cpu_a =~ ^[0-9]+$ && $cpu_b =~ ^[0-9]+$ && $cpu_a != "$cpu_b" ]] ||
    { echo "-A, -B: two different CPU numbers" >&2; exit 2; }
need sockperf jq taskset timeout python3
limit_s=$((run_s + 30))
sockperf_timed_s=  # set by each sockperf run; sctp-perf runs for as long

# The CPUs the process that `timeout` (pid $1) runs may use, from /proc.
cpus_of_timed_child() {
    local child
    child=$(cat "/proc/$1/task/$1/children" 2>/dev/null) || true
    [[ -n $child ]] || die "cannot find the process under pid $1"
    awk '$1 == "Cpus_allowed_list:" { print $2 }' "/proc/${child%% *}/status"
}

# run_sockperf CLIENT_CPU SERVER_CPU: sets p50_us, timed_s, round_trips and
# sockperf_timed_s.
run_sockperf() {
    local cpu=$1 srv_cpu=$2 port srv clt seen out=$work_dir/sockperf_pp.log status=0
    port=$(free_port)
    timeout "$limit_s" taskset -c "$srv_cpu" sockperf sr --tcp -i 127.0.0.1 -p "$port" \
        >"$work_dir/sockperf_sr.log" 2>&1 &
    srv=$!
    started_pids+=("$srv")
    sleep 0.5
    seen=$(cpus_of_timed_child "$srv")
    [[ $seen == "$srv_cpu" ]] || die "sockperf's server ran on CPUs $seen, not $srv_cpu"
    timeout "$limit_s" taskset -c "$cpu" sockperf pp --tcp -i 127.0.0.1 -p "$port" -m 128 \
        -t "$run_s" --full-rtt >"$out" 2>&1 &
    clt=$!
    started_pids+=("$clt")
    sleep 0.2  # within its 400 ms warm-up
    seen=$(cpus_of_timed_child "$clt")
    wait "$clt" || status=$?
    stop_pid "$clt"
    stop_pid "$srv"
    ((status == 0)) || die "sockperf pp failed: $(tail -3 "$out")"
    [[ $seen == "$cpu" ]] || die "sockperf's client ran on CPUs $seen, not $cpu"
    grep -q 'Summary: Round trip is' "$out" ||
        die "sockperf pp printed no full round trip (--full-rtt): $(tail -3 "$out")"
    p50_us=$(sed -n 's/.*percentile 50.000 = *\([0-9.]*\).*/\1/p' "$out" | head -1)
    read -r timed_s round_trips < <(sed -n \
        's/.*\[Valid Duration\] RunTime=\([0-9.]*\) sec;.*ReceivedMessages=\([0-9]*\).*/\1 \2/p' \
        "$out" | head -1)
    [[ -n $p50_us && -n $timed_s ]] || die "no p50 or timed duration from sockperf pp: $(tail -3 "$out")"
    sockperf_timed_s=$timed_s
}

# The value at PATH of a report, or "" where that layout has none.
report_field() {
    jq -r "$2 | if . == null then \"\" else tostring end" "$1"
}

# run_sctp_perf BUILD CLIENT_CPU SERVER_CPU [CLIENT FLAGS...]: sets p50_us,
# timed_s and round_trips. BUILD is "current" or "reference" (its copy in
# the work directory).
run_sctp_perf() {
    local json=$work_dir/pp.json cpu=$2 srv_cpu=$3 seen
    bin_dir=$work_dir/$1
    shift 3
    start_sctp_perf_server "$srv_cpu" "$limit_s" --cpu "$srv_cpu"
    timeout "$limit_s" "$bin_dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$srv_port" \
        "$@" --duration "$sockperf_timed_s" --cpu "$cpu" --format json \
        >"$json" 2>"$work_dir/clt.log" ||
        die "SOCK_STREAM_clt $* failed: $(tail -3 "$work_dir/clt.log")"
    stop_pid "$srv_pid"
    seen=$(report_field "$json" .environment.client_cpu_affinity)
    [[ $seen == "$cpu" ]] || die "the client ran on CPUs '$seen', not $cpu"
    seen=$(report_field "$json" .server.cpu_affinity)
    [[ $seen == "$srv_cpu" ]] || die "the server ran on CPUs '$seen', not $srv_cpu"
    p50_us=$(report_p50_us "$json")
    read -r timed_s round_trips < <(jq -r '.summary | "\(.duration_s) \(.num_points)"' "$json")
    [[ -n $p50_us ]] || die "no p50 in the client's report"
}

# One 2-byte-reply run of BUILD (-s 7: 128-byte requests, which every build
# takes): sets reply2_p50, reply2_s and reply2_n, or ref_p50, ref_s and ref_n.
run_reply2() {
    run_sctp_perf "$1" "$2" "$3" -s 7
    if [[ $1 == current ]]; then
        reply2_p50=$p50_us reply2_s=$timed_s reply2_n=$round_trips
    else
        ref_p50=$p50_us ref_s=$timed_s ref_n=$round_trips
    fi
}

# placement NAME CLIENT_CPU SERVER_CPU: one run of each, in the round's order;
# prints the row and appends to NAME's lists.
declare -A echo_ratios=() reply2_ratios=() ref_ratios=() vs_ref_ratios=() sockperf_p50s=() \
    echo_p50s=() reply2_p50s=() ref_p50s=()
placement() {
    local name=$1 cpu=$2 srv_cpu=$3 sp_p50 sp_s sp_n echo_p50 echo_s echo_n r_echo r_reply2 \
        r_ref r_vs_ref reply2_p50 reply2_s reply2_n ref_p50 ref_s ref_n
    if ((round % 2)); then
        run_sockperf "$cpu" "$srv_cpu"
        sp_p50=$p50_us sp_s=$timed_s sp_n=$round_trips
        run_sctp_perf current "$cpu" "$srv_cpu" --payload-bytes 128 --echo
        echo_p50=$p50_us echo_s=$timed_s echo_n=$round_trips
        run_reply2 current "$cpu" "$srv_cpu"
        run_reply2 reference "$cpu" "$srv_cpu"
    else
        run_sctp_perf current "$cpu" "$srv_cpu" --payload-bytes 128 --echo
        echo_p50=$p50_us echo_s=$timed_s echo_n=$round_trips
        run_sockperf "$cpu" "$srv_cpu"
        sp_p50=$p50_us sp_s=$timed_s sp_n=$round_trips
        run_reply2 reference "$cpu" "$srv_cpu"
        run_reply2 current "$cpu" "$srv_cpu"
    fi
    r_echo=$(ratio "$echo_p50" "$sp_p50")
    r_reply2=$(ratio "$reply2_p50" "$sp_p50")
    r_ref=$(ratio "$ref_p50" "$sp_p50")
    r_vs_ref=$(ratio "$reply2_p50" "$ref_p50")
    echo_ratios[$name]+="$r_echo "
    reply2_ratios[$name]+="$r_reply2 "
    ref_ratios[$name]+="$r_ref "
    vs_ref_ratios[$name]+="$r_vs_ref "
    sockperf_p50s[$name]+="$sp_p50 "
    echo_p50s[$name]+="$echo_p50 "
    reply2_p50s[$name]+="$reply2_p50 "
    ref_p50s[$name]+="$ref_p50 "
    printf '%-5s %-5s | %8.3f %8.3f %6s | %8.3f %6s | %8.3f %6s | %6s | %5.2f %5.2f %5.2f %5.2f | %7s %7s %7s %7s\n' \
        "$round" "$name" "$sp_p50" "$echo_p50" "$r_echo" "$reply2_p50" "$r_reply2" \
        "$ref_p50" "$r_ref" "$r_vs_ref" "$sp_s" "$echo_s" "$reply2_s" "$ref_s" \
        "$sp_n" "$echo_n" "$reply2_n" "$ref_n"
}

resolve_baseline
snapshot_binaries
mkdir -p "$work_dir/current" "$work_dir/reference"
cp "$bin_dir"/SOCK_STREAM_srv "$bin_dir"/SOCK_STREAM_clt "$work_dir/current/"
cp "$baseline_bin_dir"/SOCK_STREAM_srv "$baseline_bin_dir"/SOCK_STREAM_clt "$work_dir/reference/"
machine_line
build_line reference "$baseline_bin_dir"
echo "sockperf: $(sockperf --version 2>&1 | sed -n 's/.*version \([^ ]*\).*/\1/p' | head -1)"
echo "TCP loopback ping-pong, 128-byte request; sockperf pp -t $run_s --full-rtt against sockperf sr;"
echo "sctp-perf --payload-bytes 128 --echo (128-byte reply) and its 2-byte reply (-s 7), and the"
echo "reference build's 2-byte reply, each for the duration sockperf timed; $rounds rounds"
echo "1cpu: both ends on CPU $cpu_a; 2cpu: client CPU $cpu_a, server CPU $cpu_b"
echo "p50 of a full round trip, us; ratios over sockperf's p50, and 2-B / ref (sctp-perf / reference)"
echo
printf '%-11s | %8s %8s %6s | %8s %6s | %8s %6s | %6s | %23s | %31s\n' "round" "sockperf" "echo" \
    "ratio" "2-B" "ratio" "ref 2-B" "ratio" "/ ref" "timed s: sp echo 2B ref" \
    "round trips: sp echo 2B ref"
for round in $(seq "$rounds"); do
    placement 1cpu "$cpu_a" "$cpu_a"
    placement 2cpu "$cpu_a" "$cpu_b"
done
echo
for name in 1cpu 2cpu; do
    printf '%s median p50: sockperf %.3f us, sctp-perf --echo %.3f us, 2-byte reply %.3f us, reference 2-byte reply %.3f us\n' \
        "$name" "$(list_median "${sockperf_p50s[$name]}")" "$(list_median "${echo_p50s[$name]}")" \
        "$(list_median "${reply2_p50s[$name]}")" "$(list_median "${ref_p50s[$name]}")"
    echo "$name median ratio p50 sctp-perf --echo / sockperf: $(list_median "${echo_ratios[$name]}")  (target <= 1.00)"
    echo "$name median ratio p50 sctp-perf 2-byte reply / sockperf: $(list_median "${reply2_ratios[$name]}")"
    echo "$name median ratio p50 reference 2-byte reply / sockperf: $(list_median "${ref_ratios[$name]}")"
    echo "$name median ratio p50 sctp-perf / reference, 2-byte replies: $(list_median "${vs_ref_ratios[$name]}")  (target <= 1.00)"
done
load_line end
