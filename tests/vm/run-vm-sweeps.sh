#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Produces SCTP sample sweeps with run_spectrum.pl inside the test VM, the
# head-of-line blocking experiment of the hol_blocking check, the TCP
# against SCTP comparison of the manual's "Comparing configurations", and
# the failover experiment of its "When a path fails".
#
# Why a VM: the host may have no SCTP in its kernel. run-vm-checks.sh already
# boots Debian's cloud kernel under QEMU with the programs and the sctp
# module; this script gives that VM perl (with the modules run_spectrum.pl
# loads), run_spectrum.pl itself, the hol_blocking check and gnuplot with a
# font, runs the sweeps as its "checks" (guest/sweeps/checks), and unpacks
# the output directories the guest sends back over the serial console into
# --output-dir.
#
# This makes sample results, not a test: it is not registered in CTest.
# Its timings come from an emulated CPU (TCG) and show the shape of the
# curves only, never the speed of real hardware.
#
# Exit status: 0 every sweep ran and its directory is in --output-dir;
# 1 a sweep failed, the VM did not finish, or a copy came back damaged;
# 2 usage.

set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly script_dir
readonly repo_root="${script_dir}/../.."
readonly sweeps_src="${script_dir}/guest/sweeps"
readonly spectrum_script="${repo_root}/run_spectrum.pl"
# shellcheck source-path=SCRIPTDIR source=host-lib.sh
source "${script_dir}/host-lib.sh"

# sweep name -> the guest check that makes it and the programs it needs.
declare -A sweep_check=([stream]=sctp_stream_sweep [seqpack]=sctp_seqpack_sweep
                        [hol]=sctp_hol_blocking [compare]=tcp_sctp_compare
                        [failover]=sctp_failover_grid)
declare -A sweep_dir=([stream]=sctp-stream-vm [seqpack]=sctp-seqpack-vm [hol]=sctp-hol-blocking-vm
                      [compare]=tcp-vs-sctp-vm [failover]=sctp-failover-grid-vm)
# sctp-perf-compare runs on the host, on the reports the compare sweep brings back.
declare -A sweep_programs=([stream]="SOCK_STREAM_clt SOCK_STREAM_srv"
                           [seqpack]="SOCK_SEQPACK_clt SOCK_SEQPACK_srv"
                           [hol]="SOCK_STREAM_clt SOCK_STREAM_srv"
                           [compare]="SOCK_STREAM_clt SOCK_STREAM_srv sctp-perf-compare"
                           [failover]="SOCK_SEQPACK_clt SOCK_SEQPACK_srv")
# The files a sweep writes into its directory, which a new run replaces.
declare -A sweep_files=([stream]="*.spectrum spectrum.csv spectrum.json spectrum.gp spectrum.png"
                        [seqpack]="*.spectrum spectrum.csv spectrum.json spectrum.gp spectrum.png"
                        [hol]="table.csv setup.csv *.json *-latency.csv hol.gp hol-ccdf.png hol-shares.png"
                        [compare]="tcp/*.json tcp/*.txt sctp/*.json sctp/*.txt compare.txt compare.png"
                        [failover]="table.csv setup.csv reports/*.json reports/*.err failover.gp failover-detection.png")
# The head-of-line blocking experiment is the hol_blocking check itself.
hol_check="$(compgen -G "${script_dir}/guest/checks/*-hol_blocking.sh" | head -n 1 || true)"
readonly hol_check

usage() {
    cat <<EOF
Usage: $(basename "$0") --bin-dir DIR --output-dir DIR [options]

Boots the test VM (QEMU TCG, Debian's cloud kernel, see run-vm-checks.sh) and
runs, inside it, pinned to vCPU 0,

  taskset -c 0 run_spectrum.pl --start-server --service SERVICE --protocol sctp \\
      --min-power 0 --max-power 16 --iterations N --output-dir /tmp/sweeps/NAME

for each sweep, then copies each NAME directory (the .spectrum file,
spectrum.csv, spectrum.json, spectrum.gp and spectrum.png) into --output-dir:
sctp-stream-vm for the stream sweep, sctp-seqpack-vm for the seqpack one.

The hol sweep (--sweeps hol) runs the hol_blocking check's head-of-line
blocking experiment (guest/checks/65-hol_blocking.sh: TCP, SCTP with 1 and
16 streams, unordered and PR-SCTP over 10 ms and 2 % loss each way, each
with a no-loss twin), with --hol-count messages per run and its assertions,
and copies into sctp-hol-blocking-vm: table.csv, setup.csv, every run's
JSON report and latency histogram (NAME.json, NAME-latency.csv), hol.gp and
the plots hol-ccdf.png and hol-shares.png that gnuplot drew from them.

The compare sweep (--sweeps compare) starts SOCK_STREAM_srv -t tcp and
-t sctp, both --cpu 0, and runs, twice in turn,

  SOCK_STREAM_clt -t tcp|sctp -s 7 -c 2000 --repeat 10 --cpu 0 --json-file R.json > R.txt

(guest/sweeps/checks/40-tcp_sctp_compare.sh), copies the reports into
tcp-vs-sctp-vm/tcp and tcp-vs-sctp-vm/sctp, and then runs on the host,
in tcp-vs-sctp-vm,

  sctp-perf-compare --a tcp --b sctp --allow-different --plot compare.png > compare.txt

with the sctp-perf-compare of --bin-dir.

The failover sweep (--sweeps failover) runs the failover experiment
(guest/sweeps/checks/50-sctp_failover_grid.sh): for each point of a grid
of RTO min/max, path-max-retrans, the potentially-failed threshold and the
heartbeat interval, SOCK_SEQPACK at 1000 messages/s for 8 s over two
paths, path 1 made silent (netem loss 100 %) at 2 s and restored at 6 s,
both ends with the point's settings, and copies into sctp-failover-grid-vm:
table.csv (a row a point: predicted and measured detection, the longest
reply gap, the accounts), setup.csv, every point's JSON report (reports/),
failover.gp and the plot failover-detection.png. The whole grid (72
points) takes about 25 minutes: give --vm-timeout 3600.

Other files there (a README.md) are kept; the sweep's own files are replaced.

Options:
  --bin-dir DIR        directory holding SOCK_STREAM_clt/_srv and
                       SOCK_SEQPACK_clt/_srv (required)
  --output-dir DIR     where the sweep directories go (required)
  --iterations N       timed iterations per payload size (default: 5000)
  --sweeps LIST        comma-separated: stream, seqpack, hol, compare,
                       failover (default: stream,seqpack)
  --hol-count N        messages per run of the hol sweep (default: 10000)
  --failover-rto LIST  the failover grid's RTO settings, MIN/MAX in ms or
                       "default" (the kernel's), comma-separated
                       (default: 20/200,50/200,200/1000,default)
  --failover-pmr LIST  its path-max-retrans values (default: 1,2,5)
  --failover-pf LIST   its potentially-failed thresholds, "off" for
                       net.sctp.pf_enable 0 (default: off,0,1)
  --failover-hb LIST   its heartbeat intervals in ms (default: 100,1000)
  --min-power N        smallest payload 2^N (default: 0)
  --max-power N        largest payload 2^N (default: 16)
  --vm-timeout SECONDS bound on the whole VM run (default: 900)
  --cache-dir DIR      kernel cache, as for run-vm-checks.sh
  --kernel-package PKG kernel to boot, as for run-vm-checks.sh
  --work-dir DIR       keep the image, the serial log and the unpacked copies
                       here (default: a temporary directory, removed afterwards)
  --no-install         never call apt-get; fail if a host tool is missing
  -h, --help           show this help
EOF
}

bin_dir=""
output_dir=""
iterations=5000
hol_count=10000
failover_rtos="20/200,50/200,200/1000,default"
failover_pmrs="1,2,5"
failover_pfs="off,0,1"
failover_hbs="100,1000"
sweeps="stream,seqpack"
min_power=0
max_power=16
vm_timeout_s=900
work_dir=""
checks_args=()
allow_install=1

while (($#)); do
    case "$1" in
        --bin-dir) bin_dir="${2:?--bin-dir needs a directory}"; shift 2 ;;
        --output-dir) output_dir="${2:?--output-dir needs a directory}"; shift 2 ;;
        --iterations) iterations="${2:?--iterations needs a number}"; shift 2 ;;
        --hol-count) hol_count="${2:?--hol-count needs a number}"; shift 2 ;;
        --failover-rto) failover_rtos="${2:?--failover-rto needs a list}"; shift 2 ;;
        --failover-pmr) failover_pmrs="${2:?--failover-pmr needs a list}"; shift 2 ;;
        --failover-pf) failover_pfs="${2:?--failover-pf needs a list}"; shift 2 ;;
        --failover-hb) failover_hbs="${2:?--failover-hb needs a list}"; shift 2 ;;
        --sweeps) sweeps="${2:?--sweeps needs a list}"; shift 2 ;;
        --min-power) min_power="${2:?--min-power needs a number}"; shift 2 ;;
        --max-power) max_power="${2:?--max-power needs a number}"; shift 2 ;;
        --vm-timeout) vm_timeout_s="${2:?--vm-timeout needs seconds}"; shift 2 ;;
        --cache-dir | --kernel-package)
            checks_args+=("$1" "${2:?$1 needs a value}"); shift 2 ;;
        --work-dir) work_dir="${2:?--work-dir needs a directory}"; shift 2 ;;
        --no-install) allow_install=0; checks_args+=(--no-install); shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done

usage_error() {
    echo "run-vm-sweeps: $*" >&2
    echo "Try '$(basename "$0") --help' for the options." >&2
    exit 2
}

[[ -n "${bin_dir}" && -n "${output_dir}" ]] || { usage >&2; exit 2; }
[[ -d "${bin_dir}" ]] || usage_error "bin dir ${bin_dir} does not exist"
[[ "${iterations}" =~ ^[1-9][0-9]*$ ]] || usage_error "--iterations takes a positive whole number"
[[ "${hol_count}" =~ ^[1-9][0-9]*$ ]] || usage_error "--hol-count takes a positive whole number"
[[ "${vm_timeout_s}" =~ ^[1-9][0-9]*$ ]] || usage_error "--vm-timeout takes whole seconds"
[[ "${failover_rtos}" =~ ^(([1-9][0-9]*/[1-9][0-9]*|default),)*([1-9][0-9]*/[1-9][0-9]*|default)$ ]] ||
    usage_error "--failover-rto takes MIN/MAX (ms) or default, comma-separated"
[[ "${failover_pmrs}" =~ ^([1-9][0-9]*,)*[1-9][0-9]*$ ]] ||
    usage_error "--failover-pmr takes positive whole numbers, comma-separated"
[[ "${failover_pfs}" =~ ^(([0-9]+|off),)*([0-9]+|off)$ ]] ||
    usage_error "--failover-pf takes whole numbers or off, comma-separated"
[[ "${failover_hbs}" =~ ^([1-9][0-9]*,)*[1-9][0-9]*$ ]] ||
    usage_error "--failover-hb takes positive whole milliseconds, comma-separated"
if ! [[ "${min_power}" =~ ^[0-9]+$ && "${max_power}" =~ ^[0-9]+$ ]] ||
    ((min_power > max_power || max_power > 16)); then
    usage_error "--min-power and --max-power take 0..16, min not above max"
fi
bin_dir="$(cd "${bin_dir}" && pwd)"

selected=()
IFS=, read -r -a requested <<<"${sweeps}"
for sweep in "${requested[@]}"; do
    [[ -n "${sweep_check[${sweep}]:-}" ]] ||
        usage_error "--sweeps takes stream, seqpack, hol, compare and/or failover, not '${sweep}'"
    for program in ${sweep_programs[${sweep}]}; do
        [[ -x "${bin_dir}/${program}" ]] || die "${program} is not in ${bin_dir}; build the project first"
    done
    if [[ "${sweep}" == hol && -z "${hol_check}" ]]; then
        die "guest/checks has no hol_blocking check"
    fi
    selected+=("${sweep}")
done
((${#selected[@]})) || usage_error "--sweeps names no sweep"

# --- host tools ----------------------------------------------------------

# The guest gets the host's own perl and gnuplot, so the host needs them;
# gnuplot-nox rather than whatever /usr/bin/gnuplot points at, because the
# X11 and Qt builds would drag their toolkits into the image.
ensure_host_tools() {
    local missing=()
    command -v perl >/dev/null || missing+=(perl)
    [[ -x /usr/bin/gnuplot-nox ]] || missing+=(gnuplot-nox)
    command -v fc-match >/dev/null || missing+=(fontconfig)
    command -v sha256sum >/dev/null && command -v base64 >/dev/null || missing+=(coreutils)
    ((${#missing[@]})) || return 0
    install_host_packages "${missing[@]}"
}

# --- the guest's extra files ---------------------------------------------

# perl_files PERL SCRIPT: the files of the Perl modules (and their XS
# libraries) that SCRIPT, run_spectrum.pl, uses under PERL: those it loads at
# compile time, found by loading it with require (it is a modulino, so that
# runs nothing), plus the Math::BigInt/BigFloat family that JSON::PP loads
# only when allow_bignum meets its first number. Each is copied to the path
# perl found it at, which is on the same perl's built-in @INC in the guest.
# The script's own modules (SctpPerf::*) are left out: they go beside the
# script, where it looks for them (build_tree). A whole sweep run on the host
# under strace opened exactly these files and no other Perl file.
perl_files() {
    # shellcheck disable=SC2016 # the $ signs are Perl's
    "$1" -e '
        my $script = shift;
        require $script;
        JSON::PP->new->allow_bignum->decode("[0.5, 12345678901234567890]");
        print "$INC{$_}\n" for grep { $INC{$_} ne $script && !m{\ASctpPerf/} } keys %INC;
        print "$_\n" for @DynaLoader::dl_shared_objects;
    ' "$2"
}

build_tree() {
    tree="${work_dir}/tree"
    rm -rf "${tree}"
    mkdir -p "${tree}"

    # At /usr/bin/perl, where run_spectrum.pl's "#!/usr/bin/env perl" finds it.
    local perl_bin
    perl_bin="$(command -v perl)"
    copy_into_root "${tree}" "${perl_bin}" /usr/bin/perl
    copy_libraries "${tree}" "${perl_bin}"
    local file count=0
    while read -r file; do
        copy_into_root "${tree}" "${file}"
        count=$((count + 1))
    done < <(perl_files "${perl_bin}" "$(cd "$(dirname "${spectrum_script}")" && pwd)/run_spectrum.pl")
    ((count > 10)) || die "could not list the Perl modules run_spectrum.pl loads"

    # Beside the programs, so its default --bin-dir search finds them, with
    # its modules in lib/ beside it, as in the source tree.
    copy_into_root "${tree}" "${spectrum_script}" /sctp-perf/bin/run_spectrum.pl
    chmod 0755 "${tree}/sctp-perf/bin/run_spectrum.pl"
    cp -R "${repo_root}/lib" "${tree}/sctp-perf/bin/lib"

    copy_into_root "${tree}" /usr/bin/gnuplot-nox /usr/bin/gnuplot
    copy_libraries "${tree}" /usr/bin/gnuplot-nox
    for file in /usr/share/gnuplot/gnuplot/*/gnuplotrc; do
        [[ -f "${file}" ]] && copy_into_root "${tree}" "${file}"
    done
    # The pngcairo terminal draws its text through pango and fontconfig: the
    # host's fontconfig configuration and the one font its default "Sans"
    # resolves to are enough (fontconfig builds its cache in the guest).
    local font
    font="$(fc-match -f '%{file}' sans)"
    [[ -f "${font}" ]] || die "fontconfig names no font file for 'sans' (install fonts-dejavu-core)"
    copy_into_root "${tree}" "${font}"
    mkdir -p "${tree}/etc" "${tree}/var/cache/fontconfig"
    cp -rL /etc/fonts "${tree}/etc/"

    cp "${sweeps_src}/sweep-lib.sh" "${tree}/sctp-perf/sweep-lib.sh"
    # The hol sweep sources the check itself (30-sctp_hol_blocking.sh).
    [[ -z "${hol_check}" ]] || cp "${hol_check}" "${tree}/sctp-perf/hol_blocking.sh"
    printf 'SWEEP_ITERATIONS=%s\nSWEEP_MIN_POWER=%s\nSWEEP_MAX_POWER=%s\nSWEEP_HOL_COUNT=%s\n' \
        "${iterations}" "${min_power}" "${max_power}" "${hol_count}" >"${tree}/sctp-perf/sweeps.conf"
    # The failover grid, as space-separated lists for the guest's loops.
    printf 'SWEEP_FAILOVER_RTOS="%s"\nSWEEP_FAILOVER_PMRS="%s"\nSWEEP_FAILOVER_PFS="%s"\nSWEEP_FAILOVER_HBS="%s"\n' \
        "${failover_rtos//,/ }" "${failover_pmrs//,/ }" "${failover_pfs//,/ }" "${failover_hbs//,/ }" \
        >>"${tree}/sctp-perf/sweeps.conf"
}

# --- bringing the results back -------------------------------------------

# unpack_sweep SWEEP: decodes the block of the sweep's directory from the
# serial log, checks its SHA-256 and puts the files into --output-dir.
unpack_sweep() {
    local name="${sweep_dir[$1]}" generated="${sweep_files[$1]}"
    local serial="${work_dir}/vm/serial.txt" staging="${work_dir}/unpacked"
    [[ -f "${serial}" ]] || { echo "run-vm-sweeps: no serial log, so no ${name} directory" >&2; return 1; }
    rm -rf "${staging:?}/${name}"
    unpack_blob "${name}" "${serial}" "${staging}" || return 1

    local dest="${output_dir}/${name}" file pattern
    mkdir -p "${dest}"
    # The directory holds one sweep: what an earlier run of the script wrote
    # goes, anything else (the README) stays.
    for pattern in ${generated}; do
        # shellcheck disable=SC2086 # the pattern is a glob on purpose
        rm -f "${dest}"/${pattern}
    done
    # -R: the compare sweep keeps each side's reports in a directory.
    for file in "${staging}/${name}"/*; do
        cp -R "${file}" "${dest}/"
    done
    echo "run-vm-sweeps: ${dest}:" "${staging}/${name}"/* | sed "s|${staging}/${name}/||g"
}

# compare_sides: sctp-perf-compare on the reports the compare sweep brought
# back, as the manual shows it, from inside their directory so that the
# table and the plot name the sides tcp and sctp.
compare_sides() {
    local dest="${output_dir}/${sweep_dir[compare]}"
    (cd "${dest}" && "${bin_dir}/sctp-perf-compare" --a tcp --b sctp --allow-different \
        --plot compare.png >compare.txt) ||
        { echo "run-vm-sweeps: sctp-perf-compare failed on ${dest}" >&2; return 1; }
    echo "run-vm-sweeps: ${dest}: compare.txt compare.png"
    cat "${dest}/compare.txt"
}

# --- main ----------------------------------------------------------------

child_pid=""
cleanup() {
    # run-vm-checks.sh stops QEMU when it gets TERM (its own EXIT trap).
    if [[ -n "${child_pid}" ]] && kill -0 "${child_pid}" 2>/dev/null; then
        kill -TERM "${child_pid}" 2>/dev/null || true
        wait "${child_pid}" 2>/dev/null || true
    fi
    if [[ -n "${temp_work_dir:-}" ]]; then
        rm -rf "${temp_work_dir}"
    fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

main() {
    ensure_host_tools
    use_work_dir sctp-perf-sweeps
    mkdir -p "${output_dir}"
    output_dir="$(cd "${output_dir}" && pwd)"
    build_tree

    local checks="" sweep
    for sweep in "${selected[@]}"; do
        checks+="${checks:+,}${sweep_check[${sweep}]}"
    done
    echo "run-vm-sweeps: host $(grep -m 1 '^model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs," \
        "kernel $(uname -r); $("$(command -v qemu-system-x86_64 || echo qemu-system-x86_64)" --version 2>/dev/null | head -n 1)"
    # The settings that apply to the sweeps chosen, so the log states no
    # figure that played no part (the comparison's guest prints its commands).
    local settings=""
    [[ ",${checks}," != *_sweep,* ]] ||
        settings+=", ${iterations} iterations per size, payload 2^${min_power}..2^${max_power}"
    [[ ",${checks}," != *,sctp_hol_blocking,* ]] || settings+=", ${hol_count} messages per run of the hol sweep"
    [[ ",${checks}," != *,sctp_failover_grid,* ]] ||
        settings+=", failover grid: RTO ${failover_rtos}; path-max-retrans ${failover_pmrs}; pf ${failover_pfs}; heartbeat ${failover_hbs} ms"
    echo "run-vm-sweeps: sweeps ${checks}${settings}"

    local started=${SECONDS} status=0 filter_fd filter_pid
    # run-vm-checks.sh runs in the background so a TERM to this script can
    # be passed on to it; its output goes through hide_blobs.
    exec {filter_fd}> >(hide_blobs)
    filter_pid=$!
    bash "${script_dir}/run-vm-checks.sh" --bin-dir "${bin_dir}" \
        --checks-dir "${sweeps_src}/checks" --extra-tree "${tree}" --checks "${checks}" \
        --vm-timeout "${vm_timeout_s}" --work-dir "${work_dir}/vm" "${checks_args[@]}" \
        >&"${filter_fd}" 2>&1 &
    child_pid=$!
    wait "${child_pid}" || status=$?
    child_pid=""
    exec {filter_fd}>&-
    wait "${filter_pid}" 2>/dev/null || true
    echo "run-vm-sweeps: preparing and running the VM took $((SECONDS - started)) s"

    local failed=0
    for sweep in "${selected[@]}"; do
        if unpack_sweep "${sweep}"; then
            [[ "${sweep}" != compare ]] || compare_sides || failed=1
        else
            failed=1
        fi
    done
    ((status == 0 && failed == 0)) || die "not every sweep came back; see the messages above"
}

main
