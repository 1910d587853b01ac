#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing, builds, and runs the complete test suite: unit
# tests, the programs over loopback, real-kernel SCTP in a VM, and the Perl
# tests of run_spectrum.pl. Exits non-zero on any failure.
#
# Tests run side by side, twice as many as the machine has CPUs
# ($SCTP_PERF_TEST_JOBS sets another number): most of them wait on sockets
# and timers. Those that keep CPUs busy take `cpus` slots of a resource file
# that has two per CPU, each half a CPU: a build three (so on two CPUs one
# build at a time, with a VM run beside it), the VM that judges timing all
# four, a fuzzer or the package two, and each of the other VM runs (the
# plain one, the sanitized one's two halves), whose checks mostly wait on
# the guest's timers, one (tests/CMakeLists.txt).
#
# Usage: scripts/run-tests.sh [ctest options]   e.g. -L unit, -R integration
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${SCTP_PERF_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh" test
"$root/scripts/build.sh" -DSCTP_PERF_BUILD_TESTS=ON
cd "$build_dir"
jobs=${SCTP_PERF_TEST_JOBS:-$(($(nproc) * 2))}
cpus=$(nproc)
[ "$cpus" -ge 2 ] || cpus=2 # the timing VM asks for two CPUs
resources=$build_dir/ctest-resources.json
printf '{"version": {"major": 1, "minor": 0}, "local": [{"cpus": [{"id": "0", "slots": %d}]}]}\n' \
    $((cpus * 2)) >"$resources"
ctest --output-on-failure -j "$jobs" --resource-spec-file "$resources" "$@"
