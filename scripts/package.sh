#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds a Debian package of the current tree and prints its path as the last
# line: a Release build (with Debian's hardening flags) into build-pkg/ (or
# $SCTP_PERF_PACKAGE_BUILD_DIR), stripped, with man pages and bash completions
# generated from the programs just built, packed by CPack's DEB generator.
# Needs the packages of 'scripts/install-deps.sh package'.
#
# Usage: scripts/package.sh [cmake options]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${SCTP_PERF_PACKAGE_BUILD_DIR:-$root/build-pkg}

# The same tree gives the same dates in the man pages and the changelog.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)
    export SOURCE_DATE_EPOCH
fi
# What Debian builds its own packages with: -O2 (Release's -O3 comes after
# and wins), stack protector, _FORTIFY_SOURCE, PIE, full RELRO and bindnow.
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
CXXFLAGS="$(dpkg-buildflags --get CXXFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
LDFLAGS=$(dpkg-buildflags --get LDFLAGS)
export CXXFLAGS LDFLAGS

# A unity build (eight files to a compiler run) reads the heavy headers
# (Boost.Asio, nlohmann-json, fmt) once per eight files: 140 s instead of 262
# on two idle CPUs. The benchmarks measure build/bin, which keeps a compiler
# run per file, so nothing they compare is built this way.
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSCTP_PERF_BUILD_TESTS=OFF \
    -DSCTP_PERF_BUILD_BENCH=OFF -DSCTP_PERF_INSTALL_DOCS=ON -DCMAKE_UNITY_BUILD=ON "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
# Only this tree's package in the output, so the path printed is the new one.
rm -f "$build_dir"/sctp-perf_*.deb
(cd "$build_dir" && cpack -G DEB >cpack.log) || {
    cat "$build_dir/cpack.log" >&2
    echo "package.sh: cpack failed (its log is above)" >&2
    exit 1
}
deb=$(ls "$build_dir"/sctp-perf_*.deb)
echo "$deb"
