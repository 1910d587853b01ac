# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 5400
# The failover experiment: what a silent failure of the primary path costs
# under each setting of the timers that decide it, measured beside what the
# timers predict, and sent back to the host as
# sample-results/sctp-failover-grid-vm.
#
# Each grid point is one run of the failover_grid_point check's kind:
# SOCK_SEQPACK at 1000 messages/s for 8 s over two paths between two
# namespaces; the client's --at makes path 1 silent both ways at 2 s (netem
# loss 100 %, as a cut fibre does, not a link set down) and restores it at
# 6 s. Both ends run with the point's settings:
#
#   RTO min/max (ms)      SWEEP_FAILOVER_RTOS   20/200 50/200 200/1000 default
#   path-max-retrans      SWEEP_FAILOVER_PMRS   1 2 5
#   potentially failed    SWEEP_FAILOVER_PFS    off 0 1
#   heartbeat (ms)        SWEEP_FAILOVER_HBS    100 1000
#
# "default" leaves the RTOs at the kernel's (net.sctp.rto_min/max/initial),
# otherwise rto_initial is set to rto_min; "off" is net.sctp.pf_enable 0 in
# both namespaces, a number is pf_enable 1 and --sctp-pf-threshold N.
#
# Every point's JSON report goes to reports/; table.csv has a row a point:
# its settings, the client's exit status, the RTO of path 1 at the fault,
# what the timers predict (the first of potentially failed and unreachable),
# the detection measured (the client's first such event, from the start of
# the command that silenced the client's end), that command's duration, and
# the distance from the prediction to the measurement: the path went silent
# somewhere within the command (under emulation tc takes a large part of a
# second to start), so the detection took between the measurement minus
# the command's duration and the measurement, and the distance is how far
# the prediction lies outside that span (0 inside it). Then the target's
# tolerance, rto_max + one heartbeat interval, and the same widened by the
# worst timer lateness sampled in this VM beside the run, once for each
# expiry and once for the event's delivery; whether the distance lies
# within each; the first reply on path 2, the longest gap between replies,
# the path available again after the restore, and the message accounts.
# failover.gp draws failover-detection.png (measured against predicted
# detection and the longest reply gap) from table.csv alone.
#
# A point whose prediction lies after the restore cannot be detected: its
# row says so ("after restore") instead of judging it. The sweep fails
# only when a run cannot be made at all (the server does not start); a
# client that fails is a row with its status, for the table to show.
#
#   ns c                                 ns s
#   mh0c 10.77.1.1/24 ---- path 1 ---- mh0s 10.77.1.2/24   (silent 2..6 s)
#   mh1c 10.77.2.1/24 ---- path 2 ---- mh1s 10.77.2.2/24
# shellcheck shell=sh
# shellcheck source=../../lib.sh
. /sctp-perf/lib.sh
# shellcheck source=../sweep-lib.sh
. /sctp-perf/sweep-lib.sh

name=sctp-failover-grid-vm
need_modules
require_program SOCK_SEQPACK_clt
require_program SOCK_SEQPACK_srv
[ -x /usr/bin/gnuplot ] || fail "gnuplot is not in the image"

out="${SWEEP_ROOT}/${name}"
rm -rf "${out}"
mkdir -p "${out}/reports"

echo "SCTPPERF-INFO ${name} kernel=$(uname -r) cpus=$(nproc)" \
    "mem_total_kb=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)" \
    "started_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    "kernel_rto_ms=$(cat /proc/sys/net/sctp/rto_initial)/$(cat /proc/sys/net/sctp/rto_min)/$(cat /proc/sys/net/sctp/rto_max)" \
    "kernel_path_max_retrans=$(cat /proc/sys/net/sctp/path_max_retrans)" \
    "kernel_pf_retrans=$(cat /proc/sys/net/sctp/pf_retrans)"

two_paths
duration_s=8
fault_s=2
restore_s=6
at_timeout_s=10
load="-s 6 --rate 1000 --interval 1 --format json --io-timeout 20"
client="SOCK_SEQPACK_clt -H 10.77.1.2,10.77.2.2 -i 10.77.1.1,10.77.2.1"

# point_timers RTO PMR PF HB: the options of both ends at one point.
point_timers() {
    _t="--sctp-hb-interval $4 --sctp-path-max-retrans $2"
    case "$1" in
    default) ;;
    */*) _t="${_t} --sctp-rto-initial ${1%/*} --sctp-rto-min ${1%/*} --sctp-rto-max ${1#*/}" ;;
    *) fail "SWEEP_FAILOVER_RTOS: '$1' is neither MIN/MAX nor default" ;;
    esac
    [ "$3" = off ] || _t="${_t} --sctp-pf-threshold $3"
    echo "${_t}"
}

# One calibration, at the kernel's settings with no fault: how much longer
# than planned a run takes here (lib.sh's calibrate), for every run's bound.
set_pf_enable 1 c s
start_server "${CHECK_WORK}/calibrate-srv.log" s SOCK_SEQPACK_srv -p 0 -a 10.77.1.2,10.77.2.2
# shellcheck disable=SC2086 # the option lists are lists
calibrate "no fault, 1 s" 1 "${CHECK_WORK}/calibrate.json" c ${client} -p "${SERVER_PORT}" ${load} \
    --duration 1
stop_pid "${SERVER_PID}"
# The run, its commands' bound, and the drain of replies held back by a
# path still failed at the end (at most --io-timeout).
limit_s="$(($(scaled_s "${duration_s}") + at_timeout_s + 20))"
log "each run bounded by ${limit_s} s"

table="${out}/table.csv"
echo "rto,pmr,pf,hb_ms,status,rto_min_ms,rto_max_ms,rto_at_fault_ms,predicted_kind,predicted_expiries,predicted_ms,measured_ms,command_ms,distance_ms,target_ms,within_target,timer_lateness_ms,tolerance_ms,within_tolerance,measured_event,other_path_reply_ms,longest_gap_ms,available_again_ms,back_on_path_ms,sent,received_by_server,replied,lost,slower_than_unfaulted_p99_9,later_replies" >"${table}"

# field PATH: a value of the point's report, "" for null or absent, and
# commas (in event descriptions) made semicolons for the CSV.
field() {
    _v="$(report_field "$1")"
    [ "${_v}" = null ] && _v=""
    echo "${_v}" | tr ',' ';'
}

# row RTO PMR PF HB STATUS LATENESS: the point's line of table.csv.
row() {
    _rto_max="$(field environment.sctp_rto_socket.max_ms)"
    _hb="$(field environment.sctp_paths_socket.hb_interval_ms)"
    _pf_ms="$(field failure.predicted.pf_ms)"
    if [ -n "${_pf_ms}" ]; then
        _kind=potentially_failed
        _expiries="$(field failure.predicted.pf_expiries)"
        _predicted="${_pf_ms}"
    else
        _kind=unreachable
        _expiries="$(field failure.predicted.unreachable_expiries)"
        _predicted="$(field failure.predicted.unreachable_ms)"
    fi
    _measured="$(field failure.client_detection.after_ms)"
    _command_ms="$(awk -v s="$(field faults.0.duration_s)" 'BEGIN { printf "%.3f", s * 1000 }')"
    _distance="" _target="" _tolerance="" _within_target="" _within_tolerance=""
    if [ -n "${_predicted}" ] && [ -n "${_rto_max}" ] && [ -n "${_hb}" ]; then
        _target="$(awk -v m="${_rto_max}" -v h="${_hb}" 'BEGIN { printf "%.3f", m + h }')"
        _tolerance="$(awk -v t="${_target}" -v l="$6" -v n="${_expiries}" \
            'BEGIN { printf "%.3f", t + (n + 1) * l }')"
        # The fault lasts restore_s - fault_s: a prediction beyond it has
        # nothing to be measured against.
        if awk -v p="${_predicted}" -v w="$(((restore_s - fault_s) * 1000))" 'BEGIN { exit !(p >= w) }'; then
            _within_target="after restore" _within_tolerance="after restore"
        elif [ -z "${_measured}" ]; then
            _within_target=no _within_tolerance=no
        else
            _distance="$(awk -v m="${_measured}" -v c="${_command_ms}" -v p="${_predicted}" \
                'BEGIN { d = 0; if (p > m) d = p - m; if (p < m - c) d = m - c - p; printf "%.3f", d }')"
            _within_target="$(awk -v d="${_distance}" -v b="${_target}" 'BEGIN { print (d <= b) ? "yes" : "no" }')"
            _within_tolerance="$(awk -v d="${_distance}" -v b="${_tolerance}" 'BEGIN { print (d <= b) ? "yes" : "no" }')"
        fi
    fi
    echo "$1,$2,$3,$4,$5,$(field environment.sctp_rto_socket.min_ms),${_rto_max},$(field failure.predicted.rto_ms),${_kind},${_expiries},${_predicted},${_measured},${_command_ms},${_distance},${_target},${_within_target},$6,${_tolerance},${_within_tolerance},$(field failure.client_detection.what),$(field failure.other_path_reply_after_ms),$(field failure.longest_gap_ms),$(field failure.client_available.after_ms),$(field failure.back_on_path_after_ms),$(field load.messages_sent),$(field load.messages_received_by_server),$(field load.messages_replied),$(field load.messages_lost),$(field failure.later_slower_than_p99_9),$(field failure.later_replies)" >>"${table}"
}

# The gnuplot script, reading only table.csv, so that it can be run in the
# directory again. Colour: the potentially-failed setting; shape: the
# heartbeat interval. Left, measured against predicted detection (log-log;
# on the diagonal they agree), each measurement a bar from its value less
# the silencing command's duration to its value; middle, the distance from
# the prediction to that bar against the target's tolerance, rto_max + one
# heartbeat (below the diagonal: within it); right, the longest gap between
# replies against the predicted detection.
write_failover_plot() {
    cat <<'EOF'
# Drawn by guest/sweeps/checks/50-sctp_failover_grid.sh; run "gnuplot failover.gp" here.
set datafile separator ','
array pf[3] = ['off', '0', '1']
array hb[2] = [100, 1000]
array shape[2] = [7, 5]
# v if the row has potentially-failed setting i and heartbeat j, else NaN.
sel(i, j, v) = (strcol(3) eq pf[i] && $4 == hb[j]) ? v : NaN
# A distance of 0 (the prediction inside the bar) is drawn at 1 ms.
floor1(d) = d < 1 ? 1 : d
set terminal pngcairo size 1500,520 font 'Sans,9'
set output 'failover-detection.png'
set multiplot layout 1,3 title "Primary path silent at 2 s, restored at 6 s; SOCK\\_SEQPACK at 1000 messages/s (QEMU TCG: shape and agreement with the timers only)"
set grid
set key bottom right
set logscale xy
set xlabel 'predicted detection (ms)'
set ylabel 'measured detection (ms)'
set title 'detection: measured against predicted'
plot x with lines lc rgb 'gray40' dt 2 title 'measured = predicted', \
     for [i = 1:3] for [j = 1:2] 'table.csv' every ::1 using 11:(sel(i, j, $12)):($12 - $13):12 \
         with yerrorbars pt shape[j] ps 1.2 lc i title sprintf('pf %s, hb %d ms', pf[i], hb[j])
set xlabel 'tolerance of the target: rto\_max + one heartbeat (ms)'
set ylabel 'distance from the prediction (ms; 0 drawn at 1)'
set key top left
set title 'distance from the prediction: below the diagonal is within the target'
plot x with lines lc rgb 'gray40' dt 2 title 'distance = tolerance', \
     for [i = 1:3] for [j = 1:2] 'table.csv' every ::1 using 15:(sel(i, j, floor1($14))) \
         with points pt shape[j] ps 1.2 lc i notitle
set xlabel 'predicted detection (ms)'
set ylabel 'longest gap between replies (ms)'
set title 'longest reply gap against predicted detection'
plot x with lines lc rgb 'gray40' dt 2 title 'gap = predicted detection', \
     for [i = 1:3] for [j = 1:2] 'table.csv' every ::1 using 11:(sel(i, j, $22)) \
         with points pt shape[j] ps 1.2 lc i notitle
unset multiplot
EOF
}

points=0
for rto in ${SWEEP_FAILOVER_RTOS}; do
    for pmr in ${SWEEP_FAILOVER_PMRS}; do
        for pf in ${SWEEP_FAILOVER_PFS}; do
            for hb in ${SWEEP_FAILOVER_HBS}; do
                point="rto${rto%/*}-${rto#*/}-pmr${pmr}-pf${pf}-hb${hb}"
                [ "${rto}" = default ] && point="rtodefault-pmr${pmr}-pf${pf}-hb${hb}"
                timers="$(point_timers "${rto}" "${pmr}" "${pf}" "${hb}")"
                if [ "${pf}" = off ]; then set_pf_enable 0 c s; else set_pf_enable 1 c s; fi
                # shellcheck disable=SC2086
                start_server "${CHECK_WORK}/${point}-srv.log" s SOCK_SEQPACK_srv -p 0 \
                    -a 10.77.1.2,10.77.2.2 ${timers}
                sample_timer_lateness "${CHECK_WORK}/${point}.lateness"
                status=0
                # shellcheck disable=SC2086
                run_client "${out}/reports/${point}.json" "${limit_s}" c ${client} -p "${SERVER_PORT}" \
                    ${load} --duration "${duration_s}" ${timers} --at-timeout "${at_timeout_s}" \
                    --at "${fault_s}:${SILENCE_C}" --at "${fault_s}:${SILENCE_S}" \
                    --at "${restore_s}:${RESTORE_C}" --at "${restore_s}:${RESTORE_S}" || status=$?
                stop_pid "${SAMPLER_PID}"
                stop_pid "${SERVER_PID}"
                # A run killed at its bound may have left path 1 silent.
                ${RESTORE_C} 2>/dev/null
                ${RESTORE_S} 2>/dev/null
                lateness_ms="$(largest "${CHECK_WORK}/${point}.lateness")"
                FLAT="${CHECK_WORK}/${point}.flat"
                json_flatten "${out}/reports/${point}.json" >"${FLAT}" 2>/dev/null || : >"${FLAT}"
                mv "${out}/reports/${point}.json.err" "${out}/reports/${point}.err"
                row "${rto}" "${pmr}" "${pf}" "${hb}" "${status}" "${lateness_ms}"
                log "${point}: exit ${status}; $(tail -n 1 "${table}" | cut -d, -f8-22)"
                points=$((points + 1))
            done
        done
    done
done

cat >"${out}/setup.csv" <<EOF
what,value
kernel,$(uname -r)
duration_s,${duration_s}
fault_s,${fault_s}
restore_s,${restore_s}
rate_per_s,1000
payload_bytes,6
slowdown,${SLOWDOWN}
kernel_rto_initial_ms,$(cat /proc/sys/net/sctp/rto_initial)
kernel_rto_min_ms,$(cat /proc/sys/net/sctp/rto_min)
kernel_rto_max_ms,$(cat /proc/sys/net/sctp/rto_max)
EOF
write_failover_plot >"${out}/failover.gp"
(cd "${out}" && gnuplot failover.gp) || fail "gnuplot failed on failover.gp"
[ -s "${out}/failover-detection.png" ] || fail "gnuplot drew no failover-detection.png"
send_directory "${name}"
judged="$(awk -F, 'NR > 1 && ($16 == "yes" || $16 == "no") { n++ } END { print n + 0 }' "${table}")"
within="$(awk -F, 'NR > 1 && $16 == "yes" { n++ } END { print n + 0 }' "${table}")"
failed="$(awk -F, 'NR > 1 && $5 != 0 { n++ } END { print n + 0 }' "${table}")"
pass "${points} points; detection within rto_max + one heartbeat of the prediction at ${within} of the ${judged} detectable ones; ${failed} runs exited non-zero"
