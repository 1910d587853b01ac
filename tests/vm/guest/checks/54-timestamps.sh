# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 300
# --timestamps against the real kernel: each round trip split by the
# kernel's software stamps at the client. Over SCTP the kernel stamps only
# what it receives, so the split has two parts (the send stack and beyond,
# the client's receive stack) and says the transmit stamps are missing; over
# TCP it has three. On every path a reply is read by (SOCK_STREAM's plain
# read, its reads that ask which stream a message came on (--streams 3), and
# SOCK_SEQPACK's one-to-many socket), 200 round trips each:
#   - every measured round trip split, none missing a stamp, no part below 0,
#     no transmit stamp left unmatched but the repeats of retransmitted
#     segments (TCP: one a retransmission at most; SCTP has none);
#   - in the middle and the slowest bands of round trips, the parts' shares
#     add up to 100 % (to the rounding of each share to 0.001);
#   - the parts' means add up to the mean round trip within 5 % (the split
#     is read on CLOCK_REALTIME, the round trip on the steady clock, each
#     pair back to back; a preemption between two such reads in the
#     emulated guest moves one sample, not the mean).
# Each path runs again with --one-way: every reply then carries the server's
# stamps, its kernel's receive stamp among them, and the server's receive
# and wake-up and its application are parts of their own, taken out of the
# time beyond the client (TCP) or out of the send stack and beyond (SCTP);
# over TCP each reply also carries the server's kernel transmit stamp of
# the reply before, so that the server's send stack is a part too and the
# network a part alone; the same checks hold for the six or four parts.
# Under load each style runs framed ping-pong (every round trip split) and a
# rate over 4 flows with --one-way (every reply split or counted missing;
# over TCP into the six parts, a reply bringing the server's transmit stamp
# of the flow's reply before).
# Last, what the split shows is true on each SCTP style: a server made to
# hold every ping-pong reply (its test hook --test-reply-delay, with
# SCTP_PERF_TEST_HOOKS=1) puts the hold into the server application alone,
# one made to take every request late after its read (--test-wake-delay)
# into the server's receive and wake-up alone. The server polls its clock
# through the hold where the hook puts it, so that part's shortest is at
# least the hold, and the other parts' medians stay under half of it.
# Timing in the guest is emulated: no latency is judged, only that the
# stamps are there and consistent.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

client_limit_s=40
need_both_styles
need_option SOCK_STREAM_clt --timestamps

# split_run LABEL CLIENT PARTS ARGS...: 200 round trips with --timestamps
# against the server started last; PARTS are the parts the split must have.
split_run() {
    _label="$1"
    _client="$2"
    _parts="$3"
    shift 3
    run_report "${_label}" "${CHECK_WORK}/$(echo "${_label}" | tr ' /' '__').json" \
        "${client_limit_s}" - "${_client}" -H 127.0.0.1 -p "${SERVER_PORT}" --format json \
        --io-timeout 10 -s 7 -c 200 --timestamps "$@"
    expect_field config.timestamps true
    expect_field round_trip_split.split_round_trips 200
    expect_field round_trip_split.missing_stamps 0
    expect_field round_trip_split.negative_parts 0
    _stray="$(report_field round_trip_split.stray_transmit_stamps)"
    _retransmitted="$(report_field transport.retransmitted_segments)"
    [ "${_stray}" -le "${_retransmitted:-0}" ] ||
        mismatches="${mismatches}; ${_stray} stray transmit stamps with ${_retransmitted:-no} retransmitted segments"
    _sum=0
    for _part in ${_parts}; do
        expect_field "round_trip_split.parts.${_part}.summary.num_points" 200
        _sum="$(awk -v s="${_sum}" -v m="$(report_field "round_trip_split.parts.${_part}.summary.mean_us")" 'BEGIN { printf "%.3f", s + m }')"
    done
    for _band in p45_to_p55 p99_and_above; do
        _shares=0
        for _part in ${_parts}; do
            _shares="$(awk -v s="${_shares}" -v p="$(report_field "round_trip_split.shares.${_band}.parts.${_part}.share_percent")" 'BEGIN { printf "%.3f", s + p }')"
        done
        awk -v s="${_shares}" 'BEGIN { e = s - 100; if (e < 0) e = -e; exit !(e <= 0.01) }' ||
            mismatches="${mismatches}; the shares of ${_band} add up to ${_shares} %"
    done
    _rtt="$(report_field summary.mean_us)"
    awk -v s="${_sum}" -v r="${_rtt}" 'BEGIN { e = s - r; if (e < 0) e = -e; exit !(r > 0 && e <= 0.05 * r) }' ||
        mismatches="${mismatches}; the parts' means add up to ${_sum} us against a round trip of ${_rtt} us"
    judge "${_label}" "parts (${_parts}) add up to ${_sum} us, round trip ${_rtt} us (means, emulated timing)"
}

# load_split_run LABEL CLIENT PARTS LEAST ARGS...: a run of the load engine
# with --timestamps (each message matched to its own stamps) against the
# server started last: the split has PARTS, at least LEAST round trips
# split, none below 0, and every measured reply either split or counted
# missing, the client's arrival stamp missing only for a reply that shared
# its read (client/load/flow_stamps.hpp).
load_split_run() {
    _label="$1"
    _client="$2"
    _parts="$3"
    _least="$4"
    shift 4
    run_report "${_label}" "${CHECK_WORK}/$(echo "${_label}" | tr ' /,' '___').json" \
        "${client_limit_s}" - "${_client}" -H 127.0.0.1 -p "${SERVER_PORT}" --format json \
        --io-timeout 10 -s 7 --timestamps "$@"
    expect_field config.timestamps true
    expect_field round_trip_split.negative_parts 0
    _split="$(report_field round_trip_split.split_round_trips)"
    _missing="$(report_field round_trip_split.missing_stamps)"
    _shared="$(report_field round_trip_split.shared_reads)"
    _no_arrival="$(report_field round_trip_split.missing_by_stamp.client_arrival)"
    _replied="$(report_field load.messages_replied)"
    [ $((${_split:-0} + ${_missing:-0})) -eq "${_replied:-x}" ] ||
        mismatches="${mismatches}; ${_split} split and ${_missing} missing of ${_replied} replies"
    [ "${_split:-0}" -ge "${_least}" ] ||
        mismatches="${mismatches}; ${_split} split, fewer than ${_least}"
    [ "${_no_arrival:-0}" -le "${_shared:-0}" ] ||
        mismatches="${mismatches}; ${_no_arrival} without an arrival stamp, ${_shared} in shared reads"
    for _part in ${_parts}; do
        expect_field "round_trip_split.parts.${_part}.summary.num_points" "${_split}"
    done
    judge "${_label}" "${_split} of ${_replied} replies split (${_parts}), ${_shared} in shared reads"
}

# held_run LABEL HOOK HELD_PART OTHER_PARTS CLIENT ARGS...: 50 round trips
# with --timestamps --one-way against the server started last with the test
# hook HOOK (its settings' key), which must hold HELD_PART alone.
hold_us=20000
held_run() {
    _label="$1"
    _hook="$2"
    _held_part="$3"
    _others="$4"
    _client="$5"
    shift 5
    run_report "${_label}" "${CHECK_WORK}/$(echo "${_label}" | tr ' /,' '___').json" \
        "${client_limit_s}" - "${_client}" -H 127.0.0.1 -p "${SERVER_PORT}" --format json \
        --io-timeout 10 -s 7 -c 50 --timestamps --one-way "$@"
    expect_field round_trip_split.split_round_trips 50
    expect_field round_trip_split.missing_stamps 0
    expect_field "server.${_hook}" "${hold_us}"
    _held="$(report_field "round_trip_split.parts.${_held_part}.summary.min_us")"
    float_ge "${_held:-0}" "${hold_us}" ||
        mismatches="${mismatches}; ${_held_part}'s shortest is ${_held} us, less than the ${hold_us} us hold"
    for _part in ${_others}; do
        _p50="$(report_field "round_trip_split.parts.${_part}.percentiles.p50_us")"
        float_lt "${_p50:-${hold_us}}" $((hold_us / 2)) ||
            mismatches="${mismatches}; ${_part} p50 ${_p50} us, half the hold or more"
    done
    judge "${_label}" "${_held_part} at least ${_held} us of the ${hold_us} us hold (emulated timing)"
}

sctp_parts="send_stack_and_beyond client_receive_stack"
tcp_parts="client_send_stack beyond_the_client client_receive_stack"
sctp_server_parts="send_stack_network_and_server_send_stack server_receive_and_wake_up server_application client_receive_stack"
tcp_server_parts="client_send_stack network server_receive_and_wake_up server_application server_send_stack client_receive_stack"

start_server "${CHECK_WORK}/stream-srv.log" - SOCK_STREAM_srv -p 0 -t sctp
split_run "SCTP stream" SOCK_STREAM_clt "${sctp_parts}" -t sctp
expect_field round_trip_split.transmit_stamps false
judge "SCTP stream"
split_run "SCTP stream, 3 streams" SOCK_STREAM_clt "${sctp_parts}" -t sctp --streams 3
split_run "SCTP stream, --one-way" SOCK_STREAM_clt "${sctp_server_parts}" -t sctp --one-way
expect_field round_trip_split.server_stamps true
judge "SCTP stream, --one-way"
# Under load: framed ping-pong (one reply in flight, each read alone: all
# split), and a rate over 4 flows with the server's stamps.
load_split_run "SCTP stream, framed" SOCK_STREAM_clt "${sctp_parts}" 200 -t sctp -c 200 \
    --interval 1
load_split_run "SCTP stream, rate, --one-way" SOCK_STREAM_clt "${sctp_server_parts}" 1 -t sctp \
    --rate 50 --flows 4 --duration 2 --one-way
stop_pid "${SERVER_PID}"

start_server "${CHECK_WORK}/tcp-srv.log" - SOCK_STREAM_srv -p 0 -t tcp
split_run "TCP" SOCK_STREAM_clt "${tcp_parts}" -t tcp
expect_field round_trip_split.transmit_stamps true
judge "TCP"
split_run "TCP, --one-way" SOCK_STREAM_clt "${tcp_server_parts}" -t tcp --one-way
expect_field round_trip_split.server_stamps true
expect_field round_trip_split.server_transmit_stamps true
judge "TCP, --one-way"
load_split_run "TCP, rate, --one-way" SOCK_STREAM_clt "${tcp_server_parts}" \
    1 -t tcp --rate 50 --flows 4 --duration 2 --one-way
expect_field round_trip_split.missing_by_stamp.client_transmit 0
expect_field round_trip_split.server_transmit_stamps true
judge "TCP, rate, --one-way"
stop_pid "${SERVER_PID}"

start_server "${CHECK_WORK}/seqpack-srv.log" - SOCK_SEQPACK_srv -p 0
split_run "SCTP one-to-many" SOCK_SEQPACK_clt "${sctp_parts}"
split_run "SCTP one-to-many, --one-way" SOCK_SEQPACK_clt "${sctp_server_parts}" --one-way
expect_field round_trip_split.server_stamps true
judge "SCTP one-to-many, --one-way"
load_split_run "SCTP one-to-many, framed" SOCK_SEQPACK_clt "${sctp_parts}" 200 -c 200 --interval 1
load_split_run "SCTP one-to-many, rate, --one-way" SOCK_SEQPACK_clt "${sctp_server_parts}" 1 \
    --rate 50 --flows 4 --duration 2 --one-way
stop_pid "${SERVER_PID}"
export SCTP_PERF_TEST_HOOKS=1
not_application="send_stack_network_and_server_send_stack server_receive_and_wake_up client_receive_stack"
not_wake_up="send_stack_network_and_server_send_stack server_application client_receive_stack"
start_server "${CHECK_WORK}/held-stream-srv.log" - SOCK_STREAM_srv -p 0 -t sctp \
    --test-reply-delay "${hold_us}"
held_run "SCTP stream, replies held" test_reply_delay_us server_application \
    "${not_application}" SOCK_STREAM_clt -t sctp
stop_pid "${SERVER_PID}"
start_server "${CHECK_WORK}/late-stream-srv.log" - SOCK_STREAM_srv -p 0 -t sctp \
    --test-wake-delay "${hold_us}"
held_run "SCTP stream, woken late" test_wake_delay_us server_receive_and_wake_up \
    "${not_wake_up}" SOCK_STREAM_clt -t sctp
stop_pid "${SERVER_PID}"
start_server "${CHECK_WORK}/held-seqpack-srv.log" - SOCK_SEQPACK_srv -p 0 \
    --test-reply-delay "${hold_us}"
held_run "SCTP one-to-many, replies held" test_reply_delay_us server_application \
    "${not_application}" SOCK_SEQPACK_clt
stop_pid "${SERVER_PID}"
start_server "${CHECK_WORK}/late-seqpack-srv.log" - SOCK_SEQPACK_srv -p 0 \
    --test-wake-delay "${hold_us}"
held_run "SCTP one-to-many, woken late" test_wake_delay_us server_receive_and_wake_up \
    "${not_wake_up}" SOCK_SEQPACK_clt
stop_pid "${SERVER_PID}"
unset SCTP_PERF_TEST_HOOKS
pass "--timestamps: every round trip split by the kernel's stamps over SCTP (SOCK_STREAM, 3 streams, SOCK_SEQPACK; receive stamps only) and TCP (send and receive), and with the server's stamps (--one-way) on each; under load (framed ping-pong, a rate over 4 flows) each message matched to its own stamps on each; a held reply in the server's application alone and a late wake-up in its receive and wake-up alone, on both SCTP styles"
