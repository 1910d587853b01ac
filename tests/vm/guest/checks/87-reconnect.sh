# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 300
# --reconnect over real SCTP, both socket styles: the server is killed
# (SIGKILL: its kernel aborts the associations) 2 s into a rate run and
# started again on the same port at 3 s, both by the client's own --at
# commands. Each of the 4 flows must see its association end once, between
# the kill and the restart (the abort, not a timeout), be set up again after
# the restart, and the run must go on to its end and exit 0, with every
# message accounted for: the replies asked for came or were owed when the
# association ended (none lost otherwise), and what was sent is what the
# restarted server accounts for plus what went on the associations that
# ended. The outages are logged, not judged: timing in the VM is emulated.
# With --timestamps, which each flow turns on again on its new association:
# every measured reply is split by its receive stamps.
#
#   client: -s 6 --rate 100 --flows 4 --duration 6 --reconnect
#           --reconnect-backoff 0.1 --timestamps --at '2:kill -KILL SERVER'
#           --at '3:restart the server on its port, return once it listens'
#   bound:  the run's 6 s and the restart, scaled from a calibration (the
#           same load for 1 s), as every bound on time here.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_both_styles
need_option SOCK_STREAM_clt reconnect

# restart_script FILE PROGRAM PORT LOG: a command for --at that starts the
# server again on PORT in the background and returns once it listens.
restart_script() {
    cat >"$1" <<EOF
#!/bin/sh
"${SCTPPERF_BIN}/$2" -p $3 </dev/null >"$4.out" 2>"$4" &
echo \$! >"$4.pid"
i=0
while [ \$i -lt 200 ]; do
    grep -q "starting server at port" "$4" && exit 0
    sleep 0.1
    i=\$((i + 1))
done
exit 1
EOF
    chmod +x "$1"
}

# reconnect_run STYLE SERVER CLIENT [TRANSPORT ARGS...]
reconnect_run() {
    _style="$1"
    _server="$2"
    _client="$3"
    shift 3
    start_server "${CHECK_WORK}/${_style}-srv.log" - "${_server}" "$@" -p 0
    _port="${SERVER_PORT}"
    calibrate "${_style} calibration" 1 "${CHECK_WORK}/${_style}-cal.json" - "${_client}" "$@" \
        -H 127.0.0.1 -p "${_port}" -s 6 --rate 100 --flows 4 --duration 1 --format json
    _restart="${CHECK_WORK}/${_style}-restart.sh"
    _again="${CHECK_WORK}/${_style}-srv2.log"
    restart_script "${_restart}" "${_server}" "${_port}" "${_again}"
    run_report "${_style}" "${CHECK_WORK}/${_style}.json" "$(scaled_s 8)" - "${_client}" "$@" \
        -H 127.0.0.1 -p "${_port}" -s 6 --rate 100 --flows 4 --duration 6 --format json \
        --reconnect --reconnect-backoff 0.1 --timestamps \
        --at "2:kill -KILL ${SERVER_PID}" --at "3:${_restart}"
    if [ -s "${_again}.pid" ]; then
        _again_pid="$(cat "${_again}.pid")"
        echo "${_again_pid}" >>"${PID_FILE}"
        SERVER_LOGS="${SERVER_LOGS:-} ${_again}"
    fi
    expect_field faults.0.exit_status 0
    expect_field faults.1.exit_status 0
    expect_field load.reconnect.connections_lost 4
    expect_field load.reconnect.resumed 4
    expect_field load.reconnect.not_over 0
    expect_field load.messages_lost 0
    judge "${_style}: the outages"
    _kill_s="$(report_field faults.0.started_s)"
    _back_s="$(report_field faults.1.started_s)"
    _sent="$(report_field load.messages_sent)"
    _by_server="$(report_field load.messages_received_by_server)"
    _on_lost="$(report_field load.reconnect.messages_sent_on_lost_connections)"
    _asked="$(report_field load.messages_echo_requested)"
    _replied="$(report_field load.messages_replied)"
    _owed="$(report_field load.reconnect.replies_lost)"
    [ $((_by_server + _on_lost)) -eq "${_sent}" ] ||
        mismatches="${mismatches}; sent ${_sent}, not received by the server ${_by_server} + sent on the associations that ended ${_on_lost}"
    [ $((_replied + _owed)) -eq "${_asked}" ] ||
        mismatches="${mismatches}; replies asked ${_asked}, not replied ${_replied} + owed at the outages ${_owed}"
    _f=0
    _lasted=""
    while [ "${_f}" -lt 4 ]; do
        _began="$(report_field "load.per_flow.${_f}.outages.0.began_s")"
        _ms="$(report_field "load.per_flow.${_f}.outages.0.lasted_ms")"
        [ -z "$(report_field "load.per_flow.${_f}.outages.1.began_s")" ] ||
            mismatches="${mismatches}; flow ${_f} has more than one outage"
        float_ge "${_began}" "${_kill_s}" && float_lt "${_began}" "${_back_s}" ||
            mismatches="${mismatches}; flow ${_f}'s outage began at ${_began} s, not between the kill (${_kill_s} s) and the restart (${_back_s} s)"
        float_ge "$(awk -v b="${_began}" -v m="${_ms}" 'BEGIN { print b + m / 1000 }')" "${_back_s}" ||
            mismatches="${mismatches}; flow ${_f} was back (${_began} s + ${_ms} ms) before the restart began (${_back_s} s)"
        _lasted="${_lasted} ${_ms}"
        _f=$((_f + 1))
    done
    # --timestamps: each flow turns its stamps on again on its new
    # association. Every measured reply split (none lacking its arrival
    # stamp: SCTP gives each message a read of its own), none below 0.
    _split="$(report_field round_trip_split.split_round_trips)"
    _missing="$(report_field round_trip_split.missing_stamps)"
    expect_field round_trip_split.negative_parts 0
    expect_field round_trip_split.clock_set_round_trips 0
    [ "${_missing:-x}" = 0 ] && [ "${_split:-x}" = "${_replied}" ] ||
        mismatches="${mismatches}; ${_split} of ${_replied} replies split, ${_missing} missing a stamp"
    judge "${_style}: every message accounted for, each flow back after the restart" \
        "sent ${_sent} (${_by_server} to the restarted server, ${_on_lost} before the kill), replied ${_replied} (${_split} split), owed ${_owed}; killed at ${_kill_s} s, restarted at ${_back_s} s; out of service (ms):${_lasted}; cause: $(report_field load.per_flow.0.outages.0.cause)"
    [ -z "${_again_pid:-}" ] || stop_pid "${_again_pid}"
    _again_pid=""
}

# SCTP is SOCK_STREAM's default transport; named here so the check says it.
reconnect_run stream SOCK_STREAM_srv SOCK_STREAM_clt -t sctp
reconnect_run seqpack SOCK_SEQPACK_srv SOCK_SEQPACK_clt
pass "a rate run of 4 flows whose server is killed and started again goes on to its end:" \
    "each flow's association ends once, between the kill and the restart, and comes back" \
    "after it; every message accounted for and split by its stamps; SOCK_STREAM and SOCK_SEQPACK"
