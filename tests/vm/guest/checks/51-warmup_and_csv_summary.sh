# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 150
# The unrecorded start of a run and the one-line summary, over real SCTP for
# both socket styles, counted against the server, which sees every message:
#
#   ping-pong -c 50 --primer 7: 50 points; the header asks the server for 57
#   rate --flows 2 -c 30 --primer 7: 60 measured; the server received and
#     replied to 2 x (30 + 7) = 74
#   rate --flows 2 --rate 200 --duration 1 --warmup 0.5: 2 x 100 = 200 sent
#     in the warm-up, 2 x 200 = 400 measured (the schedule decides by due
#     time, so the counts hold however slowly the emulated guest runs); the
#     server received 2 x 100 primers + 200 + 400 = 800
#   --csv-summary: the three runs append to one file: one header, then a
#     line each whose count is the run's num_points, with p99.9999 in it.
#
# Counts only: the guest's timing is emulated, so no latency is judged.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles
need_option SOCK_STREAM_clt --warmup
need_option SOCK_STREAM_clt --csv-summary

# counted_run STYLE NAME CLIENT ARGS...: one run against the server started
# last, appending to the style's summary file; fails unless it exits 0.
counted_run() {
    _style="$1"
    _name="$2"
    _client="$3"
    shift 3
    run_report "${_style} ${_name}" "${CHECK_WORK}/${_style}-${_name}.json" "${client_limit_s}" - \
        "${_client}" -H 127.0.0.1 -p "${SERVER_PORT}" --format json --io-timeout 10 \
        --csv-summary "${CSV}" "$@"
}

# counts_seen: the last run's counts, for the log.
counts_seen() {
    echo "points=$(report_field summary.num_points)" \
        "server_received=$(report_field load.server.messages_received)" \
        "warm-up=$(report_field warmup.messages)"
}

# csv_column NAME LINE: the field under header NAME on line LINE of $CSV.
csv_column() {
    awk -F, -v name="$1" -v line="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i }
        NR == line && col { print $col }' "${CSV}"
}

# warm_up STYLE SERVER CLIENT [TRANSPORT ARGS...]
warm_up() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    CSV="${CHECK_WORK}/${_style}-summary.csv"
    start_server "${CHECK_WORK}/${_style}-srv.log" - "${_server}" "$@" -p 0

    counted_run "${_style}" ping-pong "${_client}" "$@" -s 4 -c 50 --primer 7
    expect_field summary.num_points 50
    expect_field config.primer_iterations 7
    grep -q "Test for 57 iterations" "${CHECK_WORK}/${_style}-srv.log" ||
        mismatches="${mismatches}; the server was not asked for 57 iterations"
    judge "${_style} ping-pong --primer 7" "$(counts_seen)"

    counted_run "${_style}" rate-primer "${_client}" "$@" -s 5 --flows 2 --rate 200 -c 30 \
        --primer 7 --interval 0
    expect_field load.messages_sent 60
    expect_field load.messages_lost 0
    expect_field load.server.messages_received 74
    expect_field load.server.replies_sent 74
    judge "${_style} rate --primer 7" "$(counts_seen)"

    counted_run "${_style}" rate-warmup "${_client}" "$@" -s 5 --flows 2 --rate 200 \
        --duration 1 --warmup 0.5 --interval 0
    expect_field warmup.messages 200
    expect_field load.messages_sent 400
    expect_field load.messages_replied 400
    expect_field load.server.messages_received 800
    judge "${_style} rate --warmup 0.5" "$(counts_seen)"

    server_alive "${SERVER_PID}" "${CHECK_WORK}/${_style}-srv.log"
    stop_pid "${SERVER_PID}"

    [ "$(wc -l <"${CSV}")" -eq 4 ] || fail "${_style}: the summary file is not a header and 3 lines: $(cat "${CSV}")"
    [ "$(csv_column count 2)" = 50 ] && [ "$(csv_column count 3)" = 60 ] &&
        [ "$(csv_column count 4)" = 400 ] ||
        fail "${_style}: the summary's counts are $(csv_column count 2), $(csv_column count 3), $(csv_column count 4), not 50, 60, 400"
    [ -n "$(csv_column p99_9999_us 4)" ] || fail "${_style}: no p99.9999 in the summary"
    log "${_style} --csv-summary: header and 3 lines, counts 50, 60, 400"
}

warm_up stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
warm_up seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt
pass "--primer and --warmup counted exactly by the server, --csv-summary a header and a line per run, SOCK_STREAM and SOCK_SEQPACK"
