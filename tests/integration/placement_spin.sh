#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --cpu and --spin over TCP on loopback: both ends pinned to CPU 0 and
# spinning run a whole test and report where they ran; a CPU the machine does
# not have is a runtime failure naming the ones it has, a malformed list a
# usage error; and a spinning wait is still bounded by --io-timeout (the
# client against a peer that never answers) and --header-timeout (the server
# against a client that never sends).
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
srv="$BIN_DIR/SOCK_STREAM_srv"

# Both ends on CPU 0, both spinning. They share the CPU, so each round trip
# waits for a spinner to yield it: keep the count small.
start_server SOCK_STREAM_srv -t tcp --cpu 0 --spin
wait_for_log "running on CPUs 0 only (--cpu)"
wait_for_log "sessions poll their sockets while they wait for data (--spin)"
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 200 --cpu 0 --spin \
    --format json
echo "$OUT" >"$WORK_DIR/pinned.json"
expect_field "$WORK_DIR/pinned.json" summary.num_points 200
expect_field "$WORK_DIR/pinned.json" server.spin 1
expect_field "$WORK_DIR/pinned.json" server.cpu_affinity 0
expect_field "$WORK_DIR/pinned.json" environment.client_cpu_affinity 0
wait_for_log "finished 300 iterations"
pass "--cpu 0 --spin on both ends: 200 round trips, placement and spin reported"

# A load mode spins too: its workers poll epoll without sleeping.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 500 --rate 2000 --spin \
    --interval 0 --format json
wait_for_log "finished 600 messages"
pass "--rate with --spin on both ends: every message counted"

# The server stops cleanly on SIGTERM, a spinning session or not.
kill -TERM "$SERVER_PID"
status=0
timeout 5 tail --pid="$SERVER_PID" -f /dev/null || fail "server did not stop within 5 s"
wait "$SERVER_PID" || status=$?
[ "$status" = 0 ] || fail "server exited $status on SIGTERM"
pass "the pinned, spinning server exits 0 on SIGTERM"

# A CPU this machine does not have: exit 1, naming the ones it has.
online=$(cat /sys/devices/system/cpu/online)
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p 1 -s 7 -c 10 --cpu 99
grep -qF -- "--cpu 99: this machine has CPUs $online" <<<"$ERR" || fail "client --cpu 99: $ERR"
run_capture 1 "$srv" -t tcp -p 0 -a 127.0.0.1 --cpu 99
grep -qF -- "--cpu 99: this machine has CPUs $online" <<<"$ERR" || fail "server --cpu 99: $ERR"
pass "--cpu 99: exit 1, 'this machine has CPUs $online'"

# A malformed list: exit 2, one sentence naming --cpu and the accepted form.
run_capture 2 "$clt" -t tcp -s 7 --cpu x
grep -qF -- "--cpu must list CPU numbers and ranges separated by commas, such as 0, 1-3 or 0,2-3, not 'x'" \
    <<<"$ERR" || fail "client --cpu x: $ERR"
run_capture 2 "$srv" -t tcp --cpu 1-0
grep -qF -- "--cpu must list" <<<"$ERR" || fail "server --cpu 1-0: $ERR"
pass "--cpu x, --cpu 1-0: exit 2 naming the accepted form"

# A peer that accepts and never answers: the spinning client gives up at
# --io-timeout (1 s), not later.
perl -MIO::Socket::INET -e '
    my $l = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 5,
                                  ReuseAddr => 1) or die "listen: $!";
    $| = 1; print $l->sockport, "\n";
    alarm 60;  # gone even if this script is killed before its cleanup
    my @held; while (my $c = $l->accept) { push @held, $c }
' >"$WORK_DIR/mute.port" 2>"$WORK_DIR/mute.err" &
STARTED_PIDS+=("$!")
mute_port=
for _ in $(seq 100); do
    mute_port=$(head -1 "$WORK_DIR/mute.port")
    [ -n "$mute_port" ] && break
    sleep 0.05
done
[ -n "$mute_port" ] || fail "the mute listener did not start: $(cat "$WORK_DIR/mute.err")"
started=$(date +%s%N)
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$mute_port" -s 7 -c 10 --spin --io-timeout 1
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
grep -q "timed out" <<<"$ERR" || fail "mute peer: expected a timeout, got: $ERR"
[ "$elapsed_ms" -lt 3000 ] || fail "the spinning client took ${elapsed_ms} ms to give up"
pass "--spin --io-timeout 1 against a mute peer: exit 1 after ${elapsed_ms} ms"

# A client that connects and sends nothing: the spinning server session
# gives up at --header-timeout (1 s) and goes on serving.
start_server SOCK_STREAM_srv -t tcp --spin --header-timeout 1
exec 3<>"/dev/tcp/127.0.0.1/$SERVER_PORT"
started=$(date +%s%N)
wait_for_log "no whole test header within 1.0 s" 3
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
exec 3>&-
[ "$elapsed_ms" -lt 3000 ] || fail "the spinning session took ${elapsed_ms} ms to give up"
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 0 -c 100 --spin
pass "a silent client ends its spinning session after ${elapsed_ms} ms; the server goes on"
