#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --check: the client validates its options as a run would and exits 0 with
# nothing printed, or 2 with the run's own sentences, without connecting.
# --check-lines: many command lines from standard input, each checked so.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
seqpack_clt="$BIN_DIR/SOCK_SEQPACK_clt"

# expect_same_refusal CMD...: CMD with --check exits 2 and says exactly what
# CMD without it says (stdout and stderr), which must be a usage error too.
expect_same_refusal() {
    local program=$1
    shift
    run_capture 2 "$program" "$@"
    local run_out=$OUT run_err=$ERR
    run_capture 2 "$program" --check "$@"
    [ "$ERR" = "$run_err" ] || fail "--check $*: stderr differs from a run's:
--- with --check:
$ERR
--- without:
$run_err"
    [ "$OUT" = "$run_out" ] || fail "--check $*: stdout differs from a run's: '$OUT' against '$run_out'"
    pass "--check $* -> exit 2, the run's own words"
}

# A port nobody listens on: start a server on a free port, then stop it.
start_server SOCK_STREAM_srv -t tcp
closed_port=$SERVER_PORT
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || fail "server did not exit 0 on SIGTERM"

# No server: a run fails to connect, --check does not try. (A quick exit:
# a run's connect could wait up to --io-timeout, 10 s.)
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$closed_port" -s 7 -c 10
began_ns=$(date +%s%N)
run_capture 0 "$clt" --check -t tcp -H 127.0.0.1 -p "$closed_port" -s 7 -c 10
elapsed_ms=$((($(date +%s%N) - began_ns) / 1000000))
if [ -n "$OUT" ] || [ -n "$ERR" ]; then
    fail "--check printed something: stdout '$OUT', stderr '$ERR'"
fi
[ "$elapsed_ms" -lt 3000 ] || fail "--check took $elapsed_ms ms"
pass "--check with no server: exit 0 in $elapsed_ms ms, nothing printed (a run exits 1)"

# A server that is listening sees no connection from --check, and does see a run's.
start_server SOCK_STREAM_srv -t tcp
run_capture 0 "$clt" --check -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 10 --flows 4 --rate 100
sleep 0.3
grep -q ' connected from ' "$SERVER_LOG" && fail "--check connected: $(cat "$SERVER_LOG")"
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 10
wait_for_log ' connected from '
pass "--check leaves a listening server alone; the run it checked connects"

# No host is resolved (.invalid never resolves, RFC 6761), no file opened.
run_capture 0 "$clt" --check -t tcp -H no-such-host.invalid -s 7 -c 10
run_capture 0 "$clt" --check -t tcp -p "$closed_port" -s 7 --json-file "$WORK_DIR/none/run.json" \
    --flows 2 --latency-file "$WORK_DIR/latency.csv"
[ ! -e "$WORK_DIR/latency.csv" ] || fail "--check created the --latency-file"
pass "--check resolves no host and opens no file"

# Usage errors: the run's sentences, one per broken rule, and exit 2.
expect_same_refusal "$clt" -s 17
expect_same_refusal "$clt" -t tcp -s 7 -c 0 -b 0 --rate 100 --throughput
expect_same_refusal "$clt" -t tcp -s 3 --rate 100
expect_same_refusal "$clt" -t tcp -s 7 --format json --bogus
grep -q '"exit_code": 2' <<<"$OUT" || fail "--format json: no error document on stdout: $OUT"
expect_same_refusal "$seqpack_clt" -s 7 -t tcp
run_capture 0 "$seqpack_clt" --check -s 7 -H 127.0.0.1,127.0.0.2 -p "$closed_port"
pass "SOCK_SEQPACK_clt --check takes a multi-homed -H list"

# The limits checked before connecting are checked too: descriptors (bash's
# ulimit -n sets the soft and the hard limit, so none can be raised).
status=0
(ulimit -n 64 && exec "$clt" --check -t tcp -p "$closed_port" -s 4 --rate 10 --flows 100) \
    >"$WORK_DIR/limit.out" 2>"$WORK_DIR/limit.err" || status=$?
[ "$status" -eq 2 ] || fail "--check beyond ulimit -n: exit $status, expected 2"
grep -q "ulimit -n" "$WORK_DIR/limit.err" || fail "no ulimit -n sentence: $(cat "$WORK_DIR/limit.err")"
pass "--check finds a descriptor limit too low for --flows: exit 2"

# --check-lines: a JSON list of words a line; the number of each line that would
# run on stdout (a blank line is counted, not checked); no connection either.
lines=$WORK_DIR/lines
printf '%s\n' "[\"-t\", \"tcp\", \"-H\", \"127.0.0.1\", \"-p\", \"$SERVER_PORT\", \"-s\", \"7\", \"-c\", \"10\"]" \
    '["-t", "tcp", "--payload-bytes", "100", "--rate", "100", "--flows", "4"]' '' \
    '["-t", "tcp", "-s", "16", "--json-file", "none/run.json", "--check"]' >"$lines"
connections=$(log_count ' connected from ')
run_capture 0 "$clt" --check-lines <"$lines"
[ "$OUT" = "$(printf '1\n2\n4')" ] || fail "--check-lines: stdout '$OUT', expected the lines 1, 2 and 4"
[ -z "$ERR" ] || fail "--check-lines printed on stderr: $ERR"
sleep 0.3
[ "$(log_count ' connected from ')" -eq "$connections" ] ||
    fail "--check-lines connected: $(cat "$SERVER_LOG")"
pass "--check-lines: three command lines taken, their numbers printed, no connection"

# The first line that would not run ends it, with what --check says of that line;
# the lines after it are not read (the third is no JSON).
printf '%s\n' '["-t", "tcp", "-s", "7"]' '["-t", "tcp", "-s", "17", "-c", "0"]' 'not JSON' >"$lines"
run_capture 2 "$clt" --check -t tcp -s 17 -c 0
check_err=$ERR
run_capture 2 "$clt" --check-lines <"$lines"
[ "$OUT" = 1 ] || fail "--check-lines with line 2 refused: stdout '$OUT', expected 1"
[ "$ERR" = "$check_err" ] || fail "--check-lines: stderr differs from --check's for line 2:
--- --check-lines:
$ERR
--- --check:
$check_err"
pass "--check-lines stops at a refused line with --check's sentences: exit 2"

printf '%s\n' '["-t", "tcp", "-s", 7]' >"$lines"
run_capture 2 "$clt" --check-lines <"$lines"
grep -q -- '--check-lines: line 1 is not a JSON list of the words of a command line' <<<"$ERR" ||
    fail "--check-lines with a number for a word: $ERR"
run_capture 2 "$clt" --check-lines -s 4 </dev/null
grep -q -- '--check-lines is given alone' <<<"$ERR" || fail "--check-lines -s 4: $ERR"
run_capture 0 "$clt" --check-lines </dev/null
[ -z "$OUT$ERR" ] || fail "--check-lines with no lines printed something: '$OUT' '$ERR'"
printf '%s\n' '["-s", "7", "-H", "127.0.0.1,127.0.0.2"]' >"$lines"
run_capture 0 "$seqpack_clt" --check-lines <"$lines"
[ "$OUT" = 1 ] || fail "SOCK_SEQPACK_clt --check-lines: stdout '$OUT'"
pass "--check-lines: a line that is no list of strings, another option, no lines, SOCK_SEQPACK_clt"

run_capture 0 "$clt" --help
grep -q -- "--check" <<<"$OUT" || fail "client --help lacks --check"
grep -q -- "--check-lines" <<<"$OUT" || fail "client --help lacks --check-lines"
run_capture 0 "$seqpack_clt" --help
grep -q -- "--check" <<<"$OUT" || fail "SOCK_SEQPACK_clt --help lacks --check"
pass "--check in both clients' --help"
