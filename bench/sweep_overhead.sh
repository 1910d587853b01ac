#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How much of a run_spectrum.pl sweep is spent outside the measured round
# trips: one sweep of 2^0..2^16 bytes over TCP loopback (this kernel may have
# no SCTP), the script starting the server, both ends pinned to one CPU, plot
# included. Wall time is the script's, from its start to its exit; measured
# time is the sum of the clients' summary.duration_s (their timed loops) from
# spectrum.json. The rest is process start-up, connection set-up, primer round
# trips, the reports, the plot and the script's own bookkeeping.
#
# Usage: bench/sweep_overhead.sh [--iterations N] [--cpu LIST] [--taskset]
#                                [--limit S] [--keep DIR]
#   --iterations N  timed round trips per size (default 100000)
#   --cpu LIST      CPUs of both ends: --client-cpu LIST --server-cpu LIST
#                   (default 0)
#   --taskset       for programs without --cpu: run the whole sweep, script
#                   included, under taskset -c LIST instead
#   --limit S       bound on the sweep, seconds (default 900); past it the
#                   sweep and everything it started get SIGTERM, then SIGKILL
#   --keep DIR      keep the sweep's files in DIR (default: removed on exit)
#   -h, --help      this text
# Programs: build/bin, or $SCTP_PERF_BIN; copied first, so a rebuild meanwhile
# changes nothing.

source "$(dirname "$0")/bench_lib.sh"

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
usage_error() {
    echo "$(basename "$0"): $*; try --help" >&2
    exit 2
}

iterations=100000
cpu=0
use_taskset=0
limit_s=900
keep_dir=
while (($#)); do
    case $1 in
        --iterations) (($# >= 2)) || usage_error "--iterations needs a value"; iterations=$2; shift ;;
        --cpu) (($# >= 2)) || usage_error "--cpu needs a value"; cpu=$2; shift ;;
        --taskset) use_taskset=1 ;;
        --limit) (($# >= 2)) || usage_error "--limit needs a value"; limit_s=$2; shift ;;
        --keep) (($# >= 2)) || usage_error "--keep needs a value"; keep_dir=$2; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage_error "unknown argument '$1'" ;;
    esac
    shift
done
[[ $iterations =~ ^[0-9]+$ && $iterations -ge 1 ]] || usage_error "--iterations: a count, 1 or more"
[[ $cpu =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] || usage_error "--cpu: a CPU list such as 0, 0-1 or 0,2-3"
[[ $limit_s =~ ^[0-9]+$ && $limit_s -ge 1 ]] || usage_error "--limit: seconds, 1 or more"
need jq perl timeout
((use_taskset == 0)) || need taskset
command -v gnuplot >/dev/null ||
    echo "$(basename "$0"): gnuplot is not installed, so the figure leaves out the plot" >&2

script=$bench_dir/../run_spectrum.pl
out_dir=${keep_dir:-$work_dir/sweep}
snapshot_binaries

sweep=(--start-server --protocol tcp --iterations "$iterations" --min-power 0 --max-power 16
       --bin-dir "$bin_dir" --output-dir "$out_dir")
if ((use_taskset)); then
    pin=(taskset -c "$cpu")
    placement="the whole sweep under taskset -c $cpu"
else
    pin=()
    sweep+=(--client-cpu "$cpu" --server-cpu "$cpu")
    placement="--client-cpu $cpu --server-cpu $cpu"
fi

machine_line
echo "sweep: run_spectrum.pl --start-server --protocol tcp --iterations $iterations, $placement," \
     "2^0..2^16, plot; bound $limit_s s"

# timeout signals its whole process group (the script, its server and client),
# and runs in the background so that this script's exit trap can end it too.
log=$work_dir/sweep.log
start=$EPOCHREALTIME
timeout --kill-after=10 "$limit_s" "${pin[@]}" perl "$script" "${sweep[@]}" 2>"$log" &
started_pids+=("$!")
status=0
wait "$!" || status=$?
end=$EPOCHREALTIME
if ((status != 0)); then
    tail -20 "$log" >&2
    ((status == 124)) && die "the sweep did not finish within $limit_s s"
    die "run_spectrum.pl failed (exit status $status); its last lines are above"
fi

json=$out_dir/spectrum.json
runs=$(jq '.runs | length' "$json")
((runs == 17)) || die "spectrum.json holds $runs runs, not 17"
measured_s=$(jq '[.runs[].report.summary.duration_s] | add' "$json")
awk -v start="$start" -v end="$end" -v measured="$measured_s" -v n="$iterations" 'BEGIN {
    wall = end - start
    outside = wall - measured
    printf "wall      %9.3f s\n", wall
    printf "measured  %9.3f s   summary.duration_s summed over the 17 clients, %d round trips each\n", measured, n
    printf "outside   %9.3f s   %.2f %% of wall\n", outside, 100 * outside / wall
}'
[[ -z $keep_dir ]] || echo "files: $keep_dir"
load_line end
