# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 200
# What --timestamps shows is true: a delay put at a known place on the path
# appears in the part of the split that holds that place, and nowhere else.
# netem delays each packet 1 ms in a queueing discipline:
#   - on the server's side of a link (its replies wait): "beyond the
#     client" (the network and the server, device to device) must hold it:
#     its minimum >= 1000 us, while the client's send and receive stacks
#     stay below 1000 us at p50;
#   - on the client's side (its requests wait in its own qdisc, before the
#     device): the client's send stack must hold it (the kernel stamps a
#     request as the device takes it, after the qdisc): its minimum
#     >= 1000 us, while "beyond the client" and the receive stack stay below
#     1000 us at p50;
#   - at the server again, with the server's stamps (--one-way, whose
#     replies over TCP carry the server kernel's transmit stamps): the
#     server's reply waits in its own qdisc, before its device, so the
#     server's send stack must hold the delay (minimum >= 1000 us) and the
#     network, the server's other parts and the client's stacks not.
# TCP, whose kernel stamps what it sends; and over SCTP (receive stamps
# only) the server-side delay in "send stack and beyond". Netem never
# delivers early, so each minimum is a hard bound. The p50 bounds leave the
# emulated guest's timer slack; a part that took the delay fails them
# (1000 us more), and a busy host gets three attempts, all printed.
#
#   ns c  sd0c 10.77.7.1/24 ---- netem 1 ms at sd0s (server side) ---- sd0s 10.77.7.2/24  ns s
#         cd0c 10.77.8.1/24 ---- netem 1 ms at cd0c (client side) ---- cd0s 10.77.8.2/24
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

count=200
added_us=1000
need_modules
require_program SOCK_STREAM_srv
need_option SOCK_STREAM_clt --timestamps

make_netns c
make_netns s
veth_link c sd0c 10.77.7.1/24 s sd0s 10.77.7.2/24
veth_link c cd0c 10.77.8.1/24 s cd0s 10.77.8.2/24
ip netns exec s "${TC}" qdisc add dev sd0s root netem delay 1ms || fail "tc netem on sd0s failed"
ip netns exec c "${TC}" qdisc add dev cd0c root netem delay 1ms || fail "tc netem on cd0c failed"

# split_holds WHAT TRANSPORT HOST DELAYED_PART OTHER_PARTS [CLIENT_OPTION...]:
# runs until the split puts the delay in DELAYED_PART (minimum >= added_us,
# always) and not in OTHER_PARTS (p50 below added_us), up to three attempts.
split_holds() {
    _what="$1"
    _transport="$2"
    _host="$3"
    _delayed="$4"
    _others="$5"
    shift 5
    _attempt=1
    while :; do
        _out="${CHECK_WORK}/$(echo "${_what}" | tr ' ,' '__')-${_attempt}.json"
        run_report "${_what}" "${_out}" 60 c SOCK_STREAM_clt -t "${_transport}" -H "${_host}" \
            -p "${SERVER_PORT}" -s 6 -c "${count}" --timestamps --format json --io-timeout 10 "$@"
        expect_field round_trip_split.split_round_trips "${count}"
        expect_field round_trip_split.missing_stamps 0
        judge "${_what}"
        _min="$(report_field "round_trip_split.parts.${_delayed}.summary.min_us")"
        _seen="${_delayed} min ${_min} us"
        float_ge "${_min}" "${added_us}" ||
            fail "${_what}: ${_delayed} has a minimum of ${_min} us, below the ${added_us} us netem adds there"
        _clear=yes
        for _part in ${_others}; do
            _p50="$(report_field "round_trip_split.parts.${_part}.percentiles.p50_us")"
            _seen="${_seen}, ${_part} p50 ${_p50} us"
            float_lt "${_p50}" "${added_us}" || _clear=no
        done
        log "${_what} attempt ${_attempt}: ${_seen} (round trip p50 $(report_field percentiles.p50_us) us)"
        [ "${_clear}" = yes ] && break
        [ "${_attempt}" -lt 3 ] ||
            fail "${_what}: the delay shows in a part other than ${_delayed}, three times: ${_seen}"
        _attempt=$((_attempt + 1))
    done
}

start_server "${CHECK_WORK}/srv-tcp.log" s SOCK_STREAM_srv -t tcp -p 0
split_holds "TCP, delay at the server" tcp 10.77.7.2 beyond_the_client \
    "client_send_stack client_receive_stack"
split_holds "TCP, delay at the client" tcp 10.77.8.2 client_send_stack \
    "beyond_the_client client_receive_stack"
split_holds "TCP --one-way, delay at the server" tcp 10.77.7.2 server_send_stack \
    "client_send_stack network server_receive_and_wake_up server_application client_receive_stack" \
    --one-way
stop_pid "${SERVER_PID}"
start_server "${CHECK_WORK}/srv-sctp.log" s SOCK_STREAM_srv -t sctp -p 0
split_holds "SCTP, delay at the server" sctp 10.77.7.2 send_stack_and_beyond client_receive_stack
stop_pid "${SERVER_PID}"
pass "a 1 ms netem delay shows in the part that holds it: at the server in beyond the client (TCP) or send stack and beyond (SCTP), and with the server's stamps in its send stack, not the network (TCP); at the client in its send stack (TCP)"
