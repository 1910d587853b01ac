#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds sctp-perf into build/ (or $SCTP_PERF_BUILD_DIR).
# Programs land in build/bin/.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${SCTP_PERF_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
