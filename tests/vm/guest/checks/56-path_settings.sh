# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 240
# The path settings read back at both ends of both socket styles: a
# SOCK_STREAM client against SOCK_STREAM_srv (bound to any address, so that
# its association has both of the server's), then SOCK_SEQPACK_clt against
# SOCK_SEQPACK_srv on its one socket and with --peel-off, over two links.
# The client asks for --sctp-hb-interval 150 (off with SEQPACK
# --peel-off), --sctp-path-max-retrans 3, --sctp-assoc-max-retrans 7,
# --sctp-pf-threshold 1 and --sctp-primary 10.77.2.2; the server for 250, 4,
# 9 and 2. Each value must come back as asked from each end's association
# (the client's environment.sctp_paths_socket, the server's sctp_paths in
# its settings; the heartbeat in whole kernel ticks), the primary as the
# second server address, and the asked values in
# config.sctp_paths_requested. Then, with net.sctp.pf_enable 0 in the
# client's namespace, --sctp-pf-threshold is refused with exit 1 and one
# sentence: no threshold can act there.
#
# A first run without path options, over the same links, is the
# calibration every time bound of the check is scaled by (lib.sh's
# calibrate), and shows that a client that asks nothing of its paths
# states the settings in use and watches nothing: its report has no paths.
#
#   ns c                                 ns s
#   mh0c 10.77.1.1/24 ---- path 1 ---- mh0s 10.77.1.2/24
#   mh1c 10.77.2.1/24 ---- path 2 ---- mh1s 10.77.2.2/24
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_both_styles
need_option SOCK_STREAM_clt sctp-pf-threshold
need_option SOCK_SEQPACK_srv sctp-pf-threshold

two_paths

server_paths="--sctp-hb-interval 250 --sctp-path-max-retrans 4 --sctp-assoc-max-retrans 9 --sctp-pf-threshold 2"
# --header-timeout 20 on every server: under the sanitizers, on a host busy
# with the rest of the test command, a client can take longer than the
# default 2 s from its association to its test header (50-multihoming_failover
# did); this check is about the paths, not that.
patience="--header-timeout 20"
client_paths="--sctp-path-max-retrans 3 --sctp-assoc-max-retrans 7 --sctp-pf-threshold 1 --sctp-primary 10.77.2.2"
# 100 messages at 200 a second: half a second of planned work.
load="-s 6 --rate 200 -c 100 --format json --io-timeout 20"
planned_s=0.5

# in_ticks FIELD ASKED: the heartbeat interval read back is the one asked
# for in whole kernel ticks (Linux keeps it in jiffies: 150 ms reads back
# as 152 at HZ 250), so at least ASKED and less than a tick (10 ms at the
# lowest HZ, 100) above it; a mismatch is noted as expect_field does.
in_ticks() {
    _got="$(report_field "$1")"
    awk -v g="${_got}" -v a="$2" 'BEGIN { exit !(g != "" && g + 0 >= a && g + 0 < a + 10) }' ||
        mismatches="${mismatches}; $1 is '${_got}', expected $2 in whole ticks"
}

# expect_paths WHAT CLIENT_HB HB_ENABLED: the last run's report against
# what both ends asked for.
expect_paths() {
    in_ticks environment.sctp_paths_socket.hb_interval_ms "$2"
    expect_field environment.sctp_paths_socket.hb_enabled "$3"
    expect_field environment.sctp_paths_socket.path_max_retrans 3
    expect_field environment.sctp_paths_socket.assoc_max_retrans 7
    expect_field environment.sctp_paths_socket.pf_threshold 1
    expect_field environment.sctp_paths_socket.primary "10.77.2.2:${port}"
    expect_field config.sctp_paths_requested.path_max_retrans 3
    expect_field config.sctp_paths_requested.primary 10.77.2.2
    in_ticks server.sctp_paths.hb_interval_ms 250
    expect_field server.sctp_paths.hb_enabled true
    expect_field server.sctp_paths.path_max_retrans 4
    expect_field server.sctp_paths.assoc_max_retrans 9
    expect_field server.sctp_paths.pf_threshold 2
    # The first flow's paths at the end: both of the server's addresses.
    expect_field paths.final.primary "10.77.2.2:${port}"
    expect_field load.messages_replied 100
    judge "$1" "client hb $(report_field environment.sctp_paths_socket.hb_interval_ms) ms \
(enabled $(report_field environment.sctp_paths_socket.hb_enabled)), path-max-retrans \
$(report_field environment.sctp_paths_socket.path_max_retrans), assoc-max-retrans \
$(report_field environment.sctp_paths_socket.assoc_max_retrans), pf threshold \
$(report_field environment.sctp_paths_socket.pf_threshold), primary \
$(report_field environment.sctp_paths_socket.primary); server hb \
$(report_field server.sctp_paths.hb_interval_ms) ms, path-max-retrans \
$(report_field server.sctp_paths.path_max_retrans), assoc-max-retrans \
$(report_field server.sctp_paths.assoc_max_retrans), pf threshold \
$(report_field server.sctp_paths.pf_threshold); paths at the end: \
$(report_field paths.final.paths.0.address) $(report_field paths.final.paths.0.state), \
$(report_field paths.final.paths.1.address) $(report_field paths.final.paths.1.state)"
}

# shellcheck disable=SC2086 # the option lists are lists
start_server "${CHECK_WORK}/stream-srv.log" s SOCK_STREAM_srv -p 0 ${server_paths} ${patience}
port="${SERVER_PORT}"
# shellcheck disable=SC2086
calibrate "SOCK_STREAM, no path option" "${planned_s}" "${CHECK_WORK}/calibrate.json" c \
    SOCK_STREAM_clt -H 10.77.1.2 -p "${port}" ${load}
# Nothing asked of the paths: the settings in use, no paths watched.
expect_field environment.sctp_paths_socket.path_max_retrans 5
expect_field config.sctp_paths_requested.path_max_retrans null
expect_field paths.final.primary ""
judge "SOCK_STREAM, no path option" "the system's path-max-retrans \
$(report_field environment.sctp_paths_socket.path_max_retrans), no paths in the report"
limit_s="$(scaled_s "${planned_s}")"

# shellcheck disable=SC2086
run_report "SOCK_STREAM" "${CHECK_WORK}/stream.json" "${limit_s}" c SOCK_STREAM_clt \
    -H 10.77.1.2 -p "${port}" ${load} --sctp-hb-interval 150 ${client_paths}
expect_paths "SOCK_STREAM" 150 true
stop_pid "${SERVER_PID}"

# shellcheck disable=SC2086
start_server "${CHECK_WORK}/seqpack-srv.log" s SOCK_SEQPACK_srv -p 0 -a 10.77.1.2,10.77.2.2 \
    ${server_paths} ${patience}
port="${SERVER_PORT}"
seqpack="-H 10.77.1.2,10.77.2.2 -i 10.77.1.1,10.77.2.1 -p ${port}"
# shellcheck disable=SC2086
run_report "SOCK_SEQPACK, one socket" "${CHECK_WORK}/seqpack.json" "${limit_s}" c \
    SOCK_SEQPACK_clt ${seqpack} ${load} --sctp-hb-interval 150 ${client_paths}
expect_paths "SOCK_SEQPACK, one socket" 150 true
stop_pid "${SERVER_PID}"

# shellcheck disable=SC2086
start_server "${CHECK_WORK}/peel-srv.log" s SOCK_SEQPACK_srv -p 0 -a 10.77.1.2,10.77.2.2 \
    --peel-off ${server_paths} ${patience}
port="${SERVER_PORT}"
seqpack="-H 10.77.1.2,10.77.2.2 -i 10.77.1.1,10.77.2.1 -p ${port}"
# shellcheck disable=SC2086
run_report "SOCK_SEQPACK --peel-off" "${CHECK_WORK}/peel.json" "${limit_s}" c \
    SOCK_SEQPACK_clt ${seqpack} ${load} --sctp-hb-interval off ${client_paths}
# A heartbeat switched off keeps its interval; only the flag says it is off.
expect_paths "SOCK_SEQPACK --peel-off" \
    "$(report_field environment.sctp_paths_socket.hb_interval_ms)" false

# A threshold that cannot act is refused, in one sentence.
set_pf_enable 0 c
out="${CHECK_WORK}/pf-off.json"
status=0
# shellcheck disable=SC2086
run_client "${out}" "${limit_s}" c SOCK_SEQPACK_clt ${seqpack} -s 6 -c 10 \
    --sctp-pf-threshold 1 || status=$?
[ "${status}" -eq 1 ] || fail "--sctp-pf-threshold with net.sctp.pf_enable 0: exit ${status}, not 1"
grep -q "^SOCK_SEQPACK_clt: --sctp-pf-threshold 1 cannot take effect: net.sctp.pf_enable is 0" \
    "${out}.err" || {
    show_client_stderr "${out}"
    fail "--sctp-pf-threshold with net.sctp.pf_enable 0: not the sentence expected"
}
log "with net.sctp.pf_enable 0: $(cat "${out}.err")"
server_alive "${SERVER_PID}" "${CHECK_WORK}/peel-srv.log"
pass "path settings read back at both ends of SOCK_STREAM, SOCK_SEQPACK and --peel-off; the pf threshold refused where pf_enable is 0"
