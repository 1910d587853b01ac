#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The client and server measure round trips over TCP on loopback, for payloads
# from 1 byte to 64 KiB, and report exactly the requested number of points.
source "$(dirname "$0")/lib.sh"

start_server SOCK_STREAM_srv -t tcp
for power in 0 1 7 12 16; do
    run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s "$power" \
        -c 2000 --format json
    echo "$OUT" >"$WORK_DIR/run.json"
    [ "$(json_field "$WORK_DIR/run.json" summary.num_points)" = 2000 ] ||
        fail "payload 2^$power: num_points is not 2000"
    [ "$(json_field "$WORK_DIR/run.json" config.payload_bytes)" = $((1 << power)) ] ||
        fail "payload 2^$power: wrong payload_bytes"
    # Every percentile lies between the minimum and the maximum, in order.
    perl -MJSON::PP -e '
        local $/; my $d = JSON::PP->new->decode(<STDIN>);
        my ($s, $p) = ($d->{summary}, $d->{percentiles});
        my @v = ($s->{min_us}, @$p{qw(p50_us p90_us p99_us p99_9_us p99_99_us max_us)});
        for my $i (1 .. $#v) { die "percentiles out of order: @v\n" if $v[$i] < $v[$i-1] }
        die "max differs\n" if $p->{max_us} != $s->{max_us};
        die "no time measured\n" unless $s->{min_us} > 0;
    ' <"$WORK_DIR/run.json" || fail "payload 2^$power: inconsistent statistics"
    pass "payload 2^$power: 2000 round trips"
done

# The ACE layout: the title, the message size, the table and the new sections.
run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H localhost -p "$SERVER_PORT" -s 7 -c 500 -b 10 \
    -M 100
grep -q $'^\t\t\t\tHistogram ACE Unmarshalled Msg Synchronous Latency Test$' <<<"$OUT" ||
    fail "ace title missing"
grep -q $'^\t\t\t\t\t(Message Size 128, Message Type octet)$' <<<"$OUT" || fail "message size"
grep -q '^num_points: 500$' <<<"$OUT" || fail "num_points"
grep -q '^num_bins: 10 0 100$' <<<"$OUT" || fail "num_bins"
grep -q '^percentiles (microseconds):$' <<<"$OUT" || fail "percentiles section"
grep -q 'transport: tcp over SOCK_STREAM, Nagle off' <<<"$OUT" || fail "run description"
pass "ace report layout"

# The JSON report can be written to a file next to the ACE text, with Nagle on.
run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -p "$SERVER_PORT" -s 3 -c 300 -n \
    --json-file "$WORK_DIR/side.json"
grep -q '^num_points: 300$' <<<"$OUT" || fail "ace text on stdout with --json-file"
[ "$(json_field "$WORK_DIR/side.json" summary.num_points)" = 300 ] || fail "--json-file content"
[ "$(json_field "$WORK_DIR/side.json" config.nagle)" = 1 ] || fail "nagle recorded"
pass "--json-file and -n"

wait_for_log "Test for 2100 iterations"
wait_for_log "finished 400 iterations"
pass "server logged the tests"

# IPv6 literals and names, and a client bound to a chosen address and port.
if perl -MSocket -e 'socket(my $s, AF_INET6, SOCK_STREAM, 0) or exit 1' 2>/dev/null &&
    ip -6 addr show dev lo 2>/dev/null | grep -q '::1'; then
    run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H ::1 -p "$SERVER_PORT" -s 2 -c 100 \
        --format json
    echo "$OUT" >"$WORK_DIR/v6.json"
    [ "$(json_field "$WORK_DIR/v6.json" environment.peer_addresses.0)" = "[::1]:$SERVER_PORT" ] ||
        fail "IPv6 peer address"
    pass "IPv6 literal -H ::1"
    # The bracketed form, as addresses with a port are printed, is taken too.
    run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H '[::1]' -p "$SERVER_PORT" -s 2 -c 100 \
        --format json
    echo "$OUT" >"$WORK_DIR/v6b.json"
    [ "$(json_field "$WORK_DIR/v6b.json" environment.peer_addresses.0)" = "[::1]:$SERVER_PORT" ] ||
        fail "IPv6 peer address with -H [::1]"
    pass "IPv6 literal -H [::1]"
    # Errors print an IPv6 address with its port in brackets, both spellings alike.
    # A port just freed is one nothing listens on.
    closed_port=$(perl -MIO::Socket::IP -e \
        'print IO::Socket::IP->new(LocalHost => "::1", LocalPort => 0, Listen => 1)->sockport')
    for host in ::1 '[::1]'; do
        run_capture 1 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H "$host" -p "$closed_port" -s 2 -c 10
        grep -qF "cannot connect to [::1]:$closed_port (" <<<"$ERR" ||
            fail "-H $host, refused: $ERR"
    done
    pass "errors name [::1]:$closed_port"
else
    echo "note: no IPv6 loopback here; -H ::1 not exercised"
fi
for attempt in 1 2 3; do
    client_port=$((30000 + RANDOM % 20000))
    status=0
    timeout 60 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 2 -c 100 \
        -i 127.0.0.1 -C "$client_port" --format json >"$WORK_DIR/bound.json" \
        2>"$WORK_DIR/bound.err" || status=$?
    [ "$status" = 0 ] && break
    grep -q "cannot bind" "$WORK_DIR/bound.err" || fail "bound client: $(cat "$WORK_DIR/bound.err")"
done
[ "$status" = 0 ] || fail "could not find a free client port in 3 attempts"
[ "$(json_field "$WORK_DIR/bound.json" environment.local_addresses.0)" = "127.0.0.1:$client_port" ] ||
    fail "client not bound to 127.0.0.1:$client_port"
wait_for_log "client 127.0.0.1 connected from $client_port"
pass "client bound with -i 127.0.0.1 -C $client_port"
