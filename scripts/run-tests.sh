#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing, builds, and runs the complete test suite: unit
# tests, the programs over loopback, real-kernel SCTP in a VM, and the Perl
# tests of run_spectrum.pl. Exits non-zero on any failure.
#
# Tests run side by side, twice as many as the machine has CPUs
# ($SCTP_PERF_TEST_JOBS sets another number): most of them wait on sockets
# and timers, and those that keep CPUs busy (builds, VMs, fuzzers) say how
# many, so ctest counts them as that many.
#
# Usage: scripts/run-tests.sh [ctest options]   e.g. -L unit, -R integration
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${SCTP_PERF_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh" test
"$root/scripts/build.sh" -DSCTP_PERF_BUILD_TESTS=ON
cd "$build_dir"
jobs=${SCTP_PERF_TEST_JOBS:-$(($(nproc) * 2))}
ctest --output-on-failure -j "$jobs" "$@"
