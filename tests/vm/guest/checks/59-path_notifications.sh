# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 120
# The kernel's own bytes for path notifications: sctp_notification_capture
# (tests/vm/sctp_notification_capture.cpp, outside the library) at both ends
# of a two-link association; the first link is made silent both ways (netem
# loss 100 %) for 2 s. Each end must read SCTP_PEER_ADDR_CHANGE
# notifications (0x8002) telling the first path potentially failed (6) or
# unreachable (1), then available (0) again; every notification read is
# printed in hex. Those lines are the captured bytes that
# tests/unit/sctp_path_events_test.cpp and the fuzzer's seed corpus
# (tests/fuzz/make-corpus.pl) hold.
#
#   ns c                                 ns s
#   mh0c 10.77.1.1/24 ---- path 1 ---- mh0s 10.77.1.2/24   (silent 2 s)
#   mh1c 10.77.2.1/24 ---- path 2 ---- mh1s 10.77.2.2/24
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

need_modules
need_program sctp_notification_capture

two_paths

capture="${SCTPPERF_BIN}/sctp_notification_capture"
port=45999
"${IP}" netns exec s "${capture}" server 10.77.1.2,10.77.2.2 "${port}" 9 \
    >"${CHECK_WORK}/server.txt" 2>"${CHECK_WORK}/server.err" &
server=$!
echo "${server}" >>"${PID_FILE}"
sleep 1
"${IP}" netns exec c "${capture}" client 10.77.1.2,10.77.2.2 "${port}" 10.77.1.1,10.77.2.1 7 \
    >"${CHECK_WORK}/client.txt" 2>"${CHECK_WORK}/client.err" &
client=$!
echo "${client}" >>"${PID_FILE}"
sleep 2
tc -n c qdisc add dev mh0c root netem loss 100% || fail "cannot add netem on mh0c"
tc -n s qdisc add dev mh0s root netem loss 100% || fail "cannot add netem on mh0s"
log "$(date +%T) path 1 silent both ways"
sleep 2
tc -n c qdisc del dev mh0c root
tc -n s qdisc del dev mh0s root
log "$(date +%T) path 1 restored"
wait_bounded "${client}" 30 || fail "the capture's client failed: $(cat "${CHECK_WORK}/client.err")"
wait_bounded "${server}" 30 || fail "the capture's server failed: $(cat "${CHECK_WORK}/server.err")"

for end in client server; do
    sed "s/^/    ${end}: /" "${CHECK_WORK}/${end}.txt"
done
# seen END STATE: whether END read a peer address change to STATE.
seen() {
    grep -q "^NOTIFICATION 8002 $2 " "${CHECK_WORK}/$1.txt"
}
for end in client server; do
    seen "${end}" 6 || seen "${end}" 1 ||
        fail "the ${end} read no path potentially failed (6) or unreachable (1)"
    seen "${end}" 0 || fail "the ${end} read no path available (0) again"
done
pass "both ends read peer address changes from the kernel: failed, then available; bytes above"
