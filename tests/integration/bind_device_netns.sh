#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --bind-device picks the device, shown on two veth pairs between a client
# namespace and a server namespace. The server's address 10.252.9.1 is
# reached over either pair: by the routing table over the first (a lower
# metric), and with --bind-device va2 over the second, whose counters must
# then carry the run while the first's stay still. A server bound to vb2
# refuses a client coming over the first pair and serves one bound to the
# second. -i va2 binds va2's own address, and an interface without an
# address, or without one in the server's family, is a usage error (exit 2).
#
# Needs root (it makes network namespaces): skipped, saying why, without it
# or without a working `ip netns`. Everything it makes is inside the two
# namespaces it creates (10.252.x.y exist nowhere else), deleted on exit.
source "$(dirname "$0")/lib.sh"

need_netns

clt="$BIN_DIR/SOCK_STREAM_clt"
client_ns=sctp-perf-$$-dev-c
server_ns=sctp-perf-$$-dev-s
add_netns "$client_ns"
add_netns "$server_ns"
for ns in "$client_ns" "$server_ns"; do
    in_ns "$ns" ip link set lo up
    # No IPv6: its neighbour discovery would move the counters compared below.
    in_ns "$ns" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
for i in 1 2; do
    # Both ends made inside their namespaces: nothing is left in the host's.
    timeout 10 ip link add "va$i" netns "$client_ns" type veth peer name "vb$i" netns "$server_ns" ||
        fail "cannot make veth pair $i"
    in_ns "$client_ns" ip addr add "10.252.$i.2/30" dev "va$i"
    in_ns "$server_ns" ip addr add "10.252.$i.1/30" dev "vb$i"
    in_ns "$client_ns" ip link set "va$i" up
    in_ns "$server_ns" ip link set "vb$i" up
done
in_ns "$server_ns" ip addr add 10.252.9.1/32 dev lo
in_ns "$client_ns" ip route add 10.252.9.1 via 10.252.1.1 dev va1 metric 1
in_ns "$client_ns" ip route add 10.252.9.1 via 10.252.2.1 dev va2 metric 2
# An interface with no address at all, for -i.
timeout 10 ip link add vx netns "$client_ns" type veth peer name vy netns "$server_ns" ||
    fail "cannot make the address-less veth pair"
pass "namespaces $client_ns and $server_ns: two veth pairs to 10.252.9.1, the first preferred"

tx_packets() {
    in_ns "$client_ns" cat "/sys/class/net/$1/statistics/tx_packets"
}
# run_client NAME EXPECTED-STATUS ARGS...: the client in its namespace, 200
# round trips to 10.252.9.1; sets DELTA1 and DELTA2, the packets va1 and va2
# sent meanwhile.
run_client() {
    local name=$1 expected=$2
    shift 2
    local before1 before2
    before1=$(tx_packets va1)
    before2=$(tx_packets va2)
    run_capture "$expected" ip netns exec "$client_ns" "$clt" -t tcp -H 10.252.9.1 -p "$SERVER_PORT" \
        -s 6 -c 200 --io-timeout 3 --json-file "$WORK_DIR/$name.json" "$@"
    DELTA1=$(($(tx_packets va1) - before1))
    DELTA2=$(($(tx_packets va2) - before2))
}

SERVER_NETNS=$server_ns start_server SOCK_STREAM_srv -t tcp
run_client routed 0
[ "$DELTA1" -ge 200 ] && [ "$DELTA2" -lt 10 ] ||
    fail "without --bind-device: va1 sent $DELTA1 packets and va2 $DELTA2; the route prefers va1"
pass "without --bind-device the route's va1 carries the run ($DELTA1 packets; va2 $DELTA2)"

run_client bound 0 --bind-device va2
[ "$DELTA2" -ge 200 ] && [ "$DELTA1" -lt 10 ] ||
    fail "--bind-device va2: va2 sent $DELTA2 packets and va1 $DELTA1"
[ "$(json_field "$WORK_DIR/bound.json" environment.client_bind_device)" = va2 ] ||
    fail "--bind-device va2 is not read back in the report"
case $(json_field "$WORK_DIR/bound.json" environment.local_addresses.0) in
10.252.2.2:*) ;;
*) fail "--bind-device va2 left the client on $(json_field "$WORK_DIR/bound.json" environment.local_addresses.0)" ;;
esac
pass "--bind-device va2 moves the run onto va2 ($DELTA2 packets; va1 $DELTA1), from 10.252.2.2"

run_capture 0 ip netns exec "$client_ns" "$clt" -t tcp -H 10.252.9.1 -p "$SERVER_PORT" -s 4 -c 20 \
    -i va2 --json-file "$WORK_DIR/iface.json"
case $(json_field "$WORK_DIR/iface.json" environment.local_addresses.0) in
10.252.2.2:*) ;;
*) fail "-i va2 bound $(json_field "$WORK_DIR/iface.json" environment.local_addresses.0)" ;;
esac
pass "-i va2 binds va2's address 10.252.2.2"

run_capture 2 ip netns exec "$client_ns" "$clt" -t tcp -H 10.252.9.1 -p "$SERVER_PORT" -s 4 -c 20 -i vx
grep -q "client-connect-addr vx: interface vx has no IP address" <<<"$ERR" || fail "-i vx: $ERR"
# va2 has IPv4 only (IPv6 is off in the namespace): no form to reach ::1.
run_capture 2 ip netns exec "$client_ns" "$clt" -t tcp -H ::1 -p "$SERVER_PORT" -s 4 -c 20 -i va2
grep -q "client-connect-addr va2: the interface has no address of the family of ::1" <<<"$ERR" ||
    fail "-i va2 -H ::1: $ERR"
pass "-i naming an interface without an address, or without one of the server's family, is a usage error (exit 2)"

# The server's end: bound to vb2, it hears nothing that comes over vb1.
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_NETNS=$server_ns start_server SOCK_STREAM_srv -t tcp --bind-device vb2
wait_for_log "bound to device vb2 (SO_BINDTODEVICE, read back)"
run_client refused 1
grep -q "cannot connect to 10.252.9.1" <<<"$ERR" || fail "a client over va1 to a server on vb2: $ERR"
run_client served 0 --bind-device va2
[ "$(json_field "$WORK_DIR/served.json" server.bind_device)" = vb2 ] ||
    fail "the server's bind_device is not vb2 in the client's report"
pass "a server bound to vb2 refuses a client over va1 and serves one bound to va2, reporting vb2"
