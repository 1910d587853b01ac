# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 150
# One-way latency (--one-way) over real SCTP on every server path that
# stamps replies: SOCK_STREAM_srv's event workers (SCTP one-to-one),
# SOCK_SEQPACK_srv's one-to-many reader, and its --peel-off sessions. Each
# path runs ping-pong (200 round trips) and rate mode (2 flows x 200
# messages at 500/s), and the stamps must be sane:
#   - every measured round trip split (num_points of each part = the
#     round trips or replies measured);
#   - one host: same_host true, no part below 0 (negative_parts 0);
#   - the means of client->server + turnaround + server->client add up to
#     the mean round trip within 0.01 us (each mean is rounded to 0.001 us;
#     the sum is exact per sample on one clock);
#   - the turnaround mean is below the round trip's.
# Without the stamps (a server that refuses them, or stamps from another
# clock) a run fails or its parts go below 0. Timing in the guest is
# emulated: no latency is judged, only that the split is consistent.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles
need_option SOCK_STREAM_clt --one-way

# split_run LABEL CLIENT RTT_MEAN_PATH POINTS ARGS...: one run with --one-way
# against the server started last; judges the split.
split_run() {
    _label="$1"
    _client="$2"
    _rtt_path="$3"
    _points="$4"
    shift 4
    run_report "${_label}" "${CHECK_WORK}/$(echo "${_label}" | tr ' /' '__').json" \
        "${client_limit_s}" - "${_client}" -H 127.0.0.1 -p "${SERVER_PORT}" --format json \
        --io-timeout 10 --one-way "$@"
    expect_field one_way.same_host true
    expect_field one_way.negative_parts 0
    expect_field one_way.client_to_server.summary.num_points "${_points}"
    expect_field one_way.server_turnaround.summary.num_points "${_points}"
    expect_field one_way.server_to_client.summary.num_points "${_points}"
    _up="$(report_field one_way.client_to_server.summary.mean_us)"
    _turn="$(report_field one_way.server_turnaround.summary.mean_us)"
    _down="$(report_field one_way.server_to_client.summary.mean_us)"
    _rtt="$(report_field "${_rtt_path}")"
    awk -v u="${_up}" -v t="${_turn}" -v d="${_down}" -v r="${_rtt}" \
        'BEGIN { s = u + t + d; e = s - r; if (e < 0) e = -e; exit !(u > 0 && d > 0 && t < r && e <= 0.01) }' ||
        mismatches="${mismatches}; parts ${_up} + ${_turn} + ${_down} us against a round trip of ${_rtt} us"
    judge "${_label}"
    log "${_label}: client->server ${_up} + turnaround ${_turn} + server->client ${_down} us = round trip ${_rtt} us (means, emulated timing)"
}

# one_way_on STYLE SERVER CLIENT [ARGS...]: ping-pong and rate against one
# fresh server; ARGS go to both ends.
one_way_on() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    _server_args=""
    _data_path="one-to-one"
    [ "${_style}" = "one-to-many" ] && _data_path="one-to-many, one socket"
    [ "${_style}" = "peel-off" ] && _server_args="--peel-off" &&
        _data_path="one-to-many, each association peeled off"
    # shellcheck disable=SC2086
    start_server "${CHECK_WORK}/${_style}-srv.log" - "${_server}" "$@" ${_server_args} -p 0
    split_run "${_style} ping-pong" "${_client}" summary.mean_us 200 -s 7 -c 200 "$@"
    # The path the server says it took, so that each path is the one meant.
    _path="$(report_field server.data_path)"
    [ "${_path}" = "${_data_path}" ] || fail "${_style}: the server's data path is '${_path}', not '${_data_path}'"
    split_run "${_style} rate" "${_client}" load.latency_uncorrected.mean_us 400 -s 7 \
        --rate 500 -c 200 --flows 2 --interval 0 "$@"
    server_alive "${SERVER_PID}" "${CHECK_WORK}/${_style}-srv.log"
    stop_pid "${SERVER_PID}"
}

one_way_on stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
one_way_on one-to-many SOCK_SEQPACK_srv SOCK_SEQPACK_clt
one_way_on peel-off SOCK_SEQPACK_srv SOCK_SEQPACK_clt
pass "--one-way over SCTP: the server's stamps split every round trip consistently on SOCK_STREAM, SOCK_SEQPACK one-to-many and --peel-off, ping-pong and rate"
