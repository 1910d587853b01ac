# Written by run_spectrum.pl. Restyle freely and redraw with: gnuplot spectrum.gp
# (run it in the directory that holds spectrum.csv).
# Both axes are logarithmic: x in powers of two (payload bytes), y in powers of ten
# (round-trip latency in microseconds).
data_file = 'spectrum.csv'
image_file = 'spectrum.png'

if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1000,650 noenhanced font ',10'
} else {
    set terminal png size 1000,650 noenhanced
}
set output image_file
set datafile separator comma
set title 'sctp-perf round-trip latency: TCP stream to 127.0.0.1, 100000 iterations per size' noenhanced
set xlabel 'payload size (bytes, log2 scale)'
set ylabel 'round-trip latency (microseconds, log10 scale)'
set logscale x 2
set logscale y 10
# Half a power of two of room on either side, so the end points are not on the frame.
set xrange [1 / sqrt(2) : 65536 * sqrt(2)]
set xtics ('1' 1, '2' 2, '4' 4, '8' 8, '16' 16, '32' 32, '64' 64, '128' 128, '256' 256, '512' 512, '1K' 1024, '2K' 2048, '4K' 4096, '8K' 8192, '16K' 16384, '32K' 32768, '64K' 65536)
set grid xtics ytics mytics
set key outside right top vertical
set style data linespoints

plot data_file using 'payload_bytes':'min_us' title 'min' pointtype 7, \
     ''        using 'payload_bytes':'p50_us' title 'p50 (median)' pointtype 5, \
     ''        using 'payload_bytes':'p99_us' title 'p99' pointtype 9, \
     ''        using 'payload_bytes':'max_us' title 'max' pointtype 11
