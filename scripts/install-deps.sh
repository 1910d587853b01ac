#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages sctp-perf needs, and only those missing, so it
# is safe to run again. Usage: scripts/install-deps.sh [build|package|test]
#   build    compiler, CMake, libraries, Perl and gnuplot (the default)
#   package  the above plus what scripts/package.sh needs for the .deb
#   test     all of the above plus what the tests need (QEMU and friends for
#            real-kernel SCTP, clang for the sanitizer and fuzz builds, lintian)
set -euo pipefail

role=${1:-build}
build_packages=(
    g++ cmake make pkg-config
    libboost-dev libboost-program-options-dev libfmt-dev nlohmann-json3-dev libsctp-dev
    zlib1g-dev
    # run_spectrum.pl (which reads the client's reports with Cpanel::JSON::XS),
    # and the plots it and sctp-perf-compare --plot draw
    # (tests/integration/compare_runs.sh draws one).
    perl libcpanel-json-xs-perl gnuplot-nox
)
# scripts/package.sh: man pages from --help (help2man), CPack's Depends from
# dpkg-shlibdeps (dpkg-dev), which CPack runs on the files `file` calls ELF.
package_packages=(
    help2man dpkg-dev file
)
test_packages=(
    catch2 iproute2 procps
    # The JSON Schema validator that checks every report the tests make
    # against doc/report.schema.json (tests/schema/check_reports.py).
    python3-jsonschema
    # The package's test (tests/package): lintian on the .deb.
    lintian
    # The reference reader of HdrHistogram interval logs (tests/integration/hdr_log_reader.sh).
    libhdrhistogram-java default-jre-headless
    # The SCTP VM: a Debian kernel booted under QEMU with a busybox initramfs.
    qemu-system-x86 busybox-static cpio xz-utils kmod
    # The sanitizer builds and libFuzzer (tests/sanitize, tests/fuzz): clang
    # and its runtimes (libFuzzer, ASan, UBSan), a recommendation only of clang.
    clang-14 libclang-rt-14-dev
)

case "$role" in
    build) wanted=("${build_packages[@]}") ;;
    package) wanted=("${build_packages[@]}" "${package_packages[@]}") ;;
    test) wanted=("${build_packages[@]}" "${package_packages[@]}" "${test_packages[@]}") ;;
    *)
        echo "usage: $0 [build|package|test]" >&2
        exit 2
        ;;
esac

missing=()
for package in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#wanted[@]} packages already installed"
    exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
        echo "install-deps: need root to install: ${missing[*]} (run as root or install sudo)" >&2
        exit 1
    }
    as_root=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
