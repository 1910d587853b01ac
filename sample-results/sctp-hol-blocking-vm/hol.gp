# Drawn by guest/sweeps/checks/30-sctp_hol_blocking.sh; run "gnuplot hol.gp" here.
set datafile separator ','
array run[5] = ['tcp', 'sctp1', 'sctp16', 'unordered', 'prttl']
array caption[5] = ['TCP', 'SCTP, 1 ordered stream', 'SCTP, 16 streams', 'SCTP, unordered', \
                    'SCTP, PR-SCTP ttl:20, 1 stream (345 abandoned)']
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
# first bin ($0 == 0).
share(i, twin) = (c = ($0 == 0 ? 0 : c), b = c, c = c + $2, (total[2 * i - 1 + twin] - b) / total[2 * i - 1 + twin])

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
    plot file(i, 0) every ::1 using 1:(share(i, 0)) with steps lw 2 lc i title 'with loss', \
         file(i, 1) every ::1 using 1:(share(i, 1)) with steps lw 1 dt 2 lc rgb 'gray40' title 'twin, no loss'
}
set title 'all five, with loss'
plot for [i = 1:5] file(i, 0) every ::1 using 1:(share(i, 0)) with steps lw 2 lc i title run[i]
unset multiplot

set output 'hol-shares.png'
set title "Messages later than the no-loss median + 10 ms, beyond the no-loss twin's share"
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
model(v) = v eq 'sctp1' || v eq 'tcp' ? 0.2762 : v eq 'sctp16' ? 0.0396 : v eq 'unordered' ? 0.0396 : NaN
plot 'table.csv' every ::1 using 0:(100 * $11):xtic(1) with boxes title 'measured', \
     '' every ::1 using 0:(100 * $11):(100 * $12) with yerrorbars lc black pt 0 title 'one standard error', \
     '' every ::1 using 0:(100 * model(strcol(1))) with points pt 7 ps 1.5 lc rgb 'red' title 'model (no emulator, no timeouts)'
