#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What one ping-pong round trip costs each end, in instructions, for the
# fixed reference build (A) and the current build (B): a figure that a busy
# machine does not move, where a time ratio cannot tell 2 % from nothing
# (bench/README.md, "One flow against fec1a73").
#
# TCP loopback, 128-byte requests and 2-byte replies (-s 7), both ends on one
# CPU. Each end is counted under valgrind's callgrind while the other runs
# natively, once for COUNT round trips and once for COUNT / 5; the cost of a
# round trip is the difference of the two totals over the difference of the
# counts, so that start-up, the primer and the report cancel out. The same
# binary and inputs give the same count to within a few instructions.
#
# Instructions are not all a round trip costs: code that a round trip runs
# through must be in the caches, and between two messages both ends' kernel
# paths pass through them too. So each end's code lines are also counted: the
# 64-byte lines of code holding an instruction that ran in at least 9 of 10
# of the extra round trips (in the longer run than in the shorter, by
# address: valgrind lays a program out the same way in every run). A build
# that runs the same instructions through more lines needs more of the
# instruction cache per round trip. The 9 in 10 leaves out the paths a round
# trip takes only now and then (the server's turn through its event loop
# when the loop recalls its thread, which depends on timing) without losing
# the common path's lines when such a turn skips it.
#
# Usage: bench/instructions_per_round_trip.sh [-a BIN_DIR_A] [-b BIN_DIR_B] [-c COUNT] [-A CPU]
#   -a  the reference's bin directory (default: $SCTP_PERF_BASELINE_BIN, or
#       bench/build_baseline.sh's build of fec1a73, built when missing)
#   -b  the build measured (default: $SCTP_PERF_BIN, or build/bin)
#   -c  round trips of the longer run (default 25000; the shorter is COUNT / 5)
#   -A  the CPU both ends run on (default 0)
# Every run is bounded by 300 s.

source "$(dirname "$0")/bench_lib.sh"

count=25000
cpu=0
dir_a=
dir_b=$build_bin_dir
while getopts "a:b:c:A:h" opt; do
    case $opt in
        a) dir_a=$OPTARG ;;
        b) dir_b=$OPTARG ;;
        c) count=$OPTARG ;;
        A) cpu=$OPTARG ;;
        *) sed -n '3,21p' "$0"; exit 2 ;;
    esac
done
[[ $count =~ ^[0-9]+$ && $count -ge 50 ]] || { echo "-c: a count, 50 or more" >&2; exit 2; }
[[ $cpu =~ ^[0-9]+$ ]] || { echo "-A: a CPU number" >&2; exit 2; }
need valgrind taskset timeout
limit_s=300
short=$((count / 5))
if [[ -z $dir_a ]]; then
    resolve_baseline
    dir_a=$baseline_bin_dir
fi

# callgrind_total FILE: the instructions a callgrind output file counted.
callgrind_total() {
    awk '/^(summary|totals):/ { total = $2 } END { print total + 0 }' "$1"
}

# Callgrind's options: every instruction's count, by its address, in plain text.
callgrind_options=(--tool=callgrind --dump-instr=yes --compress-pos=no --compress-strings=no)

# code_lines ROUNDS LONG_FILE SHORT_FILE: the 64-byte code lines holding an
# instruction that LONG_FILE counted at least 9/10 of ROUNDS times more than
# SHORT_FILE. A cost line after "calls=" is the call's inclusive cost, not
# the instruction's own, and is skipped.
code_lines() {
    perl -e '
        my ($rounds, @files) = @ARGV;
        my $enough = 0.9 * $rounds;
        my (%count, %lines);
        for my $i (0, 1) {
            open(my $in, "<", $files[$i]) or die "$files[$i]: $!\n";
            my ($object, $after_call) = ("", 0);
            while (<$in>) {
                if (/^ob=(.*)/) { $object = $1; next }
                if (/^calls=/) { $after_call = 1; next }
                next unless /^0x([0-9a-f]+) \S+ (\d+)/;
                if ($after_call) { $after_call = 0; next }
                $count{"$object $1"} += $i == 0 ? $2 : -$2;
            }
        }
        for (keys %count) {
            next if $count{$_} < $enough;
            my ($object, $address) = split / /;
            $lines{$object . " " . int(hex($address) / 64)} = 1;
        }
        print scalar(keys %lines), "\n";
    ' "$1" "$2" "$3"
}

# client_cost DIR N FILE: the client's instructions for N round trips, the
# server running natively; callgrind's counts go to FILE. Only the ping-pong
# loop is counted (run_ping_pong and what it calls, in every build since the
# reference): the report after it walks histograms whose width follows the
# latencies, so on a busy machine it cost the longer run tens of
# instructions a round trip more than the shorter, and moved the figure.
client_cost() {
    local dir=$1 n=$2 out=$3
    bin_dir=$dir
    start_sctp_perf_server "$cpu" "$limit_s"
    timeout "$limit_s" taskset -c "$cpu" valgrind "${callgrind_options[@]}" \
        --toggle-collect='sctp_perf::run_ping_pong(*' --callgrind-out-file="$out" \
        "$dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$srv_port" -s 7 -c "$n" \
        >/dev/null 2>"$out.err" || die "the client under callgrind failed: $(tail -3 "$out.err")"
    stop_pid "$srv_pid"
    callgrind_total "$out"
}

# server_cost DIR N FILE: the server's instructions while one native client runs
# N round trips (and the server's start and end, which cancel out).
server_cost() {
    local dir=$1 n=$2 out=$3 log=$work_dir/server.$RANDOM.log pid port=
    : >"$log"
    timeout "$limit_s" taskset -c "$cpu" valgrind "${callgrind_options[@]}" --callgrind-out-file="$out" \
        "$dir/SOCK_STREAM_srv" -t tcp -p 0 -a 127.0.0.1 2>"$log" &
    pid=$!
    started_pids+=("$pid")
    for _ in $(seq 300); do
        port=$(grep -ao 'starting server at port [0-9]*' "$log" | awk '{print $5}' || true)
        [[ -n $port ]] && break
        sleep 0.1
    done
    [[ -n $port ]] || die "SOCK_STREAM_srv under callgrind did not start: $(tail -3 "$log")"
    timeout "$limit_s" taskset -c "$cpu" "$dir/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$port" \
        -s 7 -c "$n" >/dev/null 2>&1 || die "the client of the server under callgrind failed"
    # SIGTERM ends the server cleanly, and callgrind writes its file.
    stop_pid "$pid"
    callgrind_total "$out"
}

# per_round_trip LONG SHORT: instructions per round trip, from the two totals.
per_round_trip() {
    awk -v long="$1" -v short="$2" -v n="$((count - short))" 'BEGIN { printf "%.0f", (long - short) / n }'
}

machine_line
build_line A "$dir_a"
build_line B "$dir_b"
echo "per round trip, TCP loopback, -s 7, both ends on CPU $cpu;" \
    "($count - $short round trips), callgrind"
printf '%-8s %-13s %10s %10s\n' end figure A B
for end in client server; do
    declare -A cost=() lines=()
    for side in a b; do
        dir_var=dir_$side
        long_file=$work_dir/$end.$side.long.out
        short_file=$work_dir/$end.$side.short.out
        long=$("${end}_cost" "${!dir_var}" "$count" "$long_file")
        short_total=$("${end}_cost" "${!dir_var}" "$short" "$short_file")
        cost[$side]=$(per_round_trip "$long" "$short_total")
        lines[$side]=$(code_lines "$((count - short))" "$long_file" "$short_file")
    done
    printf '%-8s %-13s %10s %10s   B/A %s\n' "$end" instructions "${cost[a]}" "${cost[b]}" \
        "$(ratio "${cost[b]}" "${cost[a]}")"
    printf '%-8s %-13s %10s %10s   B/A %s\n' "$end" "code lines" "${lines[a]}" "${lines[b]}" \
        "$(ratio "${lines[b]}" "${lines[a]}")"
done
load_line end
