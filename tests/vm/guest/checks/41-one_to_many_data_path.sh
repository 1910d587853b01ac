# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 450
# (A bound for a hang only. The plain programs took 20 s of it with the VM
# alone on the host; with the default 100 primers, the sanitized ones took
# 210 s beside the other VM run.)
# SOCK_SEQPACK_srv serves every association on its one one-to-many socket
# (the default data path), and still peels each one off with --peel-off.
#
#   one socket: 1000 associations from one client (--flows 1000), each
#               --rate 2 -c 2 after its 10 primers: 1000 x 2 = 2000
#               messages timed and replied, the server saw 1000 x (2 + 10)
#               = 12000. While they run, the server holds 1000 associations
#               in /proc/net/sctp/assocs and at most a handful of sockets in
#               /proc/PID/fd: had it peeled them off, it would hold 1001.
#   peel-off:   the same with --peel-off and 200 flows (400 timed, 2400 at
#               the server): now the server holds a socket per association.
#               The client sets them up 8 at a time (--connect-window 8)
#               instead of the default 256.
#
# The client holds a socket per association in both runs: SCTP allows one
# association between two endpoints (RFC 9260, section 2.2), so one client
# socket can reach one server port once. It sets them up many at a time
# (--connect-window), each a non-blocking sctp_connectx, in one event loop;
# the check logs the set-up time it reports (setup_s, which includes the
# primers), emulated like every time here.
#
# --primer 10, not the default 100: the primers run one at a time on each
# association, and under TCG 1000 x 100 of them took 100 to 180 s of each VM
# run; ten still send 1000 requests at once, ten times over.
#
# One socket's buffers serve all its associations, so the one-socket run
# sizes them for 1000 (see man SOCK_SEQPACK_srv, "Data paths"):
#  - --rcvbuf 8 MiB: the primers run in step, so 1000 requests land on the
#    socket at once, more than the default receive buffer takes: the kernel
#    drops the rest and each drop waits out a retransmission timeout. With
#    the default, 1000 associations took 168 to 232 s under TCG (10,623 T3
#    retransmissions in one run); with 8 MiB, 18 s and none.
#  - net.sctp.sndbuf_policy 1: with 0, the default, Linux wakes the writers
#    of every association of the socket each time a sent chunk is freed, a
#    walk over all of them per chunk; 300 associations took 57 s under TCG
#    with 0 and 14 s with 1.
# Counts only; the guest's timing is emulated.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=200
primer=10
need_modules
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt
policy_file=/proc/sys/net/sctp/sndbuf_policy
[ -w "${policy_file}" ] || skip "no ${policy_file} to set"

# server_sockets PID: the sockets the process holds open.
server_sockets() {
    ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'socket:'
}

# load_value KEY: KEY of the last report's "load" object (or of its
# "server" account), read from the part before its per-flow list: a
# thousand flows make json_flatten take minutes under TCG.
load_value() {
    awk '/"load": \{/ { on = 1 } /"per_flow"/ { on = 0 } on' "${REPORT}" |
        sed -n "s/^ *\"$1\": \([0-9.]*\),*$/\1/p" | head -n 1
}

# many_flows NAME FLOWS WINDOW [SERVER ARGS...]: one server, one client of
# FLOWS flows set up WINDOW at a time; samples the server's associations and
# sockets while it runs. Sets REPORT, MOST_ASSOCS and SOCKETS_AT_MOST (the
# server's sockets when it held the most associations).
many_flows() {
    _name="$1"
    _flows="$2"
    _window="$3"
    shift 3
    # --header-timeout 60: under TCG on a busy host, setting up 256
    # associations at once took more than the default 2 s between an
    # association coming up at the server and its test header arriving, and
    # the server ended those sessions (the client then read "no answer to
    # the test header: the peer closed the association"). The check is of
    # the data path; header timeouts have checks of their own. --io-timeout
    # 150 at both ends: the first flow's session waits for its primer until
    # all the flows are set up, which took 75 s for the sanitized programs
    # on a slow, busy host.
    start_server "${CHECK_WORK}/${_name}-srv.log" - SOCK_SEQPACK_srv -p 0 --io-timeout 150 \
        --header-timeout 60 "$@"
    REPORT="${CHECK_WORK}/${_name}.json"
    _started="$(now_s)"
    start_client "${REPORT}" - SOCK_SEQPACK_clt -H 127.0.0.1 -p "${SERVER_PORT}" -s 7 \
        --flows "${_flows}" --connect-window "${_window}" --primer "${primer}" --rate 2 -c 2 --interval 0 \
        --format json --io-timeout 150
    _pid="${CLIENT_PID}"
    MOST_ASSOCS=0
    SOCKETS_AT_MOST=0
    _ticks=0
    while kill -0 "${_pid}" 2>/dev/null && [ "${_ticks}" -lt $((client_limit_s * 2)) ]; do
        _assocs="$(count_assocs "${SERVER_PORT}")"
        if [ "${_assocs}" -gt "${MOST_ASSOCS}" ]; then
            MOST_ASSOCS="${_assocs}"
            SOCKETS_AT_MOST="$(server_sockets "${SERVER_PID}")"
        fi
        sleep 0.5
        _ticks=$((_ticks + 1))
    done
    _status=0
    wait_bounded "${_pid}" 1 || _status=$?
    RUN_S="$(float_sub "$(now_s)" "${_started}")"
    if [ "${_status}" -ne 0 ]; then
        tail -n 5 "${REPORT}.err" | sed 's/^/    client: /'
        show_server_logs
        fail "${_name}: client exited with status ${_status} [${RUN_S} s]"
    fi
    server_alive "${SERVER_PID}" "${CHECK_WORK}/${_name}-srv.log"
}

# accounted NAME FLOWS DATA_PATH: every message of the last run accounted for.
accounted() {
    mismatches=""
    for _pair in "messages_sent $(($2 * 2))" "messages_received_by_server $(($2 * 2))" \
        "messages_replied $(($2 * 2))" "messages_lost 0" "messages_duplicated 0" \
        "messages_received $(($2 * (2 + ${primer})))" "flows $2"; do
        set -- "$1" "$2" "$3" ${_pair}
        _got="$(load_value "$4")"
        [ "${_got}" = "$5" ] || mismatches="${mismatches}; load.$4 is '${_got}', expected $5"
    done
    grep -q "\"data_path\": \"$3\"" "${REPORT}" ||
        mismatches="${mismatches}; the server's data path is not '$3'"
    if [ -n "${mismatches}" ]; then
        show_server_logs
        fail "$1:${mismatches#;}"
    fi
    log "$1: sent=$(load_value messages_sent) replied=$(load_value messages_replied)" \
        "server_received=$(load_value messages_received) data path '$3';" \
        "server associations at most ${MOST_ASSOCS}, server sockets then ${SOCKETS_AT_MOST};" \
        "client set-up $(load_value setup_s) s [${RUN_S} s]"
}

policy_before="$(cat "${policy_file}")"
echo 1 >"${policy_file}"
many_flows one-socket 1000 256 --rcvbuf 8388608
echo "${policy_before}" >"${policy_file}"
accounted one-socket 1000 "one-to-many, one socket"
[ "${MOST_ASSOCS}" -ge 1000 ] ||
    fail "one-socket: the server held at most ${MOST_ASSOCS} associations at once, expected 1000"
[ "${SOCKETS_AT_MOST}" -le 4 ] ||
    fail "one-socket: the server held ${SOCKETS_AT_MOST} sockets with ${MOST_ASSOCS} associations up: it peeled them off"
one_socket_sockets="${SOCKETS_AT_MOST}"
stop_pid "${SERVER_PID}"

many_flows peel-off 200 8 --peel-off
accounted peel-off 200 "one-to-many, each association peeled off"
# Sampled as the associations come up, a few may not be peeled off yet.
[ "${SOCKETS_AT_MOST}" -ge 100 ] ||
    fail "peel-off: the server held ${SOCKETS_AT_MOST} sockets with ${MOST_ASSOCS} associations up, expected about one per association"
pass "1000 associations set up 256 at a time, the server holding ${one_socket_sockets} socket(s), every message accounted for; --peel-off held ${SOCKETS_AT_MOST} for 200 set up 8 at a time"
