# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# Shared by the bench/*.sh comparisons; sourced, never run.
#
# Every process a script starts is recorded by pid and ended on exit, and
# every run is wrapped in `timeout`, so no script outlives its bound or leaves
# a server behind. Servers and clients stay on loopback.

set -euo pipefail

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_bin_dir=${SCTP_PERF_BIN:-$bench_dir/../build/bin}
work_dir=$(mktemp -d "${TMPDIR:-/tmp}/sctp-perf-bench.XXXXXX")
bin_dir=$work_dir/bin
started_pids=()

bench_cleanup() {
    local pid
    for pid in "${started_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${started_pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work_dir"
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

need() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || die "needs '$tool' on PATH"
    done
}

# Copies SOCK_STREAM_srv and _clt into the work directory, so that every run
# of a comparison uses one build even if build/ is rebuilt meanwhile. A copy
# taken while the linker writes fails its --version check and is retried.
snapshot_binaries() {
    local attempt program
    mkdir -p "$bin_dir"
    for attempt in 1 2 3 4 5 6; do
        ((attempt == 1)) || sleep 10
        for program in SOCK_STREAM_srv SOCK_STREAM_clt; do
            cp "$build_bin_dir/$program" "$bin_dir/$program" 2>/dev/null || continue 2
            "$bin_dir/$program" --version >/dev/null 2>&1 || continue 2
        done
        return 0
    done
    die "cannot take a working copy (after a minute of retries) of SOCK_STREAM_srv/_clt from $build_bin_dir"
}

# For a comparison of builds: a copy of each named side's programs in
# $work_dir/SIDE, taken from the directory in the variable dir_SIDE
# (snapshot_builds a b copies $dir_a and $dir_b), so that a rebuild during
# the comparison changes nothing.
snapshot_builds() {
    local side from program
    for side in "$@"; do
        from=dir_$side
        mkdir -p "$work_dir/$side"
        for program in SOCK_STREAM_srv SOCK_STREAM_clt; do
            cp "${!from}/$program" "$work_dir/$side/$program" || die "no $program in ${!from}"
        done
    done
}

# The reference build that the comparisons measure the current build
# against, side by side in every run: the bin directory in
# SCTP_PERF_BASELINE_BIN, or else bench/build_baseline.sh's build of
# baseline_commit (fec1a73, the last commit whose servers blocked in recv),
# made the first time it is needed (several minutes) and reused after.
baseline_commit=fec1a73
baseline_bin_dir=${SCTP_PERF_BASELINE_BIN:-}

# Sets baseline_bin_dir, building the reference when none was named.
resolve_baseline() {
    if [[ -z $baseline_bin_dir ]]; then
        # Its build's output only when it fails: a rebuild of an unchanged
        # reference does nothing and says so at length.
        baseline_bin_dir=$("$bench_dir/build_baseline.sh" -c "$baseline_commit" \
            2>"$work_dir/baseline_build.log" | tail -1) ||
            die "cannot build the reference $baseline_commit (bench/build_baseline.sh):" \
                "$(tail -5 "$work_dir/baseline_build.log")"
    fi
    local program
    for program in SOCK_STREAM_srv SOCK_STREAM_clt; do
        [[ -x $baseline_bin_dir/$program ]] || die "no $program in the reference build $baseline_bin_dir"
    done
}

# One line naming a build: its version and, for a build inside a git
# worktree (as bench/build_baseline.sh makes), its commit.
build_line() {
    local name=$1 dir=$2 commit
    commit=$(git -C "$dir" rev-parse --short=7 HEAD 2>/dev/null || true)
    echo "$name: $("$dir/SOCK_STREAM_clt" --version)${commit:+, commit $commit}, from $dir"
}

# Ends one process this script started, by pid, and forgets it.
stop_pid() {
    local pid=$1 kept=() p
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    for p in "${started_pids[@]}"; do
        [[ $p == "$pid" ]] || kept+=("$p")
    done
    started_pids=("${kept[@]+"${kept[@]}"}")
}

# A TCP port on 127.0.0.1 that was free a moment ago (the kernel picks it).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts SOCK_STREAM_srv -t tcp on CPU $1, at most $2 seconds, port 0, with
# any further arguments passed on (such as --spin); sets srv_pid and srv_port.
start_sctp_perf_server() {
    local cpu=$1 limit_s=$2 log=$work_dir/srv.$RANDOM.log
    shift 2
    : >"$log"  # exists before the first look, however late the server starts
    timeout "$limit_s" taskset -c "$cpu" "$bin_dir/SOCK_STREAM_srv" -t tcp -p 0 -a 127.0.0.1 \
        "$@" 2>"$log" &
    srv_pid=$!
    started_pids+=("$srv_pid")
    srv_port=
    for _ in $(seq 50); do
        srv_port=$(grep -ao 'starting server at port [0-9]*' "$log" | awk '{print $5}' || true)
        [[ -n $srv_port ]] && return 0
        kill -0 "$srv_pid" 2>/dev/null || break
        sleep 0.1
    done
    die "SOCK_STREAM_srv did not start: $(tr -d '\0' <"$log" | tail -3)"
}

# Median of the numbers on stdin, one per line.
median() {
    sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "nan"; exit }
        print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The median of a space-separated list of numbers.
list_median() {
    tr ' ' '\n' <<<"$1" | grep . | median
}

# The checks shared by the ping-pong comparisons that take -c COUNT, -r
# ROUNDS, -A and -S CPUs and -p PLACEMENTS: exits 2 with one sentence for a
# bad value, and turns a placements of "both" into "1cpu 2cpu".
# shellcheck disable=SC2154 # count, rounds, cpu_a and cpu_s: the caller's getopts sets them
check_pingpong_arguments() {
    [[ $count =~ ^[0-9]+$ && $count -ge 1 ]] || { echo "-c: a count, 1 or more" >&2; exit 2; }
    [[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "-r: rounds, 1 or more" >&2; exit 2; }
    [[ $cpu_a =~ ^[0-9]+$ && $cpu_s =~ ^[0-9]+$ && $cpu_a != "$cpu_s" ]] ||
        { echo "-A, -S: two different CPU numbers" >&2; exit 2; }
    case $placements in
        1cpu | 2cpu) ;;
        both) placements="1cpu 2cpu" ;;
        *) echo "-p: 1cpu, 2cpu or both" >&2; exit 2 ;;
    esac
}

# The p50 round trip of a SOCK_STREAM_clt JSON report, in µs, whichever
# version of the report's layout wrote it.
report_p50_us() {
    jq -r '.percentiles.p50_us // .percentiles.p50 // empty' "$1"
}

# a / b to 3 decimals.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }'
}

# One line naming the machine, for the README's figures.
machine_line() {
    local model
    model=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
    echo "machine: nproc $(nproc), $model, kernel $(uname -r), $(date -u '+%F %H:%M UTC')"
    if [[ -x $bin_dir/SOCK_STREAM_clt ]]; then
        echo "sctp-perf: $("$bin_dir/SOCK_STREAM_clt" --version), built $(date -u -r "$build_bin_dir/SOCK_STREAM_clt" '+%F %H:%M UTC')"
    fi
    load_line start
}

# The load average, so that a figure taken next to other work says so: with
# few CPUs, anything else runnable shares a pinned CPU with the benchmark.
load_line() {
    echo "load average at $1: $(cut -d' ' -f1-3 /proc/loadavg)"
}
