# SPDX-License-Identifier: Apache-2.0
# The check loop, shared by the VM's init (which sources it as PID 1 of the
# VM) and by run-native-checks.sh (which runs it as PID 1 of a PID namespace
# of its own). Runs every check script in name order, each under its own time
# limit, and prints one tagged line per check and a summary:
#   SCTPPERF-BEGIN <check> (limit <seconds> s)
#   SCTPPERF-SANITIZER <check> <line of a sanitizer's report>
#   SCTPPERF-CHECK <check> PASS|FAIL|SKIP <reason> [<seconds> s]
#   SCTPPERF-SUMMARY passed=N failed=N skipped=N total=N
# A check script exits 0 for PASS, 77 for SKIP and anything else for FAIL,
# and leaves its one-line reason in $RESULT_FILE (see lib.sh).
#
# Taken from the environment:
#   SCTPPERF_CHECKS_DIR  the NN-name.sh check scripts
#   SCTPPERF_WANTED      comma-separated names of the checks to run; empty: all
#   SCTPPERF_DEADLINE_S  the /proc/uptime second after which no check starts,
#                        so a check that hangs costs its own limit but still
#                        leaves the summary to be printed in time
#   SCTPPERF_WORK_ROOT   where each check gets a scratch directory
#   SCTPPERF_IP          iproute2's ip, to remove a killed check's namespaces
#   SCTPPERF_SANITIZER_DIR  optional: where the programs' sanitizers write
#                        their reports (log_path=DIR/report in ASAN_OPTIONS
#                        and UBSAN_OPTIONS). A report that appears there
#                        during a check is printed line by line after it and
#                        fails it, whatever the check itself said: a test
#                        that expects a program to fail must not pass on a
#                        crash the sanitizer caught (exitcode=66 keeps the
#                        two apart for the check; this keeps them apart for
#                        the run).
#   SCTPPERF_LIMIT_SCALE optional: a whole number that multiplies every
#                        check's own limit (default 1), for programs that
#                        run slower than the limits were set for (the
#                        sanitizer builds: ../../sanitize/run-sanitized.sh)
# shellcheck shell=sh

# A check may say how long it may take with a "# vm-check-timeout: SECONDS"
# line; past that it is killed and counted as failed. The check finds the
# limit it runs under in CHECK_LIMIT_S. Every limit is a hang guard, set
# for this build's programs; SCTPPERF_LIMIT_SCALE stretches them all alike.
default_timeout_s=60
limit_scale="${SCTPPERF_LIMIT_SCALE:-1}"
checks_dir="${SCTPPERF_CHECKS_DIR}"
passed=0
failed=0
skipped=0
case "${limit_scale}" in
    '' | *[!0-9]* | 0)
        # Not exit: as the VM's init this loop is PID 1. No check runs, and
        # the summary counts the setting as a failure.
        echo "SCTPPERF-CHECK limit_scale FAIL SCTPPERF_LIMIT_SCALE takes a whole number from 1, not ${limit_scale} [0.0 s]"
        failed=1
        checks_dir=/nonexistent
        ;;
esac

wanted=""
[ -z "${SCTPPERF_WANTED:-}" ] || wanted=",${SCTPPERF_WANTED},"
[ -z "${SCTPPERF_SANITIZER_DIR:-}" ] || mkdir -p "${SCTPPERF_SANITIZER_DIR}"
for script in "${checks_dir}"/*.sh; do
    [ -e "${script}" ] || continue
    # "40-seqpack_all_sizes.sh" -> "seqpack_all_sizes"
    name="$(basename "${script}" .sh)"
    name="${name#*-}"
    if [ -n "${wanted}" ]; then
        case "${wanted}" in
            *",${name},"*) ;;
            *) continue ;;
        esac
    fi
    limit_s="$(sed -n 's/^# vm-check-timeout: *\([0-9][0-9]*\).*/\1/p' "${script}")"
    limit_s=$((${limit_s:-${default_timeout_s}} * limit_scale))
    left_s="$(awk -v d="${SCTPPERF_DEADLINE_S}" -v u="$(cut -d' ' -f1 /proc/uptime)" \
        'BEGIN { printf "%d", d - u }')"
    if [ "${left_s}" -lt 5 ]; then
        echo "SCTPPERF-CHECK ${name} FAIL not run: the run's time budget is spent [0.0 s]"
        failed=$((failed + 1))
        continue
    fi
    [ "${left_s}" -lt "${limit_s}" ] && limit_s="${left_s}"

    work="${SCTPPERF_WORK_ROOT}/check-${name}"
    mkdir -p "${work}"
    export CHECK_NAME="${name}" CHECK_WORK="${work}" CHECK_LIMIT_S="${limit_s}"
    export RESULT_FILE="${work}/result" PID_FILE="${work}/pids" NETNS_FILE="${work}/netns"
    : >"${PID_FILE}"
    : >"${NETNS_FILE}"
    echo "no reason given" >"${RESULT_FILE}"

    echo "SCTPPERF-BEGIN ${name} (limit ${limit_s} s)"
    started="$(cut -d' ' -f1 /proc/uptime)"
    # KILL, not TERM: a check that overran must not get to print a PASS.
    timeout -s KILL "${limit_s}" sh "${script}" 2>&1
    status=$?
    ended="$(cut -d' ' -f1 /proc/uptime)"
    elapsed="$(awk -v a="${started}" -v b="${ended}" 'BEGIN { printf "%.1f", b - a }')"

    # A killed check could not clean up after itself: stop what it started
    # (by the PIDs it recorded) and remove its namespaces.
    while read -r pid; do
        kill -KILL "${pid}" 2>/dev/null
    done <"${PID_FILE}"
    while read -r ns; do
        "${SCTPPERF_IP}" netns delete "${ns}" 2>/dev/null
    done <"${NETNS_FILE}"

    reason="$(head -n 1 "${RESULT_FILE}")"
    # The sanitizers' reports from the programs this check ran, the servers
    # it stopped at its end included: printed, removed, and a failure.
    reports=0
    if [ -n "${SCTPPERF_SANITIZER_DIR:-}" ]; then
        for report in "${SCTPPERF_SANITIZER_DIR}"/*; do
            [ -f "${report}" ] || continue
            awk -v tag="SCTPPERF-SANITIZER ${name} " '{ print tag $0 }' "${report}"
            rm -f "${report}"
            reports=$((reports + 1))
        done
    fi
    if [ "${reports}" -gt 0 ]; then
        reason="${reports} sanitizer report(s), above; the check said: ${reason}"
        status=1
    fi
    if [ "${status}" -eq 0 ]; then
        verdict=PASS
        passed=$((passed + 1))
    elif [ "${status}" -eq 77 ]; then
        verdict=SKIP
        skipped=$((skipped + 1))
    else
        verdict=FAIL
        failed=$((failed + 1))
        if awk -v e="${elapsed}" -v l="${limit_s}" 'BEGIN { exit !(e >= l - 0.5) }'; then
            reason="timed out after ${limit_s} s"
            # A client the check ran in the foreground is in no PID file and
            # would outlive it until its own bound. As PID 1 of the VM or of
            # the native runner's PID namespace, every other process in
            # sight is one started for the checks, so the next check starts
            # clean only if all of them go (kill -1 spares PID 1). Anywhere
            # else that would reach beyond the checks, so it is left out.
            [ "$$" -eq 1 ] && kill -KILL -1 2>/dev/null
        fi
    fi
    echo "SCTPPERF-CHECK ${name} ${verdict} ${reason} [${elapsed} s]"
done

total=$((passed + failed + skipped))
echo "SCTPPERF-SUMMARY passed=${passed} failed=${failed} skipped=${skipped} total=${total}"
