# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 150
# The kernel's own bytes for path notifications: sctp_notification_capture
# (tests/vm/sctp_notification_capture.cpp, outside the library) at both ends
# of a two-link association; the first link is made silent both ways (netem
# loss 100 %) until both ends have read SCTP_PEER_ADDR_CHANGE (0x8002)
# telling it potentially failed (6) or unreachable (1), then restored, and
# each end must read it available (0) again; every notification read is
# printed in hex. Those lines are the captured bytes that
# tests/unit/sctp_path_events_test.cpp and the fuzzer's seed corpus
# (tests/fuzz/make-corpus.pl) hold.
#
# Every wait is bounded by a multiple of its planned time scaled by a
# calibration, a short SOCK_SEQPACK run over the same links (lib.sh's
# calibrate): the capture's timers (RTOs of 50..200 ms, heartbeats every
# 100 ms, path-max-retrans 2) make a failure known within 350 ms and a
# path available again within a heartbeat and an RTO of the restore, 1 s
# planned for each.
#
#   ns c                                 ns s
#   mh0c 10.77.1.1/24 ---- path 1 ---- mh0s 10.77.1.2/24   (silent a while)
#   mh1c 10.77.2.1/24 ---- path 2 ---- mh1s 10.77.2.2/24
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_modules
need_program sctp_notification_capture
need_program SOCK_SEQPACK_srv
need_program SOCK_SEQPACK_clt

two_paths

# --header-timeout 20: under the sanitizers, on a host busy with the rest of
# the test command, a client can take longer than the default 2 s from its
# association to its test header (50-multihoming_failover did); this check is
# about the paths' notifications, not that.
start_server "${CHECK_WORK}/srv.log" s SOCK_SEQPACK_srv -p 0 -a 10.77.1.2,10.77.2.2 \
    --header-timeout 20
calibrate "SOCK_SEQPACK, 0.5 s" 0.5 "${CHECK_WORK}/calibrate.json" c SOCK_SEQPACK_clt \
    -H 10.77.1.2,10.77.2.2 -i 10.77.1.1,10.77.2.1 -p "${SERVER_PORT}" -s 6 --rate 200 -c 100 \
    --format json
stop_pid "${SERVER_PID}"
wait_s="$(scaled_s 1)"
# The captures run until stopped: long enough for every wait below.
capture_s=$((6 * wait_s))

capture="${SCTPPERF_BIN}/sctp_notification_capture"
port=45999
"${IP}" netns exec s "${capture}" server 10.77.1.2,10.77.2.2 "${port}" "${capture_s}" \
    >"${CHECK_WORK}/server.txt" 2>"${CHECK_WORK}/server.err" &
server=$!
echo "${server}" >>"${PID_FILE}"
# Listening once the kernel lists its endpoint (LPORT, column 6 of eps).
ticks=0
# shellcheck disable=SC2016 # awk's own $6
until ip netns exec s awk -v p="${port}" 'NR > 1 && $6 == p { found = 1 } END { exit !found }' \
    /proc/net/sctp/eps; do
    [ "${ticks}" -lt $((wait_s * 10)) ] ||
        fail "the capture's server did not listen within ${wait_s} s: $(cat "${CHECK_WORK}/server.err")"
    sleep 0.1
    ticks=$((ticks + 1))
done
"${IP}" netns exec c "${capture}" client 10.77.1.2,10.77.2.2 "${port}" 10.77.1.1,10.77.2.1 \
    "${capture_s}" >"${CHECK_WORK}/client.txt" 2>"${CHECK_WORK}/client.err" &
client=$!
echo "${client}" >>"${PID_FILE}"

# seen END PATTERN: how many lines of END's capture match PATTERN.
seen() {
    count_lines "${CHECK_WORK}/$1.txt" "$2"
}

# await_both PATTERN WHAT CLIENT_BEFORE SERVER_BEFORE: each end's capture
# prints a line matching PATTERN beyond the ones it had printed before
# (CLIENT_BEFORE, SERVER_BEFORE) within wait_s seconds, or the check fails
# saying WHAT.
await_both() {
    for end in client server; do
        if [ "${end}" = client ]; then before="$3"; else before="$4"; fi
        await_lines "${CHECK_WORK}/${end}.txt" "$1" $((before + 1)) "${wait_s}" || {
            for e in client server; do
                sed "s/^/    ${e}: /" "${CHECK_WORK}/${e}.txt" "${CHECK_WORK}/${e}.err"
            done
            fail "the ${end} read no $2 within ${wait_s} s"
        }
    done
}

# SCTP_ASSOC_CHANGE (0x8001) SCTP_COMM_UP (0): the association is up.
await_both "^NOTIFICATION 8001 0 " "association up" 0 0
# A path of this emulated, slow VM may go potentially failed and come back
# on its own (one timeout of 50 ms makes it so): the fault's events are
# those beyond the ones already printed. Path 1's, by its address in the
# notification (after its type, flags, length, family and port: 10.77.1.2
# at the client, 10.77.1.1 at the server).
failed="^NOTIFICATION 8002 (6|1) 148 [0-9a-f]{24}0a4d010[12]"
available="^NOTIFICATION 8002 0 148 [0-9a-f]{24}0a4d010[12]"
client_down="$(seen client "${failed}")"
server_down="$(seen server "${failed}")"
tc -n c qdisc add dev mh0c root netem loss 100% || fail "cannot add netem on mh0c"
tc -n s qdisc add dev mh0s root netem loss 100% || fail "cannot add netem on mh0s"
log "$(date +%T) path 1 silent both ways"
await_both "${failed}" "path 1 potentially failed (6) or unreachable (1)" \
    "${client_down}" "${server_down}"
client_up="$(seen client "${available}")"
server_up="$(seen server "${available}")"
tc -n c qdisc del dev mh0c root
tc -n s qdisc del dev mh0s root
log "$(date +%T) path 1 restored"
await_both "${available}" "path 1 available (0) again" "${client_up}" "${server_up}"
for pid in "${client}" "${server}"; do
    kill -0 "${pid}" 2>/dev/null || fail "a capture ended before it was stopped (its time ran out?)"
done
stop_pid "${client}"
stop_pid "${server}"

for end in client server; do
    sed "s/^/    ${end}: /" "${CHECK_WORK}/${end}.txt"
done
pass "both ends read peer address changes from the kernel: failed, then available; bytes above"
