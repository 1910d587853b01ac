# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 240
# One point of the failover experiment, judged against the model: RTOs of
# 50..200 ms, path-max-retrans 1, the potentially-failed state off
# (net.sctp.pf_enable 0 in both namespaces), heartbeats every 100 ms.
# SOCK_SEQPACK at 1000 messages/s for 8 s; the client's --at silences the
# primary link both ways at 2 s (netem loss 100 %) and restores it at 6 s.
#
# The timers predict the path unreachable after path-max-retrans + 1 = 2
# expiries: RTO + min(2 RTO, rto_max), RTO being the path's own when the
# fault came, which the client reads at that instant (150 ms for an RTO of
# 50 ms). The measured detection (the client's unreachable event, from the
# fault command's start) must lie within one rto_max plus one heartbeat
# interval of the prediction, both read back from the association, plus
# the time the fault's command at the client's end took (it takes effect
# somewhere within it), plus, for each of the two expiries and the event's
# delivery, the worst lateness of a timer in this VM while the run went on
# (lib.sh's sample_timer_lateness, beside it): every bound from the run's
# own figures and a calibration made with it, none a constant of a quiet
# machine. Nothing may
# be lost either. The run's own time bound is scaled from a calibration
# run of the same load for 1 s (lib.sh's calibrate).
#
#   ns c                                 ns s
#   mh0c 10.77.1.1/24 ---- path 1 ---- mh0s 10.77.1.2/24   (silent 2..6 s)
#   mh1c 10.77.2.1/24 ---- path 2 ---- mh1s 10.77.2.2/24
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_modules
need_program SOCK_SEQPACK_clt
need_program SOCK_SEQPACK_srv
need_option SOCK_SEQPACK_clt at-timeout

two_paths
set_pf_enable 0 c s

timers="--sctp-rto-initial 100 --sctp-rto-min 50 --sctp-rto-max 200 --sctp-hb-interval 100 --sctp-path-max-retrans 1"
# --header-timeout 20 on every server: under the sanitizers, on a host busy
# with the rest of the test command, a client can take longer than the
# default 2 s from its association to its test header (50-multihoming_failover
# did); this check is about the paths, not that.
patience="--header-timeout 20"
# One command per end, both at the same instant (57-failover_failback says
# why). The client's detection starts with its own end's: its requests are
# what is lost, so the first command, the client's end, bounds it.

# shellcheck disable=SC2086 # the option list is a list
start_server "${CHECK_WORK}/srv.log" s SOCK_SEQPACK_srv -p 0 -a 10.77.1.2,10.77.2.2 ${timers} \
    ${patience}
client="SOCK_SEQPACK_clt -H 10.77.1.2,10.77.2.2 -i 10.77.1.1,10.77.2.1 -p ${SERVER_PORT}"
load="-s 6 --rate 1000 --interval 1 --format json --io-timeout 20"
at_timeout_s=10
# shellcheck disable=SC2086
calibrate "no fault, 1 s" 1 "${CHECK_WORK}/calibrate.json" c ${client} ${load} --duration 1 \
    ${timers}
sample_timer_lateness "${CHECK_WORK}/lateness"
# shellcheck disable=SC2086
run_report "grid point" "${CHECK_WORK}/grid.json" "$(($(scaled_s 8) + at_timeout_s))" c \
    ${client} ${load} --duration 8 ${timers} --at-timeout "${at_timeout_s}" \
    --at "2:${SILENCE_C}" --at "2:${SILENCE_S}" --at "6:${RESTORE_C}" --at "6:${RESTORE_S}"
stop_pid "${SAMPLER_PID}"
lateness_ms="$(largest "${CHECK_WORK}/lateness")"
log "timers beside the run: a sleep of 100 ms woke at worst ${lateness_ms} ms late" \
    "($(wc -l <"${CHECK_WORK}/lateness") sleeps)"
sed 's/^/    progress: /' "${REPORT}.err"

expect_field environment.sctp_paths_system.pf_enable 0
expect_field environment.sctp_paths_socket.path_max_retrans 1
expect_field failure.predicted.pf_ms null
expect_field failure.predicted.unreachable_expiries 2
for k in 0 1 2 3; do
    expect_field "faults.${k}.exit_status" 0
done
expect_field failure.fault_source "--at 1"
expect_field load.messages_lost 0
sent="$(report_field load.messages_sent)"
expect_field load.messages_received_by_server "${sent}"
expect_field load.messages_replied "${sent}"
judge "grid point" "${sent} messages sent, received by the server and replied, none lost"

rto_ms="$(report_field failure.predicted.rto_ms)"
rto_max_ms="$(report_field environment.sctp_rto_socket.max_ms)"
hb_ms="$(report_field environment.sctp_paths_socket.hb_interval_ms)"
predicted_ms="$(report_field failure.predicted.unreachable_ms)"
measured_ms="$(report_field failure.client_detection.after_ms)"
what="$(report_field failure.client_detection.what)"
command_ms="$(awk -v s="$(report_field faults.0.duration_s)" 'BEGIN { printf "%.3f", s * 1000 }')"
expiries="$(report_field failure.predicted.unreachable_expiries)"
bound_ms="$(awk -v m="${rto_max_ms}" -v h="${hb_ms}" -v c="${command_ms}" -v l="${lateness_ms}" \
    -v n="${expiries}" 'BEGIN { printf "%.3f", m + h + c + (n + 1) * l }')"
log "RTO at the fault ${rto_ms} ms ($(report_field failure.predicted.rto_source)), rto_max ${rto_max_ms} ms, hb ${hb_ms} ms, path-max-retrans 1, pf off"
log "detection: measured ${measured_ms} ms (${what}), predicted ${predicted_ms} ms; bound rto_max + hb + the command's ${command_ms} ms + $((expiries + 1)) x ${lateness_ms} ms of timer lateness = ${bound_ms} ms; the run's worst schedule slip $(report_field load.schedule_slip_max_us) us"
log "server detection $(report_field failure.server_detection.after_ms) ms ($(report_field failure.server_detection.what)); first reply on path 2 $(report_field failure.other_path_reply_after_ms) ms; longest gap $(report_field failure.longest_gap_ms) ms"
log "restored at $(report_field failure.undone_s) s: path available again $(report_field failure.client_available.after_ms) ms after (client), $(report_field failure.server_available.after_ms) ms (server); replies back on path 1 $(report_field failure.back_on_path_after_ms) ms after"
log "${sent} messages sent, received by the server and replied; $(report_field failure.later_slower_than_p99_9) of $(report_field failure.later_replies) replies slower than the unfaulted p99.9 ($(report_field failure.unfaulted_p99_9_us) us)"

case "${measured_ms}" in
"" | null) fail "the client reported no detection of path 1's failure" ;;
esac
case "${what}" in
unreachable\ 10.77.1.2:*) ;;
*) fail "the detection is '${what}', not path 1 unreachable (the potentially-failed state is off)" ;;
esac
awk -v m="${measured_ms}" -v p="${predicted_ms}" -v b="${bound_ms}" \
    'BEGIN { d = m - p; if (d < 0) d = -d; exit !(d <= b) }' ||
    fail "measured detection ${measured_ms} ms is more than ${bound_ms} ms from the prediction ${predicted_ms} ms"
pass "detection ${measured_ms} ms against ${predicted_ms} ms predicted (within ${bound_ms} ms); ${sent} messages, none lost"
