# SPDX-License-Identifier: Apache-2.0
# Shared helpers for the tests that run the real programs against each other.
# Each test script sources this file with the programs' directory as $1. Every
# wait is bounded, and whatever a test starts is stopped when it exits.

set -euo pipefail

BIN_DIR=${1:?usage: $0 BIN_DIR}
WORK_DIR=$(mktemp -d "${TMPDIR:-/tmp}/sctp-perf-test.XXXXXX")
STARTED_PIDS=()
# Network namespaces the test made (add_netns).
NAMESPACES=()

# The clients' JSON reports a test made, files in WORK_DIR and the stdout of
# run_capture (kept as captured-N.json), are checked against the report's
# schema when the test passes: every test that makes a report checks the
# contract too (tests/schema/check_reports.py, --strict: a key the schema
# does not name fails). Reports spoiled on purpose go in WORK_DIR/broken.
SCHEMA_CHECK=$(cd "$(dirname "${BASH_SOURCE[0]}")/../schema" && pwd)/check_reports.py
REPORT_SCHEMA=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../doc" && pwd)/report.schema.json
CAPTURED=0

check_reports_made() {
    /usr/bin/python3 "$SCHEMA_CHECK" --strict "$REPORT_SCHEMA" "$WORK_DIR" >"$WORK_DIR/schema.out" 2>&1 && return 0
    cat "$WORK_DIR/schema.out" >&2
    echo "FAIL: a report this test made does not conform to doc/report.schema.json" >&2
    return 1
}

cleanup() {
    local status=$? pid
    for pid in "${STARTED_PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${STARTED_PIDS[@]}"; do
        # Give each a moment to stop cleanly, then make sure.
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null || true
    done
    # The processes first, then their namespaces, and with them the veths
    # inside.
    local ns
    for ns in "${NAMESPACES[@]}"; do
        ip netns del "$ns" 2>/dev/null || true
    done
    if [ "$status" -eq 0 ] && ! check_reports_made; then
        status=1
    fi
    rm -rf "$WORK_DIR"
    exit "$status"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

pass() {
    echo "ok: $*"
}

# Exit status 77 tells CTest the test was skipped (SKIP_RETURN_CODE).
skip() {
    echo "SKIP: $*"
    exit 77
}

# start_server NAME ARGS...: starts BIN_DIR/NAME with ARGS and -p 0, waits up
# to 5 s for it to log its port, and sets SERVER_PID, SERVER_PORT, SERVER_LOG.
# With SERVER_NETNS set, the server runs in that network namespace
# (ip netns exec, which becomes the server: SERVER_PID is the server's).
start_server() {
    local name=$1
    shift
    SERVER_LOG="$WORK_DIR/$name.$RANDOM.log"
    # Created here, so the first read below never races the server's shell.
    : >"$SERVER_LOG"
    local run=("$BIN_DIR/$name")
    [ -n "${SERVER_NETNS:-}" ] && run=(ip netns exec "$SERVER_NETNS" "${run[@]}")
    "${run[@]}" -p 0 "$@" 2>"$SERVER_LOG" &
    SERVER_PID=$!
    STARTED_PIDS+=("$SERVER_PID")
    SERVER_PORT=
    for _ in $(seq 100); do
        SERVER_PORT=$(sed -n 's/.*starting server at port \([0-9][0-9]*\).*/\1/p' "$SERVER_LOG")
        [ -n "$SERVER_PORT" ] && return 0
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.05
    done
    cat "$SERVER_LOG" >&2
    fail "$name did not report its port within 5 s"
}

# log_count PATTERN: how many lines of the server log match PATTERN.
log_count() {
    grep -c -- "$1" "$SERVER_LOG" || true
}

# wait_for_log PATTERN [SECONDS] [MORE_THAN]: waits up to SECONDS (default 5)
# for the server log to hold more than MORE_THAN (default 0) lines matching
# PATTERN: with a count taken before, one more than then.
wait_for_log() {
    local more_than=${3:-0}
    for _ in $(seq $((${2:-5} * 20))); do
        [ "$(log_count "$1")" -gt "$more_than" ] && return 0
        sleep 0.05
    done
    cat "$SERVER_LOG" >&2
    if [ "$more_than" -gt 0 ]; then
        fail "server log never showed more than $more_than lines of: $1 (within ${2:-5} s)"
    fi
    fail "server log never showed: $1"
}

# run_capture EXPECTED_STATUS CMD...: runs CMD (bounded to 60 s), keeps its
# stdout in $OUT and stderr in $ERR, and fails unless it exits EXPECTED_STATUS.
run_capture() {
    local expected=$1
    shift
    local status=0
    timeout 60 "$@" >"$WORK_DIR/out" 2>"$WORK_DIR/err" || status=$?
    OUT=$(cat "$WORK_DIR/out")
    ERR=$(cat "$WORK_DIR/err")
    if [ "${OUT:0:1}" = "{" ]; then
        CAPTURED=$((CAPTURED + 1))
        cp "$WORK_DIR/out" "$WORK_DIR/captured-$CAPTURED.json"
    fi
    if [ "$status" -ne "$expected" ]; then
        echo "--- stdout:" >&2
        echo "$OUT" | head -40 >&2
        echo "--- stderr:" >&2
        echo "$ERR" >&2
        fail "'$*' exited $status, expected $expected"
    fi
}

# json_field FILE PATH: prints one value of a JSON document, e.g.
# json_field out.json summary.num_points (Perl's core JSON::PP: no extra package).
json_field() {
    perl -MJSON::PP -e '
        local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!";
        my $v = JSON::PP->new->decode(<$f>);
        $v = ref $v eq "ARRAY" ? $v->[$_] : $v->{$_} for split /\./, $ARGV[1];
        print defined $v ? $v : "null";
    ' "$1" "$2"
}

# expect_field FILE PATH VALUE: fails unless the JSON value at PATH is VALUE
# (as json_field prints it: JSON::PP prints true as 1, false as 0).
expect_field() {
    local actual
    actual=$(json_field "$1" "$2")
    [ "$actual" = "$3" ] || fail "$(basename "$1"): $2 is $actual, expected $3"
}

# perl_check FILE CODE [ARGS...]: runs the Perl CODE with $d the decoded JSON
# of FILE and ARGS in $ARGV[2], ...; CODE dies with a reason, and so the
# call fails.
perl_check() {
    perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!";
        our $d = JSON::PP->new->decode(<$f>); eval $ARGV[1]; die $@ if $@;' "$@"
}

# check_json FILE PERL...: runs the pieces of PERL, in order, as perl_check
# does, with $d the decoded FILE, $l its load section and same(WHAT, GOT,
# WANT), which dies unless GOT is WANT; a piece dies with a reason.
check_json() {
    local file=$1
    shift
    perl_check "$file" '
        our $l = $d->{load};
        sub same { my ($what, $got, $want) = @_;
                   die "$what is ", $got // "null", ", not $want\n" unless defined $got && $got eq $want }
        eval join("\n", @ARGV[2 .. $#ARGV]); die $@ if $@;
    ' "$@"
}

# calibrate_shell_start: how late this machine, as loaded now, starts a
# shell after a timed wait, which is what the client does for each --at
# command (a timed wait, then posix_spawn of /bin/sh): twenty sleeps of
# 50 ms, each followed by a shell's start, timed. Sets SHELL_LATE_US (the
# worst) and SHELL_START_BOUND_S, five times it in seconds and 0.2 s at
# least: the bound on how late a command starts after its instant, or is
# killed after its timeout. The floor is for a calibration made in a calm
# moment of a machine that is busy again a second later (the tests' --at
# instants stand 0.5 s apart or more, so 0.2 s still tells them apart).
calibrate_shell_start() {
    local worst_ns=0 from to late
    for _ in $(seq 20); do
        from=$(date +%s%N)
        sleep 0.05
        to=$(sh -c 'date +%s%N')
        late=$((to - from - 50000000))
        ((late <= worst_ns)) || worst_ns=$late
    done
    SHELL_LATE_US=$((worst_ns / 1000))
    SHELL_START_BOUND_S=$(perl -e 'my $s = 5 * $ARGV[0] / 1e9; printf "%.3f", $s < 0.2 ? 0.2 : $s' -- "$worst_ns")
    echo "calibration: a shell started at worst $SHELL_LATE_US us late; bound $SHELL_START_BOUND_S s"
}

# start_wait_control EPOCH FILE: in the background, waits for the instant
# EPOCH (whole seconds) as a client's --start-at does (a monotonic deadline
# set from the wall clock read at once), then writes to FILE how late, in
# microseconds, the wall clock says it woke. A client late together with
# this control was held up by the machine (a stall, a step of the clock),
# not by its own wait: late_allowance turns that into a bound.
start_wait_control() {
    perl -MTime::HiRes=clock_gettime,time,sleep,CLOCK_MONOTONIC -e '
        my $at = shift;
        my $deadline = clock_gettime(CLOCK_MONOTONIC) + ($at - time);
        while ((my $left = $deadline - clock_gettime(CLOCK_MONOTONIC)) > 0) {
            sleep($left < 0.02 ? $left : 0.02);
        }
        printf "%.0f\n", (time - $at) * 1e6;
    ' "$1" >"$2" &
    STARTED_PIDS+=("$!")
    WAIT_CONTROL_PID=$!
}

# late_allowance FILE BOUND_US: sets LATE_ALLOWANCE_US, how late a start may
# be: BOUND_US beyond the lateness of the control that wrote FILE
# (start_wait_control), when it was late. Fails when the control did not.
late_allowance() {
    wait "$WAIT_CONTROL_PID" || fail "the control waiting for the instant failed"
    local control
    control=$(cat "$1")
    [[ "$control" =~ ^-?[0-9]+$ ]] || fail "the control waiting for the instant wrote '$control'"
    echo "control: woke $control us after the instant"
    LATE_ALLOWANCE_US=$(((control > 0 ? control : 0) + $2))
}

# json_field_sum PATH FILE...: the sum over the JSON files of one whole-number field.
json_field_sum() {
    local path=$1 total=0 f
    shift
    for f in "$@"; do
        total=$((total + $(json_field "$f" "$path")))
    done
    echo "$total"
}

# check_merged_sums MERGED "PATH..." REPORT...: fails unless each whole-number
# field of the merged report MERGED equals its sum over the REPORTs.
check_merged_sums() {
    local merged=$1 paths=$2 path expected actual
    shift 2
    for path in $paths; do
        expected=$(json_field_sum "$path" "$@")
        actual=$(json_field "$merged" "$path")
        [ "$actual" = "$expected" ] || fail "merged $path is $actual, the clients' sum $expected"
    done
}

# need_netns: skips the test, saying why, unless it can make network
# namespaces: it runs as root and has ip (iproute2).
need_netns() {
    [ "$(id -u)" -eq 0 ] || skip "needs root to make network namespaces (ctest -LE root leaves it out)"
    command -v ip >/dev/null || skip "no ip command (iproute2) to make network namespaces"
}

# add_netns NAME: makes the network namespace NAME, deleted on exit. When the
# first cannot be made, this kernel or container makes none: the test is
# skipped; a later one that fails fails the test.
add_netns() {
    local err
    if ! err=$(ip netns add "$1" 2>&1); then
        ((${#NAMESPACES[@]} == 0)) || fail "ip netns add $1 failed: $err"
        skip "cannot make network namespaces (ip netns add: $err)"
    fi
    NAMESPACES+=("$1")
}

# in_ns NS CMD...: runs CMD in the network namespace NS, bounded to 10 s;
# fails the test if it fails.
in_ns() {
    local ns=$1
    shift
    timeout 10 ip netns exec "$ns" "$@" || fail "in $ns: '$*' failed"
}

# kernel_has_sctp: true when this kernel can open an SCTP socket.
kernel_has_sctp() {
    perl -MSocket -e 'socket(my $s, AF_INET, SOCK_STREAM, 132) or exit 1'
}
