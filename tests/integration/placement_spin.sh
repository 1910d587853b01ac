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
# --io-timeout (1 s), not later. "Not later" is judged against the same
# client waiting blocked, measured just before, so that what a busy machine
# adds to both (starting the process, the scheduler) is not taken for the
# spin's: a spin looks at the clock every 1024 empty polls, which adds
# milliseconds, and a spin that never looked would add the whole 60 s bound.
# The allowance is 4 s beyond the blocked one, not a multiple of it: a
# spinner is always runnable, so on a busy CPU it waits its turn more often
# than a sleeper, and a whole test run beside it once made the spinning
# server's 1 s take 2,375 ms against the blocked one's 1,167 ms.
spin_allowance_ms=4000
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
    # The listener's shell may not have made the file yet.
    mute_port=$(head -1 "$WORK_DIR/mute.port" 2>/dev/null || true)
    [ -n "$mute_port" ] && break
    sleep 0.05
done
[ -n "$mute_port" ] || fail "the mute listener did not start: $(cat "$WORK_DIR/mute.err")"
# give_up_ms CLIENT_ARGS...: how long the client takes to give up on the mute
# peer, in ms; it must exit 1 saying it timed out.
give_up_ms() {
    local started
    started=$(date +%s%N)
    run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$mute_port" -s 7 -c 10 --io-timeout 1 "$@"
    grep -q "timed out" <<<"$ERR" || fail "mute peer ($*): expected a timeout, got: $ERR"
    echo $((($(date +%s%N) - started) / 1000000))
}
blocked_ms=$(give_up_ms)
elapsed_ms=$(give_up_ms --spin)
[ "$elapsed_ms" -lt $((blocked_ms + spin_allowance_ms)) ] ||
    fail "the spinning client took ${elapsed_ms} ms to give up, the blocked one ${blocked_ms} ms"
pass "--spin --io-timeout 1 against a mute peer: exit 1 after ${elapsed_ms} ms (blocked: ${blocked_ms} ms)"

# A client that connects and sends nothing: the spinning server session
# gives up at --header-timeout (1 s) and goes on serving; judged, as above,
# against a blocked session measured the same way just before.
# silent_session_ms: connects to the server and sends nothing; how long, in
# ms, until the server logs that it gave up.
silent_session_ms() {
    local started elapsed
    exec 3<>"/dev/tcp/127.0.0.1/$SERVER_PORT"
    started=$(date +%s%N)
    wait_for_log "no whole test header within 1.0 s" 10
    elapsed=$((($(date +%s%N) - started) / 1000000))
    exec 3>&-
    echo "$elapsed"
}
start_server SOCK_STREAM_srv -t tcp --header-timeout 1
blocked_ms=$(silent_session_ms)
start_server SOCK_STREAM_srv -t tcp --spin --header-timeout 1
elapsed_ms=$(silent_session_ms)
[ "$elapsed_ms" -lt $((blocked_ms + spin_allowance_ms)) ] ||
    fail "the spinning session took ${elapsed_ms} ms to give up, the blocked one ${blocked_ms} ms"
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 0 -c 100 --spin
pass "a silent client ends its spinning session after ${elapsed_ms} ms (blocked: ${blocked_ms} ms); the server goes on"
