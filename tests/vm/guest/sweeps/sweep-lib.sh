# SPDX-License-Identifier: Apache-2.0
# The guest half of run-vm-sweeps.sh (sourced by busybox sh after lib.sh).
#
# A sweep is run_spectrum.pl run as a user would run it, pinned to one vCPU
# with taskset. Its output directory then travels to the host over the
# serial console, the VM's only channel (it has no network device): a
# gzipped tar, base64-encoded between two tagged lines that carry its
# SHA-256, so the host can tell a complete copy from a damaged one.
#
#   SCTPPERF-INFO <name> <facts about the guest>
#   SCTPPERF-COMMAND <name> <the run_spectrum.pl command line>
#   SCTPPERF-BLOB-BEGIN <name> <sha256 of the .tar.gz>
#   <base64 lines>
#   SCTPPERF-BLOB-END <name>
# shellcheck shell=sh

# Written by the host: SWEEP_ITERATIONS, SWEEP_MIN_POWER, SWEEP_MAX_POWER.
# shellcheck source=/dev/null
. /sctp-perf/sweeps.conf

SWEEP_ROOT=/tmp/sweeps

# run_sweep NAME SERVICE: sweeps SCTP with the SERVICE programs into
# ${SWEEP_ROOT}/NAME and sends that directory to the host.
run_sweep() {
    _name="$1"
    _service="$2"
    need_modules
    case "${_service}" in
        stream) require_program SOCK_STREAM_srv; require_program SOCK_STREAM_clt ;;
        seqpack) require_program SOCK_SEQPACK_srv; require_program SOCK_SEQPACK_clt ;;
    esac
    [ -x /usr/bin/perl ] || fail "perl is not in the image"
    [ -x /usr/bin/gnuplot ] || fail "gnuplot is not in the image"

    echo "SCTPPERF-INFO ${_name} kernel=$(uname -r) cpus=$(nproc)" \
        "mem_total_kb=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)" \
        "started_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"

    _out="${SWEEP_ROOT}/${_name}"
    mkdir -p "${SWEEP_ROOT}"
    rm -rf "${_out}"
    # taskset pins run_spectrum.pl, and so the server and every client it
    # starts (they inherit the mask), to vCPU 0: the sweep measures the SCTP
    # stack without cross-CPU wake-ups, which under TCG would add the
    # emulator's thread scheduling on top.
    set -- taskset -c 0 run_spectrum.pl --start-server --service "${_service}" --protocol sctp \
        --min-power "${SWEEP_MIN_POWER}" --max-power "${SWEEP_MAX_POWER}" \
        --iterations "${SWEEP_ITERATIONS}" --output-dir "${_out}"
    echo "SCTPPERF-COMMAND ${_name} $*"
    _started="$(now_s)"
    _status=0
    "$@" || _status=$?
    _elapsed="$(float_sub "$(now_s)" "${_started}")"
    [ "${_status}" -eq 0 ] || fail "run_spectrum.pl exited with status ${_status} after ${_elapsed} s"

    # The host checks these too, but a sweep that went wrong should say so
    # here, next to run_spectrum.pl's own messages.
    _csv="${_out}/spectrum.csv"
    _want=$((SWEEP_MAX_POWER - SWEEP_MIN_POWER + 1))
    _rows=$(($(wc -l <"${_csv}") - 1))
    [ "${_rows}" -eq "${_want}" ] || fail "spectrum.csv has ${_rows} rows, expected ${_want}"
    _wrong="$(awk -F, -v n="${SWEEP_ITERATIONS}" 'NR > 1 && $2 != n { c++ } END { print c + 0 }' "${_csv}")"
    [ "${_wrong}" -eq 0 ] || fail "${_wrong} rows of spectrum.csv do not have ${SWEEP_ITERATIONS} iterations"
    [ -s "${_out}/spectrum.png" ] || fail "run_spectrum.pl drew no spectrum.png"

    send_directory "${_name}"
    pass "${_rows} sizes x ${SWEEP_ITERATIONS} iterations in ${_elapsed} s"
}

# send_directory NAME: ${SWEEP_ROOT}/NAME to the host over the console.
send_directory() {
    _tar="${CHECK_WORK}/$1.tar.gz"
    tar -C "${SWEEP_ROOT}" -czf "${_tar}" "$1" || fail "cannot pack ${SWEEP_ROOT}/$1"
    _sum="$(sha256sum "${_tar}" | cut -d' ' -f1)"
    echo "SCTPPERF-BLOB-BEGIN $1 ${_sum}"
    base64 "${_tar}"
    echo "SCTPPERF-BLOB-END $1"
}
