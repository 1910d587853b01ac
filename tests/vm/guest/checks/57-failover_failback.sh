# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 360
# Failover and failback, seen at both ends and measured, with nothing lost:
# rate mode at 1000 messages/s for 8 s over two links; the client's --at
# makes the primary link silent both ways at 2 s (netem loss 100 % on its
# two ends, a silent failure as a cut fibre gives) and restores it at 5 s.
# Over SOCK_STREAM (SOCK_STREAM_srv bound to any address, so that its
# association has both its addresses), SOCK_SEQPACK on the server's one
# socket, and SOCK_SEQPACK --peel-off. Both ends run with RTOs of 50..200 ms,
# path-max-retrans 2 and heartbeats every 100 ms; net.sctp.pf_enable is the
# kernel's 1 and pf_retrans its 0, so a path is potentially failed at its
# first timeout.
#
# Each run must: exit 0; send, have received by the server and have
# answered every message (sent = received by the server = replied, none
# lost), and have sent at least half as many a second as the calibration
# did; run the four commands (one per end at each instant) with exit
# status 0; show, at the client, the primary path 10.77.1.2 potentially
# failed or unreachable after the fault and available after the restore,
# and at the server its path to the client's 10.77.1.1 likewise; and report
# the failure's figures: the detection, the first reply on the other path,
# the path available again, the longest gap; and name path 1 as the faulted
# path, unless a path failed before the fault, at either end, in a run and
# in its one repeat (fail_over says why). Timing in the VM is emulated:
# the figures are logged, not judged (58-failover_grid_point judges one
# against the model). Each run's time bound is scaled from a calibration:
# the same load for 1 s, over both paths, before the first (lib.sh's
# calibrate).
#
#   ns c                                 ns s
#   mh0c 10.77.1.1/24 ---- path 1 ---- mh0s 10.77.1.2/24   (silent 2..5 s)
#   mh1c 10.77.2.1/24 ---- path 2 ---- mh1s 10.77.2.2/24
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_both_styles
need_option SOCK_SEQPACK_clt at-timeout

two_paths

timers="--sctp-rto-initial 100 --sctp-rto-min 50 --sctp-rto-max 200 --sctp-hb-interval 100 --sctp-path-max-retrans 2"
# --header-timeout 20 on every server: under the sanitizers, on a host busy
# with the rest of the test command, a client can take longer than the
# default 2 s from its association to its test header (50-multihoming_failover
# did); this check is about the paths, not that.
patience="--header-timeout 20"
rate="-s 6 --rate 1000 --interval 1 --format json --io-timeout 20"
duration_s=8
# A command still running this long after it started is killed (--at's
# own bound): the run may last that much longer.
at_timeout_s=10

# first_event END ADDRESS_PREFIX EVENTS AFTER_S [BEFORE_S]: the time (s) of
# END's ("client" or "server") first event among EVENTS (a regular
# expression) of an address starting with ADDRESS_PREFIX at or after
# AFTER_S (and before BEFORE_S, when given), in the last run's report;
# empty when there is none.
first_event() {
    awk -v end="paths.$1.events." -v prefix="$2" -v events="$3" -v after="$4" -v before="${5:-}" '
        BEGIN { FS = "\t" }
        index($1, end) == 1 {
            rest = substr($1, length(end) + 1)
            split(rest, part, ".")
            value[part[1], part[2]] = $2
            if (part[1] + 1 > n) n = part[1] + 1
        }
        END {
            for (i = 0; i < n; i++) {
                if (value[i, "event"] ~ "^(" events ")$" && index(value[i, "address"], prefix) == 1 &&
                    value[i, "at_s"] + 0 >= after + 0 && (before == "" || value[i, "at_s"] + 0 < before + 0)) {
                    print value[i, "at_s"]
                    exit
                }
            }
        }' "${FLAT}"
}

# fail_over_run CLIENT_PROGRAM CLIENT_ARGS...: one run of fail_over (its
# server, a calibration before the first, the client), which sets fault_s.
fail_over_run() {
    # shellcheck disable=SC2086 # the option lists are lists
    start_server "${CHECK_WORK}/${name}-srv.log" s "${server}" -p 0 ${server_args} ${timers} \
        ${patience}
    if [ -z "${SLOWDOWN:-}" ]; then
        # shellcheck disable=SC2086
        calibrate "${name}, no fault, 1 s" 1 "${CHECK_WORK}/calibrate.json" c "$@" \
            -p "${SERVER_PORT}" ${rate} --duration 1 ${timers}
        calibrated_sent="$(report_field load.messages_sent)"
        limit_s="$(($(scaled_s "${duration_s}") + at_timeout_s))"
        least_sent=$((calibrated_sent * duration_s / 2))
        log "bounds: each run ${limit_s} s, at least ${least_sent} messages sent" \
            "(half the calibration's ${calibrated_sent} a second)"
    fi
    mkdir -p "${CHECK_WORK}/${name}-at"
    # shellcheck disable=SC2086
    run_report "${name}" "${CHECK_WORK}/${name}.json" "${limit_s}" c "$@" -p "${SERVER_PORT}" \
        ${rate} --duration "${duration_s}" ${timers} --at-timeout "${at_timeout_s}" \
        --at-output "${CHECK_WORK}/${name}-at" \
        --at "2:${SILENCE_C}" --at "2:${SILENCE_S}" --at "5:${RESTORE_C}" --at "5:${RESTORE_S}"
    stop_pid "${SERVER_PID}"
    fault_s="$(report_field faults.0.started_s)"
}

# fail_over NAME SERVER_PROGRAM SERVER_ARGS -- CLIENT_PROGRAM CLIENT_ARGS...
fail_over() {
    name="$1"
    server="$2"
    server_args="$3"
    shift 4
    attempt=1
    while :; do
        fail_over_run "$@"
        # A path seen failing before the fault, at either end, means that
        # round trips, slowed by emulation and a busy host, outlasted the
        # 200 ms RTO on a healthy path: the association may already have
        # left path 1 (the faulted path is the one that carried the last
        # reply before the fault, and the server chooses the replies' path),
        # and then the run cannot show which path the fault took. Once the
        # server alone saw it: its path to the client flapped, the report
        # named path 2. The host's doing, not the program's: run once more,
        # and then judge all but the faulted path.
        early_end=client
        early="$(first_event client 10.77. 'potentially_failed|unreachable' 0 "${fault_s}")"
        if [ -z "${early}" ]; then
            early_end=server
            early="$(first_event server 10.77. 'potentially_failed|unreachable' 0 "${fault_s}")"
        fi
        if [ -z "${early}" ] || [ "${attempt}" -eq 2 ]; then
            break
        fi
        log "${name}: the ${early_end} saw a path fail at ${early} s, before the fault at ${fault_s} s" \
            "(unfaulted p99.9 $(report_field failure.unfaulted_p99_9_us) us, the RTO at most" \
            "200 ms): this host is too slow for these timers now; once more"
        attempt=2
    done
    for k in 0 1 2 3; do
        expect_field "faults.${k}.exit_status" 0
    done
    expect_field load.messages_lost 0
    sent="$(report_field load.messages_sent)"
    expect_field load.messages_received_by_server "${sent}"
    expect_field load.messages_replied "${sent}"
    expect_at_least load.messages_sent "${least_sent}"
    if [ -n "${mismatches}" ]; then
        for file in "${CHECK_WORK}/${name}-at"/*; do
            sed "s|^|    ${file##*/}: |" "${file}"
        done
    fi
    judge "${name}" "${sent} messages sent, received by the server and replied, none lost"

    restored_s="$(report_field faults.2.started_s)"
    client_down="$(first_event client 10.77.1.2: 'potentially_failed|unreachable' "${fault_s}")"
    client_up="$(first_event client 10.77.1.2: available "${restored_s}")"
    server_down="$(first_event server 10.77.1.1: 'potentially_failed|unreachable' "${fault_s}")"
    server_up="$(first_event server 10.77.1.1: available "${restored_s}")"
    log "${name}: fault at ${fault_s} s (its commands took $(report_field faults.0.duration_s) and" \
        "$(report_field faults.1.duration_s) s), restored at ${restored_s} s"
    log "${name}: client: path 1 failed at ${client_down:-never} s, available at ${client_up:-never} s;" \
        "server: failed at ${server_down:-never} s, available at ${server_up:-never} s"
    log "${name}: failure: detected (client) $(report_field failure.client_detection.after_ms) ms" \
        "($(report_field failure.client_detection.what)), predicted" \
        "$(report_field failure.predicted.first_ms) ms; detected (server)" \
        "$(report_field failure.server_detection.after_ms) ms; first reply on another path" \
        "$(report_field failure.other_path_reply_after_ms) ms; longest gap" \
        "$(report_field failure.longest_gap_ms) ms; available again (client)" \
        "$(report_field failure.client_available.after_ms) ms after the restore; replies back on" \
        "path 1 $(report_field failure.back_on_path_after_ms) ms after it;" \
        "$(report_field failure.later_slower_than_p99_9) of $(report_field failure.later_replies)" \
        "replies slower than the unfaulted p99.9 of $(report_field failure.unfaulted_p99_9_us) us"
    [ -n "${client_down}" ] || mismatches="${mismatches}; the client saw path 1 neither potentially failed nor unreachable"
    [ -n "${client_up}" ] || mismatches="${mismatches}; the client never saw path 1 available after the restore"
    [ -n "${server_down}" ] || mismatches="${mismatches}; the server saw no path to 10.77.1.1 fail"
    [ -n "${server_up}" ] || mismatches="${mismatches}; the server never saw its path to 10.77.1.1 available again"
    for figure in failure.client_detection.after_ms failure.server_detection.after_ms \
        failure.other_path_reply_after_ms failure.client_available.after_ms failure.longest_gap_ms \
        failure.predicted.first_ms; do
        case "$(report_field "${figure}")" in
        "" | null) mismatches="${mismatches}; the report has no ${figure}" ;;
        esac
    done
    if [ -z "${early}" ]; then
        expect_field failure.faulted_path "10.77.1.2:${SERVER_PORT}"
    else
        log "${name}: the faulted path not judged: the second run too saw a path fail before the fault"
    fi
    judge "${name}: the failure seen at both ends"
    # The server's log has them too, for a client that gets no account. It
    # is written as the session ends, once the client has gone.
    await_lines "${CHECK_WORK}/${name}-srv.log" \
        "client .*: path 10\.77\.1\.1:[0-9]+ (potentially_failed|unreachable) " 1 "$(scaled_s 1)" ||
        fail "${name}: the server's log has no line of its path to 10.77.1.1 failing"
    log "${name}: server log: $(grep -m 1 -E ': path 10\.77\.1\.1:[0-9]+ (potentially_failed|unreachable) ' "${CHECK_WORK}/${name}-srv.log")"
}

fail_over stream SOCK_STREAM_srv "" -- SOCK_STREAM_clt -H 10.77.1.2
fail_over seqpack SOCK_SEQPACK_srv "-a 10.77.1.2,10.77.2.2" -- \
    SOCK_SEQPACK_clt -H 10.77.1.2,10.77.2.2 -i 10.77.1.1,10.77.2.1
fail_over peel SOCK_SEQPACK_srv "-a 10.77.1.2,10.77.2.2 --peel-off" -- \
    SOCK_SEQPACK_clt -H 10.77.1.2,10.77.2.2 -i 10.77.1.1,10.77.2.1
pass "failover at 2 s and failback at 5 s over SOCK_STREAM, SOCK_SEQPACK and --peel-off: seen at both ends, measured, nothing lost"
