#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Clients on several hosts, as near as one machine comes: three clients in
# three network namespaces load a server in a fourth over veth pairs, each
# started by its own shell, half a second apart, with the same --start-at, in
# rate mode, each writing its JSON report and its HdrHistogram log. Their
# reports and logs are merged. Every client must exit 0 and have talked over
# its own veth; the merged counts must be the clients' sums exactly; hosts[]
# must have a row per report though the namespaces share one host name; each
# host's measurement must have begun within 50 ms of the instant; and
# HdrHistogram's Java reader must find in the merged log every timed message.
#
# Needs root (it makes network namespaces): skipped, saying why, without it
# or without a working `ip netns`. Everything it makes is inside the
# namespaces it creates (10.251.N.0/30 exist nowhere else), and they are
# deleted on exit.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/hdr_log_reader.sh"

need_netns

clt="$BIN_DIR/SOCK_STREAM_clt"
compare="$BIN_DIR/sctp-perf-compare"
clients=(1 2 3)
# How far from the instant a start may be on a busy shared machine, as in
# start_at.sh: the wait ends within microseconds, but a client preempted at
# that moment is late by a scheduler's time slice or more; later only when
# a control waiting beside them was late too (start_wait_control: a
# machine stalled for 445 ms made every client late by as much, together).
bound_us=50000

# Names unique to this run, so that runs at once never meet.
server_ns=sctp-perf-$$-srv
add_netns "$server_ns"
in_ns "$server_ns" ip link set lo up
for i in "${clients[@]}"; do
    ns=sctp-perf-$$-c$i
    add_netns "$ns"
    in_ns "$ns" ip link set lo up
    # Each end made inside its namespace: nothing is left in the host's
    # namespace if the test dies.
    timeout 10 ip link add c0 netns "$ns" type veth peer name s$i netns "$server_ns" ||
        fail "cannot make the veth pair of client $i"
    in_ns "$server_ns" ip addr add "10.251.$i.1/30" dev "s$i"
    in_ns "$server_ns" ip link set "s$i" up
    in_ns "$ns" ip addr add "10.251.$i.2/30" dev c0
    in_ns "$ns" ip link set c0 up
done
pass "namespaces ${NAMESPACES[*]}: 3 clients, each on its own veth to the server's"

SERVER_NETNS=$server_ns start_server SOCK_STREAM_srv -t tcp

# One instant, 5 s ahead: each client sleeps until 5 s before it, then
# connects and primes, so the last one, started 1 s after the first, still
# has 4 s for that.
start=$(($(date +%s) + 5))
at=$(date -u -d "@$start" +%Y-%m-%dT%H:%M:%SZ)
start_wait_control "$start" "$WORK_DIR/control"
pids=()
for i in "${clients[@]}"; do
    # Its own shell in its own namespace, as ssh would start it on a host.
    timeout 40 ip netns exec "sctp-perf-$$-c$i" bash -c '
        "$1" -t tcp -H "$2" -p "$3" -s 6 --rate 500 --duration 3 --start-at "$4" \
            --histogram-log "$5.hlog" --format json >"$5.json" 2>"$5.err"
    ' client "$clt" "10.251.$i.1" "$SERVER_PORT" "$at" "$WORK_DIR/c$i" &
    pids+=("$!")
    STARTED_PIDS+=("$!")
    sleep 0.5
done
for i in "${clients[@]}"; do
    status=0
    wait "${pids[i - 1]}" || status=$?
    [ "$status" -eq 0 ] || {
        cat "$WORK_DIR/c$i.err" >&2
        fail "client $i exited $status"
    }
done
reports=() logs=()
for i in "${clients[@]}"; do
    reports+=("$WORK_DIR/c$i.json")
    logs+=("$WORK_DIR/c$i.hlog")
    peer=$(json_field "$WORK_DIR/c$i.json" environment.peer_addresses.0)
    [ "${peer%:*}" = "10.251.$i.1" ] || fail "client $i talked to $peer, not over its veth to 10.251.$i.1"
done
pass "3 clients, started 0.5 s apart with --start-at $at, exited 0, each over its own veth"

merged=$WORK_DIR/merged.json
run_capture 0 timeout 30 "$compare" --merge "${reports[@]}" -o "$merged"
echo "$OUT"

check_merged_sums "$merged" "summary.num_points load.latency_uncorrected.num_points
    load.messages_sent load.messages_replied load.messages_lost load.messages_received_by_server
    load.server.bytes_received" "${reports[@]}"
pass "--merge: counts are the clients' sums ($(json_field "$merged" summary.num_points) timed)"

# A row per report, though the namespaces share the machine's host name.
[ "$(json_field "$merged" hosts.3)" = null ] || fail "hosts[] has more than 3 rows"
for i in "${clients[@]}"; do
    row=hosts.$((i - 1))
    [ "$(json_field "$merged" "$row.report")" = "${reports[i - 1]}" ] ||
        fail "$row is not the report of client $i"
    [ "$(json_field "$merged" "$row.hostname")" = "$(hostname)" ] ||
        fail "$row: host $(json_field "$merged" "$row.hostname"), not $(hostname)"
    [ "$(json_field "$merged" "$row.num_points")" = "$(json_field "${reports[i - 1]}" summary.num_points)" ] ||
        fail "$row does not carry client $i's count"
done
pass "hosts[]: 3 rows of one host name, one per report"

# Each host's measurement began within the bound of the instant, by the
# merged row's own time, and the row's late_us says the same; the hosts
# began within twice the bound of each other whatever held them all up.
late_allowance "$WORK_DIR/control" "$bound_us"
late_us=$LATE_ALLOWANCE_US
for i in "${clients[@]}"; do
    row=hosts.$((i - 1))
    began=$(json_field "$merged" "$row.measurement_began_at")
    late=$(json_field "$merged" "$row.start_late_us")
    offset=$(json_field "$merged" "$row.start_offset_us")
    [ "$began" != null ] && [ "$late" != null ] || fail "$row: no measurement start or no late_us"
    began_s=$(date -u -d "$began" +%s.%N)
    awk -v t="$began_s" -v s="$start" -v b="$bound_us" -v m="$late_us" -v l="$late" 'BEGIN {
        d = (t - s) * 1e6
        exit !(d > -b && d < m && d - l > -2 && d - l < 2)
    }' || fail "$row: measuring began at $began ($late us late), not within -$bound_us..$late_us us of $at"
    awk -v o="$offset" -v b="$bound_us" 'BEGIN { exit !(o >= 0 && o < 2 * b) }' ||
        fail "$row: start_offset_us $offset"
    echo "client $i: measuring began $began, $late us from $at, $offset us after the first"
done
pass "every host began to measure within -$bound_us..$late_us us of $at"

merged_log=$WORK_DIR/merged.hlog
run_capture 0 timeout 30 "$compare" --merge-logs "${logs[@]}" -o "$merged_log"
echo "$OUT"
check_histogram_log "$merged_log" "$(json_field_sum summary.num_points "${reports[@]}")" \
    "$(json_field "$merged" load.latency_corrected.p99_us)"
check_histogram_log "$merged_log" "$(json_field_sum load.latency_uncorrected.num_points "${reports[@]}")" \
    "$(json_field "$merged" load.latency_uncorrected.p99_us)" uncorrected
