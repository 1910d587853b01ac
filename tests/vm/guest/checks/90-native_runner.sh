# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 180
# The native runner (run-native-checks.sh) run in this VM as it would run on
# a host whose kernel has SCTP, which the build host may not have: its
# probes find SCTP, root, namespaces, veth and netem; it runs two checks in
# network, PID and mount namespaces of its own, with the usual reporting;
# and it leaves no process and no namespace behind. sctp_available runs in
# the run's own network namespace; multihoming_failover adds namespaces,
# veth pairs and a link cut inside it.
# Skipped when the native runner itself is running the checks.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

runner=/sctp-perf/native/run-native-checks.sh
wanted="sctp_available,multihoming_failover"
[ -z "${SCTPPERF_NATIVE:-}" ] || skip "the native runner is running the checks already"
need_modules
[ -f "${runner}" ] || fail "${runner} is not in the image"
require_program sctp_garbage_peer
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt

# Processes of the programs under test running now, by name.
programs_running() {
    cat /proc/[0-9]*/comm 2>/dev/null | grep -c -e '^SOCK_' -e '^sctp_garbage'
}

out="${CHECK_WORK}/native.out"
status=0
timeout -s KILL 170 sh "${runner}" --bin-dir "${SCTPPERF_BIN}" --checks "${wanted}" \
    --timeout 160 --work-dir "${CHECK_WORK}/native" >"${out}" 2>&1 || status=$?
sed 's/^/    native: /' "${out}"
[ "${status}" -eq 0 ] || fail "run-native-checks.sh exited with status ${status}"
summary="$(grep '^SCTPPERF-SUMMARY ' "${out}")"
[ "${summary}" = "SCTPPERF-SUMMARY passed=2 failed=0 skipped=0 total=2" ] ||
    fail "the native run's summary is '${summary}', expected 2 passed"
grep -q '^sctp-native: 2 passed, 0 failed, 0 skipped$' "${out}" ||
    fail "the native runner's own count does not say 2 passed"

# Nothing left behind: the run's namespaces were in its private /run/netns,
# its processes in its PID namespace.
left="$(programs_running)"
[ "${left}" -eq 0 ] || fail "${left} processes of the programs still run after the native run"
namespaces="$(ip netns list | tr '\n' ' ')"
[ -z "${namespaces}" ] || fail "network namespaces visible after the native run: ${namespaces}"
log "after the run: no program running, no network namespace listed"
pass "native runner: ${wanted} passed in its own namespaces; nothing left behind"
