#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runtime failures exit 1 with one clear line: no server, a peer that is not an
# sctp-perf server, a silent peer, a busy server.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"

# A port nobody listens on: start a server on a free port, then stop it.
start_server SOCK_STREAM_srv -t tcp
closed_port=$SERVER_PORT
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || fail "server did not exit 0 on SIGTERM"
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$closed_port" -s 1 -c 10
grep -q "cannot connect to 127.0.0.1:$closed_port (Connection refused): is SOCK_STREAM_srv running?" \
    <<<"$ERR" || fail "no-server message: $ERR"
[ "$(wc -l <<<"$ERR")" = 1 ] || fail "expected one line on stderr: $ERR"
pass "no server: exit 1, one line"

# A report file that cannot be written fails before the test, not after it.
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$closed_port" -s 1 -c 10 \
    --json-file "$WORK_DIR/no-such-dir/run.json"
grep -q "cannot open the JSON report file .*no-such-dir/run.json" <<<"$ERR" ||
    fail "unwritable --json-file message: $ERR"
pass "unwritable --json-file: exit 1 before connecting"

# fake_server MODE: a loopback listener that is not an sctp-perf server of
# this release. MODE http answers the header with text; MODE silent never
# answers; MODE v2 answers as a server of protocol version 2 does: it reads
# the 16 bytes of a version 2 header, refuses the version (status 2, its
# version 2) and closes, the rest of a version 3 header unread.
fake_server() {
    # Emptied here, not by the background job's redirection, which may come
    # too late: the loop below would read the previous fake server's port.
    : >"$WORK_DIR/fake.port"
    perl -MIO::Socket::INET -e '
        my $l = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 5,
                                      ReuseAddr => 1) or die $!;
        $| = 1; print $l->sockport, "\n";
        alarm 30;
        while (my $c = $l->accept) {
            sysread $c, my $buf, $ARGV[0] eq "v2" ? 16 : 24;  # the test header
            if ($ARGV[0] eq "http") { print $c "HTTP/1.0 400 Bad Request\r\n\r\n"; close $c }
            elsif ($ARGV[0] eq "v2") { syswrite $c, "SPRF" . pack("nn", 2, 2); close $c }
            else { push @keep, $c }
        }' "$1" >"$WORK_DIR/fake.port" &
    STARTED_PIDS+=("$!")
    for _ in $(seq 100); do
        FAKE_PORT=$(cat "$WORK_DIR/fake.port")
        [ -n "$FAKE_PORT" ] && return 0
        sleep 0.05
    done
    fail "fake server did not start"
}

fake_server http
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$FAKE_PORT" -s 1 -c 10
grep -q "not an sctp-perf server" <<<"$ERR" || fail "foreign peer message: $ERR"
pass "foreign server: exit 1"

fake_server v2
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$FAKE_PORT" -s 1 -c 10
grep -q "the server speaks protocol version 2 and this client version 3: use a client and server of the same sctp-perf release" \
    <<<"$ERR" || fail "server of protocol version 2: $ERR"
pass "server of the previous protocol version: exit 1, naming both versions"

fake_server silent
start=$(date +%s)
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$FAKE_PORT" -s 1 -c 10 --io-timeout 1
elapsed=$(($(date +%s) - start))
grep -q "timed out" <<<"$ERR" || fail "silent peer message: $ERR"
[ "$elapsed" -le 5 ] || fail "--io-timeout 1 took $elapsed s"
pass "silent server: exit 1 after the I/O timeout (${elapsed} s)"

# A server at its client limit says so instead of leaving the client waiting.
# (--header-timeout 30: the silent slot stays held throughout.)
start_server SOCK_STREAM_srv -t tcp --max-clients 1 --header-timeout 30
exec 3<>"/dev/tcp/127.0.0.1/$SERVER_PORT"  # holds the only slot, silently
wait_for_log "connected from"
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 1 -c 10
grep -q "refused the test: server is serving its maximum number of clients" <<<"$ERR" ||
    fail "busy message: $ERR"
# A client of protocol version 2 sends a 16-byte header and waits: the busy
# server answers it from those 16 bytes (status 5, its version 3).
exec 4<>"/dev/tcp/127.0.0.1/$SERVER_PORT"
printf 'SPRF\x00\x02\x00\x00\x00\x00\x00\x02\x00\x00\x00\x6e' >&4
verdict=$(timeout 3 head -c 8 <&4 | od -An -tx1 | tr -d ' \n')
exec 4>&-
[ "$verdict" = 5350524600050003 ] || fail "busy server to a version 2 header: verdict '$verdict'"
exec 3>&-
pass "busy server: exit 1 with the reason; a version 2 header answered too"

# Under load, a server that dies or stops answering ends the run with exit 1
# and a line naming the flow, never a hang: a killed one at once, a stopped
# one after the I/O timeout.
start_server SOCK_STREAM_srv -t tcp
(sleep 1 && kill -KILL "$SERVER_PID") &
start=$(date +%s)
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 --rate 2000 --duration 10 \
    --flows 4 --interval 0
elapsed=$(($(date +%s) - start))
grep -Eq "flow [0-3], [0-9.]+ s into the run: the peer (reset|closed) the connection" <<<"$ERR" ||
    fail "server killed under load: $ERR"
[ "$elapsed" -le 4 ] || fail "a killed server took $elapsed s to notice"
pass "server killed under load: exit 1 in ${elapsed} s ($ERR)"

start_server SOCK_STREAM_srv -t tcp
(sleep 1 && kill -STOP "$SERVER_PID") &
start=$(date +%s)
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 --throughput --duration 10 \
    --io-timeout 1 --interval 0
elapsed=$(($(date +%s) - start))
kill -CONT "$SERVER_PID"
grep -Eq "flow 0, [0-9.]+ s into the run: no whole reply and no room to send for 1.0 s \(--io-timeout\)" <<<"$ERR" ||
    fail "server stopped under load: $ERR"
[ "$elapsed" -le 5 ] || fail "a stopped server took $elapsed s to give up on"
pass "server stopped under load: exit 1 after the I/O timeout (${elapsed} s)"

# A report that cannot be written in full is exit 1 with one line: a full
# disk, a closed stdout, and a reader that goes away after 10 bytes of a
# report larger than a pipe holds (a JSON ping-pong report with 1000 bins is
# about 90 KB; a pipe holds 64 KiB).
start_server SOCK_STREAM_srv -t tcp
status=0
timeout 60 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 200 >/dev/full \
    2>"$WORK_DIR/err" || status=$?
[ "$status" = 1 ] && grep -q "cannot write the report to standard output: No space left" \
    "$WORK_DIR/err" || fail "stdout to /dev/full: exit $status, $(cat "$WORK_DIR/err")"
status=0
timeout 60 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 200 >&- \
    2>"$WORK_DIR/err" || status=$?
[ "$status" = 1 ] && grep -q "cannot write the report to standard output: Bad file" \
    "$WORK_DIR/err" || fail "stdout closed: exit $status, $(cat "$WORK_DIR/err")"
status=0
(timeout 60 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 200 --format json \
    2>"$WORK_DIR/err" || echo $? >"$WORK_DIR/status") | true  # gone before the report
status=$(cat "$WORK_DIR/status" 2>/dev/null || echo 0)
[ "$status" = 1 ] && grep -q "cannot write the report to standard output: Broken pipe" \
    "$WORK_DIR/err" || fail "stdout reader gone: exit $status, $(cat "$WORK_DIR/err")"
[ "$(wc -l <"$WORK_DIR/err")" = 1 ] || fail "expected one line on stderr: $(cat "$WORK_DIR/err")"
pass "report to /dev/full, to a closed stdout, to a reader gone after 10 bytes: exit 1, one line"

# A server that trickles its replies a byte every 0.3 s, each byte well
# within the client's 1 s I/O timeout: the whole reply must come within it.
# It answers the header properly (verdict, then a settings blob) first.
perl -MIO::Socket::INET -MTime::HiRes=sleep -e '
    my $l = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 5,
                                  ReuseAddr => 1) or die $!;
    $| = 1; print $l->sockport, "\n";
    alarm 30;
    my $c = $l->accept or exit;
    sysread $c, my $header, 24;
    syswrite $c, "SPRF" . pack("nn", 0, 3) . pack("N", 2) . "{}";  # accepted by version 3
    sysread $c, my $request, 16;
    for my $byte (split //, $request) { syswrite $c, $byte or last; sleep 0.3 }
    sleep 5;' >"$WORK_DIR/trickle.port" &
STARTED_PIDS+=("$!")
for _ in $(seq 100); do
    [ -s "$WORK_DIR/trickle.port" ] && break
    sleep 0.05
done
start=$(date +%s%N)
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$(head -n 1 "$WORK_DIR/trickle.port")" -s 4 \
    --rate 10 -c 5 --io-timeout 1
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
grep -q "flow 0, primer round trip 1: the peer sent [0-9]* of the 16 bytes of a message in 1.0 s" \
    <<<"$ERR" || fail "trickling server: $ERR"
[ "$elapsed_ms" -lt 3000 ] || fail "a trickling server held the client for $elapsed_ms ms"
pass "server trickling its reply: exit 1 at the I/O timeout (${elapsed_ms} ms: $ERR)"
