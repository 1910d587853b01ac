#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one libFuzzer target of tests/fuzz for a bounded time from its seed
# corpus, in the ASan and UBSan build that tests/sanitize/run-sanitized.sh
# makes. A crash, a sanitizer report, a leak, a broken promise (the targets
# abort) or an input that takes 10 s fails the run, which then shows the end
# of libFuzzer's log and where the input that did it was saved.
#
# Usage: tests/fuzz/run-fuzz.sh BUILD_DIR TARGET SECONDS [WORKERS]
#   WORKERS  libFuzzer's fork-mode workers (default: one per core); the
#            test command gives 1, and runs two targets side by side
# Again by hand, after a failure: BUILD_DIR/bin/fuzz_TARGET BUILD_DIR/fuzz/crash-...
set -euo pipefail

usage="usage: $0 BUILD_DIR TARGET SECONDS [WORKERS]"
build_dir=${1:?$usage}
target=${2:?$usage}
seconds=${3:?$usage}
workers=${4:-$(nproc)}
seeds=$(cd "$(dirname "$0")" && pwd)/corpus/$target
binary=$build_dir/bin/fuzz_$target
# What this run adds to the corpus goes here; the committed seeds stay as they are.
work=$build_dir/fuzz/$target
log=$work.log
rm -rf "$work"
mkdir -p "$work"

export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:print_stacktrace=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
"$binary" -fork="$workers" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 \
    -artifact_prefix="$build_dir/fuzz/$target-" "$work" "$seeds" >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    # The report is at the end; the lines before it are libFuzzer's progress.
    tail -n 80 "$log"
    echo "FAIL: fuzz_$target exited $status; its log: $log" >&2
    exit 1
fi
# libFuzzer's last progress line counts the inputs run so far.
runs=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
echo "ok: fuzz_$target: ${runs:-?} inputs in $seconds s from $(find "$seeds" -type f | wc -l)" \
    "seeds, $(find "$work" -type f | wc -l) new in its corpus, no failure"
