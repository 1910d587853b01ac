#!/usr/bin/env bash
# The sanitizer builds of sctp-perf, each in a build directory of its own,
# and the unit and loopback integration tests run in them.
#   address  AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer,
#            built with clang, which also builds the fuzz targets of tests/fuzz
#   thread   ThreadSanitizer, built with the main build's compiler
# Any sanitizer report, from any process a test starts (servers in the
# background included), fails the run: the tools write their reports to
# files, which are shown at the end.
#
# Usage: tests/sanitize/run-sanitized.sh build address|thread BUILD_DIR [CXX_COMPILER]
#        tests/sanitize/run-sanitized.sh test address|thread BUILD_DIR
set -euo pipefail

usage="usage: $0 build|test address|thread BUILD_DIR [CXX_COMPILER]"
step=${1:?$usage}
kind=${2:?$usage}
build_dir=${3:?$usage}
root=$(cd "$(dirname "$0")/../.." && pwd)

build() {
    local compiler=$1 sanitizers=$2
    shift 2
    # -O1 keeps the build short and the stacks readable (libFuzzer's own
    # advice too), and line tables (-g1) are all a report needs of debug
    # information; Debug keeps the assertions.
    cmake -S "$root" -B "$build_dir" -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DSCTP_PERF_SANITIZE="$sanitizers" \
        -DSCTP_PERF_BUILD_TESTS=ON "$@" >/dev/null
    # Only what the tests below run: not the VM's garbage peer, nor the
    # HdrHistogram sample, nor the benches.
    local targets=(sctp_perf_unit_tests SOCK_STREAM_clt SOCK_STREAM_srv)
    [ -d "$root/SOCK_SEQPACK" ] && targets+=(SOCK_SEQPACK_clt SOCK_SEQPACK_srv)
    [ "$sanitizers" = address,undefined ] && targets+=(sctp_perf_fuzz_targets)
    cmake --build "$build_dir" -j "$(nproc)" --target "${targets[@]}"
}

run_tests() {
    local reports=$build_dir/reports
    rm -rf "$reports"
    mkdir -p "$reports"
    # exitcode=66: a test that expects a program to fail with 1 must not take
    # a sanitizer's report for that failure.
    local common="exitcode=66:log_path=$reports/report:print_stacktrace=1"
    export ASAN_OPTIONS="$common:halt_on_error=1:detect_leaks=1"
    export UBSAN_OPTIONS="$common:halt_on_error=1"
    # TSan goes on after a race, so that one run lists them all; the report
    # file and the exit code still fail the run.
    export TSAN_OPTIONS="$common:second_deadlock_stack=1"

    local status=0
    # The unit tests and the programs over loopback. Not the VM or native
    # SCTP runs (another kernel, minutes long), nor the Perl tests (they test
    # the sweep script), nor the HdrHistogram reader (Java reading a file).
    ctest --test-dir "$build_dir" --output-on-failure -L "unit|integration" \
        -LE "vm|native|perl|hdr" || status=$?

    if compgen -G "$reports/report.*" >/dev/null; then
        for report in "$reports"/report.*; do
            echo "=== $report"
            cat "$report"
        done
        echo "FAIL: the $kind sanitizers reported (above)" >&2
        exit 1
    fi
    return "$status"
}

case "$step:$kind" in
    build:address)
        compiler=$(command -v clang++-14 || command -v clang++ || true)
        if [ -z "$compiler" ]; then
            echo "FAIL: no clang++ (ASan build and libFuzzer): run scripts/install-deps.sh test" >&2
            exit 1
        fi
        build "$compiler" address,undefined -DSCTP_PERF_BUILD_FUZZ=ON
        ;;
    build:thread) build "${4:-g++}" thread ;;
    test:address | test:thread) run_tests ;;
    *)
        echo "$usage" >&2
        exit 2
        ;;
esac
