#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The server's log: every line stamped with UTC time to the millisecond; the
# idle line every --idle-report seconds while no test runs and never during
# one; one line per finished test with its count, duration and outcome; and
# --quiet, which keeps the port line and the errors only. About 12 s.
source "$(dirname "$0")/lib.sh"

stamp='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z \([0-9]+\|[0-9]+\) '

# every_line_stamped LOG: fails unless each line starts with the timestamp.
every_line_stamped() {
    local bad
    bad=$(grep -Evc "^$stamp" "$1" || true)
    [ "$bad" = 0 ] || {
        cat "$1" >&2
        fail "$bad line(s) of $1 lack the 'TIME (pid|tid) ' prefix"
    }
}

# seconds_of LINE: the line's timestamp as seconds since midnight, to the ms.
seconds_of() {
    perl -ne 'print $1 * 3600 + $2 * 60 + $3 if /^\S+T(\d\d):(\d\d):(\d\d\.\d\d\d)Z /' <<<"$1"
}

# about_a_period_apart FROM TO: whether two stamps (seconds_of) are one
# --idle-report 1 period apart: not early, and not late by half of it.
about_a_period_apart() {
    perl -e 'my $d = $ARGV[1] - $ARGV[0]; exit($d >= 0.9 && $d <= 1.5 ? 0 : 1)' "$1" "$2"
}

start_server SOCK_STREAM_srv -t tcp --idle-report 1

# Idle: a line about every second (a period starts when the server does).
# Judged by the log's own stamps, three lines each 0.9..1.5 s after the one
# before; how long they take to come is only bounded against a hang (a
# loaded run saw the first one 3.3 s after the start, when a count of lines
# in 3.5 s found one).
for _ in $(seq 150); do
    idle_lines=$(grep -c ') select timed out$' "$SERVER_LOG" || true)
    [ "$idle_lines" -lt 3 ] || break
    sleep 0.1
done
if [ "$idle_lines" -lt 3 ]; then
    cat "$SERVER_LOG" >&2
    fail "expected 3 idle lines with --idle-report 1 within 15 s, saw $idle_lines"
fi
previous=
while IFS= read -r line; do
    now=$(seconds_of "$line")
    if [ -n "$previous" ]; then
        about_a_period_apart "$previous" "$now" ||
            fail "idle lines $previous and $now are not about 1 s apart"
    fi
    previous=$now
done < <(grep ') select timed out$' "$SERVER_LOG" | head -n 3)
pass "idle line every second with --idle-report 1 (3 lines, each 0.9..1.5 s after the one before)"

# A 3 s test: no idle line from its connection to its end, and one line at
# its end with the client, the count, the duration and "ok".
before=$(wc -l <"$SERVER_LOG")
run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 \
    --rate 1000 --duration 3
wait_for_log "finished [0-9]* messages"
during=$(tail -n +"$((before + 1))" "$SERVER_LOG" | sed -n '/ connected from /,/ finished [0-9]* messages$/p')
grep -q ' connected from ' <<<"$during" || fail "the test's connection was not logged"
if grep -q 'select timed out' <<<"$during"; then
    cat "$SERVER_LOG" >&2
    fail "an idle line came while the test ran"
fi
finished=$(grep -E " finished [0-9]+ messages$" "$SERVER_LOG")
grep -Eq "^$stamp""client 127\.0\.0\.1:[0-9]+ ok in [0-9]+\.[0-9]{3} s: finished [0-9]+ messages$" \
    <<<"$finished" || fail "finished-test line: $finished"
took=$(sed -E 's/.* ok in ([0-9.]+) s: .*/\1/' <<<"$finished")
perl -e 'exit($ARGV[0] >= 2.9 && $ARGV[0] < 10 ? 0 : 1)' -- "$took" ||
    fail "a 3 s test logged as taking $took s"
pass "no idle line during a ${took} s test; its line: ${finished#* }"

# The last test's end restarts the idle report.
wait_for_log "finished [0-9]* messages"
tail_after=$(sed -n '/ finished [0-9]* messages$/,$p' "$SERVER_LOG")
for _ in $(seq 100); do
    grep -q 'select timed out' <<<"$tail_after" && break
    sleep 0.1
    tail_after=$(sed -n '/ finished [0-9]* messages$/,$p' "$SERVER_LOG")
done
grep -q 'select timed out' <<<"$tail_after" || fail "no idle line within 10 s of the test's end"
# A full period from the test's end, by the log's stamps.
ended=$(seconds_of "$(head -n 1 <<<"$tail_after")")
resumed=$(seconds_of "$(grep -m 1 'select timed out' <<<"$tail_after")")
about_a_period_apart "$ended" "$resumed" ||
    fail "the first idle line after the test came $ended -> $resumed, not about 1 s after its end"
pass "the idle report resumes after the test, a period after its end"

# A ping-pong test keeps ACE's words, and a failed one says why.
run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -p "$SERVER_PORT" -s 2 -c 300
wait_for_log ") client 127.0.0.1:[0-9]* ok in [0-9.]* s: finished 400 iterations$"
exec 3<>"/dev/tcp/127.0.0.1/$SERVER_PORT"
printf 'GET / HTTP/1.1\r\n\r\n' >&3 2>/dev/null || true
exec 3>&-
wait_for_log "failed in [0-9.]* s: closed after 0 iterations: refused: not an sctp-perf test header"
every_line_stamped "$SERVER_LOG"
pass "ping-pong and failed tests logged; every line stamped"

# A load test that fails says how many messages came before it did (it said
# "closed after 0 messages" whatever it had received).
"$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 --rate 1000 --duration 30 \
    >"$WORK_DIR/killed.out" 2>"$WORK_DIR/killed.err" &
killed_client=$!
STARTED_PIDS+=("$killed_client")
for _ in $(seq 150); do
    grep -q ' sent ' "$WORK_DIR/killed.err" && break
    sleep 0.1
done
grep -q ' sent ' "$WORK_DIR/killed.err" || fail "the load client never reported a second of its run"
kill -KILL "$killed_client"
wait "$killed_client" 2>/dev/null || true
wait_for_log "failed in [0-9.]* s: closed after [0-9]* messages: "
killed=$(grep -E " closed after [0-9]+ messages: " "$SERVER_LOG" | tail -n 1)
grep -Eq " closed after [1-9][0-9]* messages: " <<<"$killed" ||
    fail "a load client killed a second into its run: $killed"
pass "a failed load test counts its messages: ${killed#* }"

# --quiet: the port line and errors only.
start_server SOCK_STREAM_srv -t tcp --idle-report 1 --quiet
run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -p "$SERVER_PORT" -s 2 -c 300
exec 3<>"/dev/tcp/127.0.0.1/$SERVER_PORT"
printf 'GET / HTTP/1.1\r\n\r\n' >&3 2>/dev/null || true
exec 3>&-
wait_for_log "refused: not an sctp-perf test header"
sleep 1.5 # an idle period, which must stay silent
every_line_stamped "$SERVER_LOG"
lines=$(wc -l <"$SERVER_LOG")
if [ "$lines" != 2 ] || ! grep -q ') starting server at port [0-9]*$' "$SERVER_LOG"; then
    cat "$SERVER_LOG" >&2
    fail "--quiet: expected the port line and the garbage client's error only, got $lines lines"
fi
pass "--quiet keeps the port line and the error only"

# An event loop held up past an idle expiry while a client connects (the
# server stopped, SIGSTOP, for 1.5 s of a 1 s period): when it goes on, the
# expired wait must not log, nor re-arm the report the test has parked. It
# did, every second of the test, before the loop told a superseded wait by
# its arming (seen under TSan on a loaded machine; here made certain).
start_server SOCK_STREAM_srv -t tcp --idle-report 1
sleep 0.5
kill -STOP "$SERVER_PID"
"$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 --rate 1000 --duration 3 \
    >"$WORK_DIR/held.out" 2>"$WORK_DIR/held.err" &
held_client=$!
STARTED_PIDS+=("$held_client")
sleep 1.5
kill -CONT "$SERVER_PID"
wait "$held_client" || { cat "$WORK_DIR/held.err" >&2; fail "the client of the held server failed"; }
wait_for_log "finished [0-9]* messages"
during=$(sed -n '/ connected from /,/ finished [0-9]* messages$/p' "$SERVER_LOG")
if grep -q 'select timed out' <<<"$during"; then
    cat "$SERVER_LOG" >&2
    fail "an idle line came during the test of a server held past an idle expiry"
fi
pass "a server held past an idle expiry as a client connects logs no idle line during its test"
