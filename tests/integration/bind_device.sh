#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The network interface and the segment size over TCP on loopback.
# --bind-device lo ties both ends' sockets to lo and each end reports what
# it read back (SO_BINDTODEVICE); -i lo and -a lo bind lo's address; a
# device or interface this host does not have is a usage error (exit 2)
# naming it. --max-seg sets TCP_MAXSEG at both ends, and the reports give
# what was asked and what the connection uses, which is exact: the smaller
# of the two ends' asks (each end announces its own in the SYN), less the
# 12 bytes of the timestamp option when net.ipv4.tcp_timestamps is on.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
srv="$BIN_DIR/SOCK_STREAM_srv"

# Usage errors first: nothing is started for them.
run_capture 2 "$clt" -t tcp -s 4 -c 10 --bind-device nosuchif0
grep -q "bind-device nosuchif0: this host has no such network interface" <<<"$ERR" ||
    fail "client --bind-device nosuchif0: no sentence naming the device: $ERR"
run_capture 2 "$srv" -t tcp -p 0 --bind-device nosuchif0
grep -q "bind-device nosuchif0: this host has no such network interface" <<<"$ERR" ||
    fail "server --bind-device nosuchif0: no sentence naming the device: $ERR"
run_capture 2 "$clt" -t tcp -s 4 -c 10 --max-seg 40000
grep -q -- "--max-seg must be 88..32767 bytes over TCP" <<<"$ERR" || fail "--max-seg 40000: $ERR"
pass "an unknown device and an out-of-range --max-seg are usage errors (exit 2)"

timestamps=$(cat /proc/sys/net/ipv4/tcp_timestamps 2>/dev/null || echo 1)
option_bytes=$([ "$timestamps" = 0 ] && echo 0 || echo 12)

start_server SOCK_STREAM_srv -t tcp -a lo --bind-device lo --max-seg 1000
wait_for_log "on interface lo (127.0.0.1)"
wait_for_log "bound to device lo (SO_BINDTODEVICE, read back)"
wait_for_log "segment size: 1000 bytes asked"
pass "the server logs -a lo's address, its device and its segment size"

# An unknown interface in -i: neither an interface nor a host (.invalid never
# resolves, RFC 6761), so a usage error once the run resolves it.
run_capture 2 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 10 -i no-such-if.invalid
grep -q "client-connect-addr no-such-if.invalid: neither a network interface of this host" <<<"$ERR" ||
    fail "-i no-such-if.invalid: $ERR"
pass "-i naming no interface and no host is a usage error (exit 2)"

# Ping-pong, both ends on lo, the client asking for a larger segment than
# the server: the connection takes the server's 1000.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 6 -c 200 -i lo --bind-device lo \
    --max-seg 1200 --json-file "$WORK_DIR/pp.json"
json=$WORK_DIR/pp.json
expect() {
    local got
    got=$(json_field "$json" "$1")
    [ "$got" = "$2" ] || fail "$1 is $got, not $2"
}
in_use=$((1000 - option_bytes))
expect config.bind_device lo
expect environment.client_bind_device lo
expect server.bind_device lo
expect config.max_seg_requested_bytes 1200
expect environment.client_max_seg_bytes "$in_use"
expect server.max_seg_requested_bytes 1000
expect server.max_seg_bytes "$in_use"
expect environment.client_interfaces.0.name lo
expect environment.client_interfaces.0.addresses.0 127.0.0.1
case $(json_field "$json" environment.local_addresses.0) in
127.0.0.1:*) ;;
*) fail "-i lo bound $(json_field "$json" environment.local_addresses.0), not 127.0.0.1" ;;
esac
pass "ping-pong: both ends read back lo and a segment of $in_use bytes (1000 asked by the server, 1200 by the client)"

# The text report says the same, and that the kernel lowered the ask.
for line in $'\tdevice: lo (SO_BINDTODEVICE, read back)' \
    $'\tsegment size: 1200 bytes asked, '"$in_use"' in use (TCP_MAXSEG read back: the kernel lowered it' \
    $'\tsegment size: 1000 bytes asked, '"$in_use"' in use (TCP_MAXSEG read back' \
    $'\tinterface lo (-i): 127.0.0.1'; do
    grep -qF -- "$line" <<<"$OUT" || fail "the report has no line '$line'"
done
pass "the text report gives the device, the interface's address and both segment sizes"

# The load engine's flows take them too (every flow's socket is set up
# by the same connector; the report describes the first).
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 6 -c 100 --rate 2000 --flows 2 \
    --interval 0 --bind-device lo --max-seg 600 --json-file "$WORK_DIR/load.json"
json=$WORK_DIR/load.json
expect environment.client_bind_device lo
expect environment.client_max_seg_bytes $((600 - option_bytes))
expect server.max_seg_bytes $((600 - option_bytes))
pass "rate mode over 2 flows: --max-seg 600 and --bind-device lo read back"

# Without the options the client reports no device and the server "".
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 20 --json-file "$WORK_DIR/plain.json"
json=$WORK_DIR/plain.json
expect config.bind_device null
expect config.max_seg_requested_bytes null
expect environment.client_bind_device null
pass "without --bind-device and --max-seg nothing is claimed for the client"
