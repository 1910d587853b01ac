#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the real-kernel SCTP checks in a small QEMU virtual machine.
#
# Why a VM: the host that builds and tests sctp-perf may have no SCTP in its
# kernel (socket(..., IPPROTO_SCTP) fails with EPROTONOSUPPORT), and network
# namespaces, veth pairs and netem need privileges and modules a build host
# should not have to grant. Debian's cloud kernel has all of them as modules,
# boots in seconds under plain TCG emulation, and needs no disk image: the
# whole guest is an initramfs built here from busybox, iproute2, the kernel's
# modules, the programs under test and the guest scripts in guest/.
#
# Exit status: 0 every check passed or was skipped, 1 a check failed, a
# sanitizer reported, the guest never printed its summary, or the VM could
# not be prepared; 2 usage.
#
# Timing inside the VM is emulated: the checks prove behaviour (failover
# happens, netem delay shows up, a short RTO bounds a stall); their figures
# are not latency results.

set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly script_dir
readonly guest_src="${script_dir}/guest"
# shellcheck source-path=SCRIPTDIR source=host-lib.sh
source "${script_dir}/host-lib.sh"

# Every line the guest prints for the host starts with this tag, so kernel
# messages and check chatter can never be mistaken for a result.
readonly tag="SCTPPERF"

# The programs the checks run; the ones not in the bin dir are left out of
# the image and the checks that need them report SKIP.
readonly programs=(SOCK_STREAM_clt SOCK_STREAM_srv SOCK_SEQPACK_clt SOCK_SEQPACK_srv
                   sctp_garbage_peer sctp_notification_capture)

# Kernel modules the checks need; their dependencies are found from each
# module's own .modinfo "depends=" field, because the Debian package ships no
# modules.dep (depmod writes it at install time, which we skip on purpose).
readonly wanted_modules=(sctp veth sch_netem)

# The clients' reports the guest sends back are checked with the checker and
# schema the integration tests use.
readonly schema_check="${script_dir}/../schema/check_reports.py"
readonly report_schema="${script_dir}/../../doc/report.schema.json"

usage() {
    cat <<EOF
Usage: $(basename "$0") --bin-dir DIR [options]

Boots a QEMU (TCG) virtual machine with Debian's cloud kernel and runs the
sctp-perf programs from DIR against a real SCTP stack inside it.

Options:
  --bin-dir DIR        directory holding SOCK_STREAM_clt, SOCK_STREAM_srv, ...
                       (required; the SOCK_STREAM programs must be there, missing
                        SOCK_SEQPACK programs make their checks SKIP)
  --cache-dir DIR      where the kernel package is kept between runs
                       (default: \$SCTP_PERF_VM_CACHE or
                        \${XDG_CACHE_HOME:-\$HOME/.cache}/sctp-perf/vm)
  --kernel-package PKG Debian kernel package to boot (default: the one that
                       linux-image-cloud-amd64 depends on)
  --checks LIST        comma-separated check names to run (default: all)
  --skip-checks LIST   comma-separated check names not to run, of all or of
                       those --checks names
  --checks-dir DIR     take the guest's check scripts (NN-name.sh) from DIR
                       instead of guest/checks, e.g. to run other workloads
                       with the same kernel, modules and programs
  --extra-tree DIR     copy DIR's contents into the image root as they are laid
                       out there (DIR/usr/bin/x becomes /usr/bin/x); may repeat
  --guest-env NAME=VALUE
                       export NAME=VALUE to every check in the guest; may repeat.
                       For sanitizer builds of the programs: ASAN_OPTIONS and
                       UBSAN_OPTIONS with log_path=DIR/report, and
                       SCTPPERF_SANITIZER_DIR=DIR, make every report written
                       there fail its check and the run (see guest/run-checks.sh)
  --limit-scale N      multiply every check's own time limit by the whole
                       number N (default 1): for programs slower than the
                       limits were set for, such as the sanitizer builds
  --vm-timeout SECONDS bound on the whole VM run (default: 1500)
  --work-dir DIR       build the initramfs and keep the serial log here
                       (default: a temporary directory, removed afterwards)
  --no-install         never call apt-get; fail if a host tool is missing
  -h, --help           show this help
EOF
}

bin_dir=""
# CI and CTest environments may lack HOME; the cache then lives in TMPDIR.
cache_dir="${SCTP_PERF_VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-${TMPDIR:-/tmp}}/.cache}/sctp-perf/vm}"
kernel_package=""
checks=""
skip_checks=""
checks_dir="${guest_src}/checks"
extra_trees=()
guest_env=()
# The checks took 370 s on an idle 2-CPU host (the guest boot included),
# and a host kept busy by two other CPU-bound processes slows the emulator
# by half or more. The bound only catches a hang: a run cut short by it
# fails every check not yet run.
vm_timeout_s=1500
limit_scale=1
work_dir=""
allow_install=1

while (($#)); do
    case "$1" in
        --bin-dir) bin_dir="${2:?--bin-dir needs a directory}"; shift 2 ;;
        --cache-dir) cache_dir="${2:?--cache-dir needs a directory}"; shift 2 ;;
        --kernel-package) kernel_package="${2:?--kernel-package needs a name}"; shift 2 ;;
        --checks) checks="${2:?--checks needs a list}"; shift 2 ;;
        --skip-checks) skip_checks="${2:?--skip-checks needs a list}"; shift 2 ;;
        --checks-dir) checks_dir="${2:?--checks-dir needs a directory}"; shift 2 ;;
        --extra-tree) extra_trees+=("${2:?--extra-tree needs a directory}"); shift 2 ;;
        --guest-env) guest_env+=("${2:?--guest-env needs NAME=VALUE}"); shift 2 ;;
        --limit-scale) limit_scale="${2:?--limit-scale needs a whole number}"; shift 2 ;;
        --vm-timeout) vm_timeout_s="${2:?--vm-timeout needs seconds}"; shift 2 ;;
        --work-dir) work_dir="${2:?--work-dir needs a directory}"; shift 2 ;;
        --no-install) allow_install=0; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done

[[ -n "${bin_dir}" ]] || { usage >&2; exit 2; }
[[ -d "${bin_dir}" ]] || { echo "run-vm-checks: bin dir ${bin_dir} does not exist" >&2; exit 2; }
[[ "${vm_timeout_s}" =~ ^[0-9]+$ ]] || { echo "run-vm-checks: --vm-timeout takes whole seconds" >&2; exit 2; }
[[ "${limit_scale}" =~ ^[1-9][0-9]?$ ]] ||
    { echo "run-vm-checks: --limit-scale takes a whole number from 1 to 99, not ${limit_scale}" >&2; exit 2; }
guest_env+=("SCTPPERF_LIMIT_SCALE=${limit_scale}")
[[ -z "${checks}" || "${checks}" =~ ^[a-z0-9_,]+$ ]] ||
    { echo "run-vm-checks: --checks takes names like stream_sctp_all_sizes,sctp_available" >&2; exit 2; }
[[ -z "${skip_checks}" || "${skip_checks}" =~ ^[a-z0-9_,]+$ ]] ||
    { echo "run-vm-checks: --skip-checks takes names like hol_blocking,native_runner" >&2; exit 2; }
bin_dir="$(cd "${bin_dir}" && pwd)"
compgen -G "${checks_dir}/*.sh" >/dev/null ||
    { echo "run-vm-checks: --checks-dir ${checks_dir} holds no .sh check scripts" >&2; exit 2; }
# --skip-checks becomes the list of the checks that remain, named on the
# guest's command line as --checks would be; a name that is no check's is
# an error, so a renamed check cannot slip back in unnoticed.
if [[ -n "${skip_checks}" ]]; then
    all_checks=()
    for script in "${checks_dir}"/*.sh; do
        name="$(basename "${script}" .sh)"
        all_checks+=("${name#*-}")
    done
    for name in ${skip_checks//,/ }; do
        [[ " ${all_checks[*]} " == *" ${name} "* ]] ||
            { echo "run-vm-checks: --skip-checks: no check is named ${name}" >&2; exit 2; }
    done
    candidates=("${all_checks[@]}")
    [[ -z "${checks}" ]] || IFS=, read -r -a candidates <<<"${checks}"
    kept=()
    for name in "${candidates[@]}"; do
        [[ ",${skip_checks}," == *",${name},"* ]] || kept+=("${name}")
    done
    ((${#kept[@]})) || { echo "run-vm-checks: --skip-checks leaves no check to run" >&2; exit 2; }
    checks="$(IFS=,; echo "${kept[*]}")"
    echo "run-vm-checks: not running ${skip_checks//,/, } (--skip-checks)" >&2
fi
for tree in "${extra_trees[@]}"; do
    [[ -d "${tree}" ]] || { echo "run-vm-checks: --extra-tree ${tree} is not a directory" >&2; exit 2; }
done
for setting in "${guest_env[@]}"; do
    [[ "${setting}" =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] ||
        { echo "run-vm-checks: --guest-env takes NAME=VALUE, not ${setting}" >&2; exit 2; }
done

# --- host tools ----------------------------------------------------------

# iproute2 lives in /usr/sbin, which a non-root PATH (CTest's, say) may lack.
find_tool() {
    local name="$1" dir
    for dir in ${PATH//:/ } /usr/sbin /sbin /usr/bin /bin; do
        if [[ -x "${dir}/${name}" ]]; then
            echo "${dir}/${name}"
            return 0
        fi
    done
    return 1
}

is_static() {
    # ldd says "not a dynamic executable" (or "statically linked") for static files.
    ! ldd "$1" 2>&1 | grep -q '=>\|ld-linux'
}

ensure_host_tools() {
    local missing=()
    find_tool qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
    find_tool cpio >/dev/null || missing+=(cpio)
    find_tool ip >/dev/null && find_tool tc >/dev/null || missing+=(iproute2)
    find_tool xz >/dev/null || missing+=(xz-utils)
    find_tool dpkg-deb >/dev/null || missing+=(dpkg)
    # The guest has no C library of its own, so busybox must be the static build.
    if [[ ! -x /bin/busybox ]] || ! is_static /bin/busybox; then
        missing+=(busybox-static)
    fi
    # The reports the guest sends back are checked against the schema.
    /usr/bin/python3 -c 'import jsonschema' 2>/dev/null || missing+=(python3-jsonschema)
    ((${#missing[@]})) || return 0
    install_host_packages "${missing[@]}"
}

# --- kernel --------------------------------------------------------------

resolve_kernel_package() {
    local pkg
    pkg="$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
        awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')"
    if [[ -z "${pkg}" && "$(id -u)" == 0 && ${allow_install} == 1 ]]; then
        apt-get update -qq >&2 || true
        pkg="$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
            awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')"
    fi
    echo "${pkg}"
}

# Leaves the kernel's files in ${cache_dir}/${package}/ and sets kernel_root
# to that directory. The package is unpacked, never installed: this must not
# touch the host's /boot or /lib/modules.
ensure_kernel() {
    mkdir -p "${cache_dir}"
    if [[ -z "${kernel_package}" ]]; then
        kernel_package="$(resolve_kernel_package)"
        if [[ -z "${kernel_package}" ]]; then
            # No package list to ask (offline, or not root): fall back on
            # whatever kernel an earlier run left in the cache.
            kernel_package="$(cat "${cache_dir}/current" 2>/dev/null || true)"
        fi
        [[ -n "${kernel_package}" ]] ||
            die "cannot tell which kernel to use: apt-cache knows no linux-image-cloud-amd64 and ${cache_dir} is empty"
    fi
    kernel_root="${cache_dir}/${kernel_package}"
    if [[ ! -f "${kernel_root}/.unpacked" ]]; then
        # Download and unpack beside the cache entry, then rename it into
        # place: two runs sharing the cache then never see a half-unpacked
        # kernel, and the loser of a race simply discards its copy.
        local staging
        staging="$(mktemp -d "${cache_dir}/.staging.XXXXXX")"
        # apt-get download as root warns when its sandbox user cannot write
        # the target directory; giving the directory to everyone avoids that.
        chmod 0777 "${staging}"
        echo "run-vm-checks: downloading ${kernel_package} into ${cache_dir}" >&2
        if ! (cd "${staging}" && apt-get download -qq "${kernel_package}" >&2); then
            rm -rf "${staging}"
            die "apt-get download ${kernel_package} failed"
        fi
        if ! dpkg-deb -x "${staging}"/*.deb "${staging}/tree"; then
            rm -rf "${staging}"
            die "cannot unpack ${kernel_package}"
        fi
        touch "${staging}/tree/.unpacked"
        if [[ ! -f "${kernel_root}/.unpacked" ]]; then
            rm -rf "${kernel_root}"
            mv -T "${staging}/tree" "${kernel_root}" 2>/dev/null || true
        fi
        rm -rf "${staging}"
        [[ -f "${kernel_root}/.unpacked" ]] || die "cannot place ${kernel_package} in ${cache_dir}"
    fi
    local current
    current="$(mktemp "${cache_dir}/.current.XXXXXX")"
    echo "${kernel_package}" >"${current}"
    chmod 0644 "${current}"
    mv -f "${current}" "${cache_dir}/current"
    kernel_image="$(find "${kernel_root}/boot" -maxdepth 1 -name 'vmlinuz-*' | head -n 1)"
    [[ -n "${kernel_image}" ]] || die "no vmlinuz in ${kernel_root}/boot"
    kernel_version="${kernel_image##*/vmlinuz-}"
    modules_root="${kernel_root}/lib/modules/${kernel_version}"
    [[ -d "${modules_root}" ]] || die "no modules for ${kernel_version} in ${kernel_root}"
}

# --- initramfs -----------------------------------------------------------

module_file() {
    # Module names use "_" where file names may use "-".
    local name="$1" pattern
    pattern="${name//[-_]/[-_]}"
    find "${modules_root}/kernel" -regextype posix-extended \
        -regex ".*/${pattern}\.ko(\.xz|\.zst|\.gz)?" | head -n 1
}

# Writes an uncompressed copy of module $1 to $2 (busybox insmod reads plain .ko only).
decompress_module() {
    local src="$1" dst="$2"
    case "${src}" in
        *.ko.xz) xz -dc "${src}" >"${dst}" ;;
        *.ko.zst) zstd -qdc "${src}" >"${dst}" ;;
        *.ko.gz) gzip -dc "${src}" >"${dst}" ;;
        *) cp "${src}" "${dst}" ;;
    esac
}

# Depth-first walk so every module comes after the ones it depends on.
declare -A module_seen=()
module_order=()
add_module() {
    local name="${1//-/_}" src dst deps dep
    [[ -z "${module_seen[${name}]:-}" ]] || return 0
    module_seen[${name}]=1
    src="$(module_file "${name}")"
    [[ -n "${src}" ]] || die "kernel ${kernel_version} has no module ${name}"
    dst="${image_root}/sctp-perf/modules/${name}.ko"
    decompress_module "${src}" "${dst}"
    deps="$(tr '\0' '\n' <"${dst}" | sed -n 's/^depends=//p' | head -n 1)"
    for dep in ${deps//,/ }; do
        add_module "${dep}"
    done
    module_order+=("${name}")
}

build_initramfs() {
    image_root="${work_dir}/root"
    rm -rf "${image_root}"
    mkdir -p "${image_root}"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,run,tmp,etc,root} \
        "${image_root}/sctp-perf"/{bin,sbin,modules,checks}

    # busybox and its applets, except ip and tc: busybox's versions know
    # neither "ip netns" nor netem, so iproute2's own binaries stand in.
    cp /bin/busybox "${image_root}/bin/busybox"
    local applet
    while read -r applet; do
        case "${applet##*/}" in
            busybox | ip | tc) continue ;;
        esac
        ln -sf /bin/busybox "${image_root}/${applet}"
    done < <(/bin/busybox --list-full)
    local tool path
    for tool in ip tc; do
        path="$(find_tool "${tool}")"
        cp -L "${path}" "${image_root}/sctp-perf/sbin/${tool}"
        copy_libraries "${image_root}" "${path}"
    done

    local program included=()
    for program in "${programs[@]}"; do
        if [[ -x "${bin_dir}/${program}" ]]; then
            cp -L "${bin_dir}/${program}" "${image_root}/sctp-perf/bin/"
            copy_libraries "${image_root}" "${bin_dir}/${program}"
            included+=("${program}")
        fi
    done
    echo "run-vm-checks: programs in the image: ${included[*]:-none}" >&2

    local module
    for module in "${wanted_modules[@]}"; do
        add_module "${module}"
    done
    printf '%s\n' "${module_order[@]}" >"${image_root}/sctp-perf/modules/load-order"

    cp "${guest_src}/init" "${image_root}/init"
    cp "${guest_src}/lib.sh" "${guest_src}/run-checks.sh" "${image_root}/sctp-perf/"
    cp "${checks_dir}"/*.sh "${image_root}/sctp-perf/checks/"
    chmod 0755 "${image_root}/init"

    # The native runner with its guest/ files, laid out as in the source
    # tree, for the check that runs it inside the VM (native_runner).
    local native="${image_root}/sctp-perf/native"
    mkdir -p "${native}/guest/checks"
    cp "${script_dir}/run-native-checks.sh" "${native}/"
    cp "${guest_src}/lib.sh" "${guest_src}/run-checks.sh" "${native}/guest/"
    cp "${guest_src}/checks"/*.sh "${native}/guest/checks/"

    # Extra files (other tools and their libraries, say) go in last, so they
    # may add to any directory of the image.
    local tree
    for tree in "${extra_trees[@]}"; do
        cp -a "${tree}/." "${image_root}/"
    done

    # The --guest-env settings, for init to source before the checks; each
    # value in single quotes, a quote in it written as '\''.
    local setting value
    : >"${image_root}/sctp-perf/guest-env"
    for setting in "${guest_env[@]}"; do
        value="${setting#*=}"
        printf "export %s='%s'\n" "${setting%%=*}" "${value//\'/\'\\\'\'}" \
            >>"${image_root}/sctp-perf/guest-env"
    done

    # glibc resolves "localhost" from /etc/hosts with no nsswitch.conf.
    printf '127.0.0.1 localhost\n::1 localhost\n' >"${image_root}/etc/hosts"
    echo "sctp-perf-vm" >"${image_root}/etc/hostname"
    echo "root:x:0:0:root:/root:/bin/sh" >"${image_root}/etc/passwd"

    # Uncompressed: the kernel unpacks it faster under emulation than it
    # would inflate a gzip stream, and nothing here is short of memory.
    (cd "${image_root}" && find . -print0 | LC_ALL=C sort -z |
        cpio --null --create --format=newc --quiet) >"${work_dir}/initramfs.cpio"
}

# --- the VM run ----------------------------------------------------------

qemu_pid=""
cleanup() {
    if [[ -n "${qemu_pid}" ]] && kill -0 "${qemu_pid}" 2>/dev/null; then
        kill -TERM "${qemu_pid}" 2>/dev/null || true
        sleep 1
        kill -KILL "${qemu_pid}" 2>/dev/null || true
    fi
    if [[ -n "${temp_work_dir:-}" ]]; then
        rm -rf "${temp_work_dir}"
    fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

run_vm() {
    local cmdline="console=ttyS0 panic=-1 quiet loglevel=3 rdinit=/init"
    [[ -z "${checks}" ]] || cmdline+=" sctpperf.checks=${checks}"
    # The guest stops starting checks 20 s before the host would stop it,
    # so a hanging check still leaves a summary and the other results.
    local budget_s=$((vm_timeout_s > 40 ? vm_timeout_s - 20 : vm_timeout_s / 2))
    cmdline+=" sctpperf.budget=${budget_s}"
    serial_log="${work_dir}/serial.log"
    : >"${serial_log}"
    local started=${SECONDS}
    # The guest powers itself off when done; -no-reboot turns a guest panic
    # (init dying) into a QEMU exit too, and timeout bounds anything else.
    # Its stdin is /dev/null so no terminal keystroke reaches the monitor.
    timeout --kill-after=10 "${vm_timeout_s}" \
        "$(find_tool qemu-system-x86_64)" \
        -accel tcg -smp 2 -m 1024 \
        -nographic -nic none -no-reboot \
        -kernel "${kernel_image}" -initrd "${work_dir}/initramfs.cpio" \
        -append "${cmdline}" \
        </dev/null >"${serial_log}" 2>&1 &
    qemu_pid=$!
    local status=0
    wait "${qemu_pid}" || status=$?
    qemu_pid=""
    vm_elapsed_s=$((SECONDS - started))
    if ((status == 124 || status == 137)); then
        echo "run-vm-checks: the VM did not finish within ${vm_timeout_s} s and was stopped" >&2
    elif ((status != 0)); then
        echo "run-vm-checks: qemu exited with status ${status}" >&2
    fi
}

# The guest has no symbolizer, so a sanitizer's stack frames there read
# "(/sctp-perf/bin/PROGRAM+0xOFFSET)"; the same programs are in the bin dir
# here, and addr2line (binutils), where there is one, names each frame's
# function and line.
symbolize_reports() {
    local clean="$1" line program offset
    local addr2line
    addr2line="$(find_tool addr2line)" || return 0
    grep -qE "^${tag}-SANITIZER .*\(/sctp-perf/bin/" "${clean}" || return 0
    echo "run-vm-checks: the sanitizer reports, the programs' frames symbolized:" >&2
    while IFS= read -r line; do
        if [[ "${line}" =~ \(/sctp-perf/bin/([A-Za-z0-9_]+)\+(0x[0-9a-f]+)\) ]]; then
            program="${BASH_REMATCH[1]}"
            offset="${BASH_REMATCH[2]}"
            line+=" in $("${addr2line}" -f -C -p -e "${bin_dir}/${program}" "${offset}" 2>/dev/null)"
        fi
        echo "${line}" >&2
    done < <(grep -E "^${tag}-SANITIZER " "${clean}")
}

# check_guest_reports SERIAL: every JSON file the checks wrote, sent back by
# the guest's init (send_reports), the clients' reports among them checked
# against doc/report.schema.json as the integration tests check theirs:
# --strict, so a key the schema does not name fails. SCTP's paths and
# failover sections and SOCK_SEQPACK's reports are made only in the VM.
check_guest_reports() {
    local serial="$1" sent
    sent="$(awk '$1 == "SCTPPERF-REPORTS" { print $2 }' "${serial}" | tail -n 1)"
    [[ -n "${sent}" ]] || { echo "run-vm-checks: the guest did not say which reports it made" >&2; return 1; }
    ((sent > 0)) || return 0
    rm -rf "${work_dir}/reports"
    unpack_blob reports "${serial}" "${work_dir}/reports" || return 1
    /usr/bin/python3 "${schema_check}" --strict "${report_schema}" "${work_dir}/reports" ||
        { echo "run-vm-checks: a report the checks made does not conform to doc/report.schema.json" >&2; return 1; }
}

# Serial lines end in CR LF and the firmware sprinkles terminal escapes
# (ESC c, ESC [ ... letter) in front of the first guest line; both go before
# the results are judged from the tagged lines only.
report() {
    local clean="${work_dir}/serial.txt"
    tr -d '\r' <"${serial_log}" | sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[A-Za-z]//g' >"${clean}"

    # The guest's own output (checks and their figures) from init onwards,
    # without the kernel's boot messages.
    sed -n "/^${tag}-GUEST-START/,\$p" "${clean}" | hide_blobs

    local summary failed
    summary="$(grep -E "^${tag}-SUMMARY " "${clean}" | tail -n 1 || true)"
    failed="$(grep -cE "^${tag}-CHECK [a-z0-9_]+ FAIL" "${clean}" || true)"
    local passed skipped sanitizer_lines
    passed="$(grep -cE "^${tag}-CHECK [a-z0-9_]+ PASS" "${clean}" || true)"
    skipped="$(grep -cE "^${tag}-CHECK [a-z0-9_]+ SKIP" "${clean}" || true)"
    # The guest fails a check after which a sanitizer report appeared; a
    # report line counts here too, so that none can pass unseen.
    sanitizer_lines="$(grep -cE "^${tag}-SANITIZER " "${clean}" || true)"

    local ok=1
    if [[ -z "${summary}" ]]; then
        echo "run-vm-checks: the guest printed no summary line (crash, hang or timeout)" >&2
        ok=0
    elif [[ "${summary}" == *" total=0" ]]; then
        echo "run-vm-checks: no check ran (is --checks naming real checks?)" >&2
        ok=0
    elif [[ "${summary}" != *" failed=0 "* ]] || ((failed > 0)); then
        ok=0
    fi
    check_guest_reports "${clean}" || ok=0
    if ((sanitizer_lines > 0)); then
        echo "run-vm-checks: a sanitizer reported (${sanitizer_lines} lines tagged ${tag}-SANITIZER)" >&2
        symbolize_reports "${clean}"
        ok=0
    fi
    echo "run-vm-checks: VM run took ${vm_elapsed_s} s (kernel ${kernel_version}, TCG)"
    echo "sctp-vm: ${passed} passed, ${failed} failed, ${skipped} skipped"
    if ((ok == 0)); then
        echo "run-vm-checks: FAILED; the whole serial console output follows" >&2
        echo "----- serial console -----" >&2
        hide_blobs <"${clean}" >&2
        echo "----- end of serial console -----" >&2
        return 1
    fi
    return 0
}

main() {
    ensure_host_tools
    ensure_kernel
    use_work_dir sctp-perf-vm
    build_initramfs
    run_vm
    report
}

main
