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
