#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fan-out over TCP on loopback: SOCK_STREAM_clt -H A:P1,B:P2 --flows N deals
# the flows over two servers (flow k to server k modulo 2). Each server's
# own account (its log, and the account it sends) equals the client's row
# for it, and the rows add up to the whole; the flow CSV names each flow's
# server; a single flow, or plain ping-pong, with two servers is a usage
# error; a server that is not running, or that goes away, is named in the
# failure (exit 1), as is one that refuses a flow.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"

start_server SOCK_STREAM_srv -t tcp
port1=$SERVER_PORT log1=$SERVER_LOG
start_server SOCK_STREAM_srv -t tcp
port2=$SERVER_PORT log2=$SERVER_LOG pid2=$SERVER_PID
servers="127.0.0.1:$port1,127.0.0.1:$port2"

# finished_sum LOG: the messages every completed session of a server's log
# says it received ("client ... ok in T s: finished N messages").
finished_sum() {
    sed -n 's/.* ok in [0-9.]* s: finished \([0-9][0-9]*\) messages$/\1/p' "$1" |
        awk '{ s += $1 } END { print s + 0 }'
}
sessions() { grep -c " ok in [0-9.]* s: finished [0-9]* messages$" "$1" || true; }

# 5 flows, 40 messages each, 10 primer round trips: flows 0, 2, 4 to server
# 1 (120 messages), flows 1, 3 to server 2 (80).
run_capture 0 "$clt" -t tcp -H "$servers" -s 6 --rate 400 -c 40 --primer 10 --flows 5 \
    --threads 2 --interval 0 --json-file "$WORK_DIR/fan.json" --flow-csv "$WORK_DIR/fan.csv"
text=$OUT
for _ in $(seq 100); do
    [ "$(sessions "$log1")" = 3 ] && [ "$(sessions "$log2")" = 2 ] && break
    sleep 0.05
done
[ "$(sessions "$log1")" = 3 ] || fail "server 1 did not serve 3 flows: $(cat "$log1")"
[ "$(sessions "$log2")" = 2 ] || fail "server 2 did not serve 2 flows: $(cat "$log2")"
perl_check "$WORK_DIR/fan.json" '
    my ($p1, $p2, $log1, $log2) = @ARGV[2 .. 5];
    my $l = $d->{load};
    my @s = @{ $l->{per_server} };
    @s == 2 or die "per_server rows: " . scalar(@s) . "\n";
    $s[0]{server} eq "127.0.0.1:$p1" && $s[1]{server} eq "127.0.0.1:$p2"
        or die "servers: $s[0]{server} $s[1]{server}, expected ports $p1 $p2\n";
    my %want = (0 => [3, 120], 1 => [2, 80]);
    for my $i (0, 1) {
        my ($flows, $messages) = @{ $want{$i} };
        my $row = $s[$i];
        $row->{flows} == $flows or die "server $i: flows $row->{flows}\n";
        for my $k (qw(messages_sent messages_received_by_server messages_echo_requested
                      messages_replied)) {
            $row->{$k} == $messages or die "server $i: $k $row->{$k}, not $messages\n";
        }
        $row->{messages_lost} == 0 or die "server $i lost messages\n";
        # What the server said it received: primer and measured per flow.
        my $account = $row->{server_account}{messages_received};
        $account == $messages + $flows * 10 or die "server $i account: $account\n";
        # Its own log says the same of each session, in its own words.
        my $logged = $i == 0 ? $log1 : $log2;
        $logged == $account or die "server $i logged $logged, its account $account\n";
        defined $row->{$_} or die "server $i: no $_\n" for qw(p50_us p99_us p99_9_us max_us);
        $row->{p50_us} <= $row->{p99_us} && $row->{p99_us} <= $row->{p99_9_us}
            && $row->{p99_9_us} <= $row->{max_us} or die "server $i: percentiles out of order\n";
    }
    for my $k (qw(messages_sent messages_received_by_server messages_replied bytes_sent)) {
        $s[0]{$k} + $s[1]{$k} == $l->{$k} or die "$k: the rows do not add up to the whole\n";
    }
    # The whole latency is that of the two servers: its max is one of theirs.
    my $max = $d->{load}{latency_corrected}{max_us};
    ($max == $s[0]{max_us} || $max == $s[1]{max_us}) or die "max $max is of no server\n";
    my @settings = @{ $d->{servers} };
    @settings == 2 && $settings[1]{settings}{program} eq "SOCK_STREAM_srv"
        or die "no settings of each server\n";
    $d->{server_settings_differ} and die "two alike servers said to differ\n";
    join(",", @{ $d->{config}{servers} }) eq "127.0.0.1:$p1,127.0.0.1:$p2"
        or die "config.servers: @{ $d->{config}{servers} }\n";
' "$port1" "$port2" "$(finished_sum "$log1")" "$(finished_sum "$log2")" ||
    fail "the per-server accounting is wrong"
pass "5 flows over 2 servers: each server's account and log equal its row (120 and 80), the rows add up"

grep -q "^servers: 2, flow k to server k modulo 2" <<<"$text" || fail "no server rows: $text"
grep -Eq "^	127\.0\.0\.1:$port1 +3 +120 +120 +120 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" \
    <<<"$text" || fail "no row of server 1 in the text: $text"
grep -Eq "^	127\.0\.0\.1:$port2 +2 +80 +80 +80 " <<<"$text" || fail "no row of server 2: $text"
grep -q "server addresses: 127.0.0.1:$port1,127.0.0.1:$port2 (flows dealt over them" \
    <<<"$text" || fail "no server addresses line: $text"
grep -q "^servers: the 2 state the same$" <<<"$text" || fail "no servers block: $text"
pass "the text report gives a row per server and describes both"

[ "$(head -n 1 "$WORK_DIR/fan.csv")" = flow,messages_sent,messages_replied,messages_lost,rate_per_s,p50_us,p99_us,max_us,server ] ||
    fail "flow CSV header: $(head -n 1 "$WORK_DIR/fan.csv")"
awk -F, -v a="127.0.0.1:$port1" -v b="127.0.0.1:$port2" \
    'NR > 1 { want = ($1 % 2 == 0) ? a : b; if ($9 != want) bad = 1; n++ }
     END { exit (bad || n != 5) }' "$WORK_DIR/fan.csv" ||
    fail "the flow CSV does not give flow k's server as k modulo 2: $(cat "$WORK_DIR/fan.csv")"
pass "--flow-csv names each flow's server"

# Framed ping-pong runs on the load engine, so it fans out too; -p serves
# the entry without a port.
run_capture 0 "$clt" -t tcp -H "127.0.0.1,127.0.0.1:$port2" -p "$port1" -s 6 -c 50 --flows 2 \
    --format json
echo "$OUT" >"$WORK_DIR/pp.json"
perl_check "$WORK_DIR/pp.json" '
    my @s = @{ $d->{load}{per_server} };
    $d->{load}{mode} eq "ping-pong" or die "mode $d->{load}{mode}\n";
    $s[$_]{messages_replied} == 50 or die "server $_: $s[$_]{messages_replied}\n" for 0, 1;
' || fail "framed ping-pong over two servers"
pass "framed ping-pong (--flows 2) over two servers: 50 round trips each"

# One flow, or plain ping-pong, cannot reach two servers.
run_capture 2 "$clt" -t tcp -H "$servers" -s 6 -c 10
grep -q "lists 2 servers, but plain ping-pong (one flow) reaches one server: give --flows 2" \
    <<<"$ERR" || fail "plain ping-pong with two servers: $ERR"
run_capture 2 "$clt" -t tcp -H "$servers" -s 6 --rate 10 -c 10
grep -q "lists 2 servers, but a run of one flow reaches one server" <<<"$ERR" ||
    fail "one flow with two servers: $ERR"
run_capture 2 "$clt" -t tcp -H "$servers,127.0.0.1:1" -s 6 --rate 10 -c 10 --flows 2
grep -q -- "--flows 2 leaves 1 of them without a flow" <<<"$ERR" || fail "2 flows, 3 servers: $ERR"
pass "one flow, plain ping-pong, or fewer flows than servers: exit 2, saying why"

# A server that is not running: its port, freed by a server stopped.
start_server SOCK_STREAM_srv -t tcp
dead_port=$SERVER_PORT
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
run_capture 1 "$clt" -t tcp -H "127.0.0.1:$port1,127.0.0.1:$dead_port" -s 6 --rate 100 -c 10 \
    --flows 4 --interval 0
grep -q "server 2 of 2 (127.0.0.1:$dead_port), flow 1 of 4: cannot connect to 127.0.0.1:$dead_port" \
    <<<"$ERR" || fail "the failure does not name the server down: $ERR"
grep -q "Connection refused" <<<"$ERR" || fail "no reason: $ERR"
grep -q "is SOCK_STREAM_srv running?" <<<"$ERR" || fail "no advice: $ERR"
[ "$(wc -l <<<"$ERR")" = 1 ] || fail "more than one line: $ERR"
pass "server 2 of 2 down: exit 1, the one line names it"

# A server that refuses a flow (its --max-clients reached) is named too.
start_server SOCK_STREAM_srv -t tcp --max-clients 1
busy_port=$SERVER_PORT
run_capture 1 "$clt" -t tcp -H "127.0.0.1:$port1,127.0.0.1:$busy_port" -s 6 --rate 100 -c 10 \
    --flows 4 --interval 0
grep -q "server 2 of 2 (127.0.0.1:$busy_port), flow 3 of 4, after 3 were accepted: the server refused the test" \
    <<<"$ERR" || fail "the refusal does not name the server: $ERR"
pass "server 2 of 2 refusing its second flow: exit 1, the one line names it"

# A server that goes away in the middle of a run.
gone_status=0
timeout 60 "$clt" -t tcp -H "$servers" -s 6 --rate 200 --duration 10 --flows 2 --interval 0 \
    >"$WORK_DIR/gone.out" 2>"$WORK_DIR/gone.err" &
client=$!
sleep 1.5
kill -KILL "$pid2"
wait "$pid2" 2>/dev/null || true
wait "$client" || gone_status=$?
[ "$gone_status" = 1 ] || fail "a vanished server: exit $gone_status: $(cat "$WORK_DIR/gone.err")"
grep -q "flow 1 (server 2 of 2, 127.0.0.1:$port2)" "$WORK_DIR/gone.err" ||
    fail "the failure does not name the vanished server: $(cat "$WORK_DIR/gone.err")"
pass "server 2 of 2 killed mid-run: exit 1, naming it: $(head -c 160 "$WORK_DIR/gone.err")"
