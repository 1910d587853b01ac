# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 3600
# The head-of-line blocking experiment of the hol_blocking check
# (guest/checks/65-hol_blocking.sh, copied to /sctp-perf/hol_blocking.sh),
# run as it is, with its assertions, but SWEEP_HOL_COUNT messages per run,
# and sent back to the host as sample-results/sctp-hol-blocking-vm: the
# check's data (table.csv, setup.csv, every run's JSON report and latency
# histogram) and two plots drawn here by gnuplot (hol.gp: hol-ccdf.png,
# hol-shares.png). The limit is only a ceiling: the VM's budget
# (run-vm-sweeps.sh --vm-timeout) is what bounds it.
# shellcheck shell=sh
# shellcheck source=../../lib.sh
. /sctp-perf/lib.sh
# shellcheck source=../sweep-lib.sh
. /sctp-perf/sweep-lib.sh

name=sctp-hol-blocking-vm
[ -x /usr/bin/gnuplot ] || fail "gnuplot is not in the image"
[ -f /sctp-perf/hol_blocking.sh ] || fail "the hol_blocking check is not in the image"

echo "SCTPPERF-INFO ${name} kernel=$(uname -r) cpus=$(nproc)" \
    "mem_total_kb=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)" \
    "started_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ) messages_per_run=${SWEEP_HOL_COUNT}"

# Read by the check.
# shellcheck disable=SC2034
HOL_COUNT="${SWEEP_HOL_COUNT}"
HOL_EXPORT_DIR="${SWEEP_ROOT}/${name}"
rm -rf "${HOL_EXPORT_DIR}"

# Called by the check once its data is in HOL_EXPORT_DIR and every
# assertion held: draws the plots there and sends the directory.
hol_exported() {
    write_plot_script >"${HOL_EXPORT_DIR}/hol.gp"
    (cd "${HOL_EXPORT_DIR}" && gnuplot hol.gp) || fail "gnuplot failed on hol.gp"
    for _png in hol-ccdf.png hol-shares.png; do
        [ -s "${HOL_EXPORT_DIR}/${_png}" ] || fail "gnuplot drew no ${_png}"
    done
    send_directory "${name}"
}

# The gnuplot script, reading only files of the directory, so that it can
# be run there again. Latencies: for each run, the share of its delivered
# messages with a corrected latency of at least x (from the 0.5 ms
# histograms); shares: each variant's excess late share (late share minus
# its no-loss twin's) with one standard error, beside the model's figure.
write_plot_script() {
    _q="$(awk -F, '$1 == "model_share_unordered" { print $2 }' "${HOL_EXPORT_DIR}/setup.csv")"
    _p1="$(awk -F, '$1 == "model_share_1_stream" { print $2 }' "${HOL_EXPORT_DIR}/setup.csv")"
    _pk="$(awk -F, '$1 ~ /^model_share_[0-9]+_streams$/ { print $2 }' "${HOL_EXPORT_DIR}/setup.csv")"
    _late="$(awk -F, '$1 == "late_ms_over_twin_median" { print $2 }' "${HOL_EXPORT_DIR}/setup.csv")"
    _abandoned="$(awk -F, '$1 == "prttl" { print $17 }' "${HOL_EXPORT_DIR}/table.csv")"
    cat <<EOF
# Drawn by guest/sweeps/checks/30-sctp_hol_blocking.sh; run "gnuplot hol.gp" here.
set datafile separator ','
array run[5] = ['tcp', 'sctp1', 'sctp16', 'unordered', 'prttl']
array caption[5] = ['TCP', 'SCTP, 1 ordered stream', 'SCTP, 16 streams', 'SCTP, unordered', \\
                    'SCTP, PR-SCTP ttl:20, 1 stream (${_abandoned} abandoned)']
# file(i, twin): run i's latency histogram, or its twin's.
file(i, twin) = run[i].(twin ? '-clean' : '').'-latency.csv'
array total[10]
xmax = 0
do for [i = 1:5] {
    do for [twin = 0:1] {
        stats file(i, twin) every ::1 using 1:2 nooutput
        total[2 * i - 1 + twin] = STATS_sum_y
        xmax = STATS_max_x > xmax ? STATS_max_x : xmax
    }
}
# share(i, twin): the share of delivered messages with a latency of at least
# the bin's lower edge; the running count c starts again with each file's
# first bin (\$0 == 0).
share(i, twin) = (c = (\$0 == 0 ? 0 : c), b = c, c = c + \$2, (total[2 * i - 1 + twin] - b) / total[2 * i - 1 + twin])

set terminal pngcairo size 1200,760 font 'Sans,9'
set output 'hol-ccdf.png'
set multiplot layout 2,3 title "Corrected latency, 500 messages/s, 10 ms and 2 % loss each way, beside a no-loss twin run at the same time (QEMU TCG: shape only)"
set xlabel 'corrected latency x (ms)'
set ylabel 'share with latency >= x'
set logscale y
set format y '10^{%L}'
# One scale for all panels, to the next 20 ms above the latest message.
set xrange [0:20 * ceil((xmax + 0.5) / 20)]
set yrange [1e-4:1]
set grid
set key top right
do for [i = 1:5] {
    set title caption[i]
    plot file(i, 0) every ::1 using 1:(share(i, 0)) with steps lw 2 lc i title 'with loss', \\
         file(i, 1) every ::1 using 1:(share(i, 1)) with steps lw 1 dt 2 lc rgb 'gray40' title 'twin, no loss'
}
set title 'all five, with loss'
plot for [i = 1:5] file(i, 0) every ::1 using 1:(share(i, 0)) with steps lw 2 lc i title run[i]
unset multiplot

set output 'hol-shares.png'
set title "Messages later than the no-loss median + ${_late} ms, beyond the no-loss twin's share"
unset logscale y
set format y '%g'
set yrange [0:*]
set xrange [-0.6:4.6]
set ylabel 'excess late share (%)'
unset xlabel
set style fill solid 0.5 border -1
set boxwidth 0.6
set key top right
# The model has a figure for the reliable variants; TCP is one ordered stream.
model(v) = v eq 'sctp1' || v eq 'tcp' ? ${_p1} : v eq 'sctp16' ? ${_pk} : v eq 'unordered' ? ${_q} : NaN
plot 'table.csv' every ::1 using 0:(100 * \$11):xtic(1) with boxes title 'measured', \\
     '' every ::1 using 0:(100 * \$11):(100 * \$12) with yerrorbars lc black pt 0 title 'one standard error', \\
     '' every ::1 using 0:(100 * model(strcol(1))) with points pt 7 ps 1.5 lc rgb 'red' title 'model (no emulator, no timeouts)'
EOF
}

# shellcheck source=/dev/null # the check, copied by run-vm-sweeps.sh
. /sctp-perf/hol_blocking.sh
