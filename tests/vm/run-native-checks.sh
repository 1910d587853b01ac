#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the real-kernel SCTP checks natively: on this machine's own kernel,
# without a VM, where that kernel has SCTP.
#
# The checks are the VM's (guest/checks), run by the same loop
# (guest/run-checks.sh), so they report the same PASS/FAIL/SKIP lines and
# summary. They need root, network namespaces, veth and netem: each is
# probed first, and whatever is missing makes the whole run SKIP (exit 77)
# with a sentence saying what.
#
# Everything runs inside namespaces made for the run (unshare):
#   - a network namespace, so the servers the checks start and their
#     traffic never meet the host's interfaces;
#   - a PID namespace whose PID 1 is the check loop, so clearing up after a
#     check that hung reaches no process of the host, and stopping the run
#     stops every process in it;
#   - a mount namespace with a /run/netns of its own, so the namespaces the
#     checks create and name (c, s) can neither clash with the host's nor
#     remove them, and go away with the run.
#
# POSIX sh, so that it also runs under busybox: the VM runs it (check
# native_runner) to prove it works, since a host without SCTP cannot.
#
# Exit status: 0 every check passed or was skipped, 1 a check failed or the
# run did not finish, 2 usage error, 77 this machine cannot run the checks.

set -u

script_dir="$(cd "$(dirname "$0")" && pwd)"
guest_dir="${script_dir}/guest"

usage() {
    cat <<EOF
Usage: $(basename "$0") --bin-dir DIR [options]

Runs the sctp-perf SCTP checks (the VM's) on this machine's own kernel, in
network, PID and mount namespaces made for the run. Needs root and a kernel
with SCTP, network namespaces, veth and netem; exits 77 naming what is
missing otherwise.

Options:
  --bin-dir DIR       directory holding SOCK_STREAM_clt, SOCK_STREAM_srv, ...
                      and sctp_garbage_peer (required)
  --checks LIST       comma-separated check names to run (default: all)
  --timeout SECONDS   bound on the whole run (default: 290)
  --work-dir DIR      keep each check's logs and reports here (default: a
                      temporary directory, removed afterwards)
  -h, --help          show this help
EOF
}

say() {
    echo "run-native-checks: $*"
}

bin_dir=""
checks=""
timeout_s=290
work_dir=""
while [ "$#" -gt 0 ]; do
    case "$1" in
        --bin-dir | --checks | --timeout | --work-dir)
            [ "$#" -ge 2 ] || { usage >&2; exit 2; }
            case "$1" in
                --bin-dir) bin_dir="$2" ;;
                --checks) checks="$2" ;;
                --timeout) timeout_s="$2" ;;
                --work-dir) work_dir="$2" ;;
            esac
            shift 2
            ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done

[ -n "${bin_dir}" ] || { usage >&2; exit 2; }
[ -d "${bin_dir}" ] || { say "bin dir ${bin_dir} does not exist" >&2; exit 2; }
case "${timeout_s}" in
    "" | *[!0-9]*) say "--timeout takes whole seconds" >&2; exit 2 ;;
esac
case "${checks}" in
    *[!a-z0-9_,]*) say "--checks takes names like stream_sctp_all_sizes,sctp_available" >&2; exit 2 ;;
esac
bin_dir="$(cd "${bin_dir}" && pwd)"

skip() {
    say "SKIP: $*"
    exit 77
}

# --- what this machine offers --------------------------------------------

[ -x "${bin_dir}/sctp_garbage_peer" ] ||
    { say "${bin_dir} has no sctp_garbage_peer; build the project first" >&2; exit 1; }
# Opening one SCTP socket is the whole question (and loads the sctp module
# where the kernel has it as one).
if ! probe="$("${bin_dir}/sctp_garbage_peer" --probe 2>&1)"; then
    skip "the host kernel has no SCTP (${probe}; 'modprobe sctp' loads it where it is a module); the VM checks cover SCTP instead (ctest -L vm)"
fi
[ "$(id -u)" -eq 0 ] || skip "needs root to make network namespaces, veth pairs and netem qdiscs"

# iproute2's ip and tc by full path: /usr/sbin may not be in PATH, and
# busybox's applets of the same names know neither netns nor netem.
find_tool() {
    for dir in $(echo "${PATH}" | tr ':' ' ') /usr/sbin /sbin /usr/bin /bin; do
        if [ -x "${dir}/$1" ]; then
            echo "${dir}/$1"
            return 0
        fi
    done
    return 1
}
ip_tool="$(find_tool ip)" || skip "no ip command (install iproute2)"
tc_tool="$(find_tool tc)" || skip "no tc command (install iproute2)"
for tool in unshare mount timeout; do
    command -v "${tool}" >/dev/null 2>&1 || skip "no ${tool} command"
done

# Short options, which util-linux's unshare and busybox's share (-m mount,
# -n network, -p PID namespace, -f fork so the command is its PID 1).
# util-linux's can also tie the run to its own life; busybox's cannot,
# which stop_sandbox below makes up for.
unshare_options="-m -n -p -f --mount-proc --propagation private"
if unshare --help 2>&1 | grep -q -e '--kill-child'; then
    unshare_options="--kill-child ${unshare_options}"
fi
# Run first in the new namespaces: a private /run/netns (on top of a
# private /run where the host has none), loopback up, then "$@".
# shellcheck disable=SC2016 # expanded by the sh that runs it, not here
sandbox_setup='
set -e
if [ -d /run/netns ]; then
    mount -t tmpfs -o mode=0755 sctpperf-netns /run/netns
else
    mount -t tmpfs -o mode=0755 sctpperf-run /run
    mkdir /run/netns
fi
"${SCTPPERF_IP}" link set lo up
exec "$@"
'
# A network namespace pair joined by veth, with netem on one end: what the
# checks build, made once here so a missing piece is named before any runs.
# shellcheck disable=SC2016 # expanded by the sh that runs it, not here
sandbox_probe='
why() { echo "$*"; exit 77; }
err="$("${SCTPPERF_IP}" netns add sctpperf-a 2>&1)" ||
    why "cannot make network namespaces (ip netns add: ${err})"
"${SCTPPERF_IP}" netns add sctpperf-b 2>/dev/null || why "cannot make a second network namespace"
err="$("${SCTPPERF_IP}" link add sctpperf-va netns sctpperf-a type veth peer name sctpperf-vb \
    netns sctpperf-b 2>&1)" || why "veth unavailable (ip link add type veth: ${err})"
err="$("${SCTPPERF_IP}" netns exec sctpperf-a "${SCTPPERF_TC}" qdisc add dev sctpperf-va root \
    netem delay 1ms 2>&1)" || why "netem qdisc unavailable (tc qdisc add netem: ${err})"
"${SCTPPERF_IP}" netns delete sctpperf-a
"${SCTPPERF_IP}" netns delete sctpperf-b
'
export SCTPPERF_IP="${ip_tool}" SCTPPERF_TC="${tc_tool}"
# shellcheck disable=SC2086 # ${unshare_options} is a list of options
probe="$(timeout -s KILL 30 unshare ${unshare_options} \
    sh -c "${sandbox_setup}" sctpperf-sandbox sh -c "${sandbox_probe}" 2>&1)"
case $? in
    0) ;;
    77) skip "${probe}" ;;
    *) skip "cannot make network, PID and mount namespaces (unshare: ${probe})" ;;
esac

# --- the run -------------------------------------------------------------

sandbox_pid=""
temp_work_dir=""
# PID 1 of the run's PID namespace is unshare's child; when it goes, the
# kernel ends every other process of the run.
stop_sandbox() {
    [ -n "${sandbox_pid}" ] || return 0
    # shellcheck disable=SC2013 # one line of space-separated PIDs
    for child in $(cat "/proc/${sandbox_pid}/task/${sandbox_pid}/children" 2>/dev/null); do
        kill -KILL "${child}" 2>/dev/null
    done
    kill -KILL "${sandbox_pid}" 2>/dev/null
    wait "${sandbox_pid}" 2>/dev/null
    sandbox_pid=""
}
# shellcheck disable=SC2317 # called by the trap
finish() {
    stop_sandbox
    [ -z "${temp_work_dir}" ] || rm -rf "${temp_work_dir}"
}
trap finish EXIT
trap 'exit 1' INT TERM

if [ -z "${work_dir}" ]; then
    temp_work_dir="$(mktemp -d "${TMPDIR:-/tmp}/sctp-perf-native.XXXXXX")"
    work_dir="${temp_work_dir}"
else
    mkdir -p "${work_dir}"
    work_dir="$(cd "${work_dir}" && pwd)"
    rm -rf "${work_dir}"/check-* "${work_dir}/run.log"
fi
log_file="${work_dir}/run.log"
: >"${log_file}"

say "kernel $(uname -r), programs from ${bin_dir}, ip ${ip_tool}, tc ${tc_tool}"
# As in the VM, the loop stops starting checks 20 s before the bound, so a
# hanging check still leaves a summary and the other results.
if [ "${timeout_s}" -gt 40 ]; then budget_s=$((timeout_s - 20)); else budget_s=$((timeout_s / 2)); fi
SCTPPERF_DEADLINE_S="$(awk -v b="${budget_s}" '{ printf "%d", $1 + b }' /proc/uptime)"
export SCTPPERF_DEADLINE_S SCTPPERF_WANTED="${checks}" SCTPPERF_WORK_ROOT="${work_dir}"
export SCTPPERF_CHECKS_DIR="${guest_dir}/checks" SCTPPERF_LIB="${guest_dir}/lib.sh"
export SCTPPERF_BIN="${bin_dir}" SCTPPERF_MODULES_OK=1 SCTPPERF_NATIVE=1

started="$(date +%s)"
# Not through a function: "f &" would give the PID of a subshell.
# shellcheck disable=SC2086
unshare ${unshare_options} sh -c "${sandbox_setup}" sctpperf-sandbox \
    sh "${guest_dir}/run-checks.sh" </dev/null >"${log_file}" 2>&1 &
sandbox_pid=$!

# Passes the run's output on as it comes, and stops the run at its bound.
shown=0
show_new_lines() {
    lines=$(($(wc -l <"${log_file}")))
    [ "${lines}" -gt "${shown}" ] && sed -n "$((shown + 1)),${lines}p" "${log_file}"
    shown="${lines}"
}
while kill -0 "${sandbox_pid}" 2>/dev/null; do
    show_new_lines
    if [ $(($(date +%s) - started)) -ge "${timeout_s}" ]; then
        say "the run did not finish within ${timeout_s} s and was stopped" >&2
        stop_sandbox
        break
    fi
    sleep 1
done
[ -z "${sandbox_pid}" ] || wait "${sandbox_pid}" 2>/dev/null
sandbox_pid=""
show_new_lines

summary="$(grep '^SCTPPERF-SUMMARY ' "${log_file}" | tail -n 1)"
passed="$(grep -c '^SCTPPERF-CHECK [a-z0-9_]* PASS' "${log_file}")"
failed="$(grep -c '^SCTPPERF-CHECK [a-z0-9_]* FAIL' "${log_file}")"
skipped="$(grep -c '^SCTPPERF-CHECK [a-z0-9_]* SKIP' "${log_file}")"
say "run took $(($(date +%s) - started)) s (kernel $(uname -r), native)"
echo "sctp-native: ${passed} passed, ${failed} failed, ${skipped} skipped"
if [ -z "${summary}" ]; then
    say "FAILED: the run printed no summary line (crash, hang or timeout)" >&2
    exit 1
fi
case "${summary}" in
    *" total=0") say "FAILED: no check ran (is --checks naming real checks?)" >&2; exit 1 ;;
esac
if [ "${failed}" -gt 0 ]; then
    [ -n "${temp_work_dir}" ] && say "keep the checks' logs with --work-dir DIR" >&2
    exit 1
fi
exit 0
