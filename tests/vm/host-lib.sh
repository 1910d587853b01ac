# SPDX-License-Identifier: Apache-2.0
# Shared by the host scripts that build and boot the test VM, run-vm-checks.sh
# and run-vm-sweeps.sh, which source it (bash). They set allow_install (0 for
# --no-install) and work_dir (--work-dir, or empty) before calling these.
# shellcheck shell=bash

# die MESSAGE: MESSAGE on stderr after the script's name; exit 1.
die() {
    echo "$(basename "$0" .sh): $*" >&2
    exit 1
}

# install_host_packages PACKAGE...: installs missing host packages with
# apt-get, or dies naming them when that is not allowed (--no-install) or
# not possible (not root).
install_host_packages() {
    # shellcheck disable=SC2154 # allow_install: set by the sourcing script
    if ((allow_install == 0)) || [[ "$(id -u)" != 0 ]]; then
        die "missing host packages: $* (install them with apt-get install --no-install-recommends $*)"
    fi
    echo "$(basename "$0" .sh): installing $*" >&2
    # An out-of-date package list makes apt-get install fail on a fresh
    # machine; refreshing it first is cheap compared with the VM run.
    apt-get update -qq >&2 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2 ||
        die "apt-get install $* failed"
}

# copy_into_root ROOT FILE [TARGET]: copies FILE to ROOT/TARGET, TARGET being
# FILE's own absolute path unless given, following symbolic links so the
# image holds the real bytes.
copy_into_root() {
    local root="$1" file="$2" target="${3:-$2}"
    mkdir -p "${root}$(dirname "${target}")"
    cp -L "${file}" "${root}${target}"
}

# copy_libraries ROOT EXECUTABLE: every shared library EXECUTABLE needs, and
# the dynamic loader, copied under ROOT to the paths ldd reports; glibc's
# loader searches /lib/x86_64-linux-gnu and /usr/lib/x86_64-linux-gnu without
# any ld.so.cache.
copy_libraries() {
    local root="$1" lib
    while read -r lib; do
        [[ -n "${lib}" ]] && copy_into_root "${root}" "${lib}"
    done < <(ldd "$2" | awk '/=> \// { print $3 } /^[[:space:]]*\/[^ ]*ld-linux/ { print $1 }')
}

# use_work_dir PREFIX: makes work_dir an absolute path to an existing
# directory; without --work-dir, a temporary one named PREFIX.XXXXXX, also in
# temp_work_dir for the EXIT trap to remove.
use_work_dir() {
    if [[ -z "${work_dir}" ]]; then
        temp_work_dir="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
        work_dir="${temp_work_dir}"
    else
        mkdir -p "${work_dir}"
        work_dir="$(cd "${work_dir}" && pwd)"
    fi
}

# hide_blobs: prints the console output with each base64 block replaced by one line, so
# the progress of the sweeps stays readable.
hide_blobs() {
    awk '/^SCTPPERF-BLOB-BEGIN / { print; n = 0; on = 1; next }
         on && /^SCTPPERF-BLOB-END / { printf "  [%d lines of base64]\n", n; on = 0 }
         on && /^[A-Za-z0-9+\/=]+\r?$/ { n++; next }
         { print; fflush() }'
}

# unpack_blob NAME SERIAL DEST: decodes the block NAME of the cleaned serial
# log SERIAL (SCTPPERF-BLOB-BEGIN NAME SHA256 ... SCTPPERF-BLOB-END NAME),
# checks its SHA-256 and unpacks the .tar.gz into DEST. Only base64 lines
# count, so a stray kernel message inside the block cannot corrupt the copy
# unnoticed: the checksum would not match. Returns 1, saying why, on failure.
unpack_blob() {
    local name="$1" serial="$2" dest="$3" sum got me
    me="$(basename "$0" .sh)"
    sum="$(awk -v n="${name}" '$1 == "SCTPPERF-BLOB-BEGIN" && $2 == n { print $3 }' "${serial}" | tail -n 1)"
    [[ -n "${sum}" ]] || { echo "${me}: the guest sent no ${name} block" >&2; return 1; }
    mkdir -p "${dest}"
    awk -v n="${name}" '$1 == "SCTPPERF-BLOB-BEGIN" && $2 == n { on = 1; next }
                         on && $1 == "SCTPPERF-BLOB-END" { exit }
                         on && /^[A-Za-z0-9+\/=]+$/ { print }' "${serial}" |
        base64 -d >"${dest}.tar.gz" || { echo "${me}: the ${name} block is not valid base64" >&2; return 1; }
    got="$(sha256sum "${dest}.tar.gz" | cut -d' ' -f1)"
    [[ "${got}" == "${sum}" ]] ||
        { echo "${me}: the ${name} copy is damaged (sha256 ${got}, the guest sent ${sum})" >&2; return 1; }
    tar -C "${dest}" -xzf "${dest}.tar.gz" || { echo "${me}: cannot unpack the ${name} copy" >&2; return 1; }
}
