#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A client whose server dies (SIGKILL: the kernel closes its sockets) or
# goes silent (SIGSTOP: connections stay open, nothing is read or
# answered) in the middle of a run must end with exit 1, within
# --io-timeout for a silent server and at once for a dead one, with one
# line on stderr saying where and what. Every mode, with the default
# --interval (1 s), --interval 0.5 and --interval 0, on one flow and on
# 8 flows over 2 threads: a worker that failed once left the main thread
# waiting for an interval it had already taken, and the client hung for
# ever whenever intervals were on.
#
# Usage: peer_dies.sh BIN_DIR kill|stop
#
# Each run: the client starts, the server is signalled 1.5 s after the
# measured run began (after the first interval of the default length;
# "began": the server has received the client's primer, which on a busy
# machine was once still not answered 1.5 s after the start), and the
# client must exit 1
# within the bound: 2 s for a dead server, --io-timeout 1 s + 2.5 s for a
# silent one. The margins cover a worker's longest sleep (0.1 s), a
# throughput flow whose wait begins only once the server's buffers are
# full (up to 0.5 s here), and the sanitizer builds.
source "$(dirname "$0")/lib.sh"
signal=${2:?usage: $0 BIN_DIR kill|stop}
case $signal in
kill) bound_s=2 ;;
stop) bound_s=3.5 ;;
*) fail "usage: $0 BIN_DIR kill|stop" ;;
esac

# server_received_bytes: what the server has received on its established
# connections, in bytes (ss counts it per socket).
server_received_bytes() {
    ss -Htni state established "( sport = :$SERVER_PORT )" |
        grep -o 'bytes_received:[0-9]*' | awk -F: '{ sum += $2 } END { print sum + 0 }'
}

# wait_for_measuring CLIENT_PID: waits (up to 30 s) until the server has
# received more than the client's 100 primer requests of 128 bytes, so the
# measured run has begun.
wait_for_measuring() {
    for _ in $(seq 600); do
        [ "$(server_received_bytes)" -gt $((100 * 128)) ] && return 0
        kill -0 "$1" 2>/dev/null || return 0 # its end is judged by the caller
        sleep 0.05
    done
    fail "the client's primer did not reach the server within 30 s"
}

# peer_dies LABEL CLIENT_ARGS...: one run as above.
peer_dies() {
    local label=$1
    shift
    start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1
    disown "$SERVER_PID"  # its death is the test: no "Killed" line from bash
    local out=$WORK_DIR/client.out err=$WORK_DIR/client.err
    timeout 60 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 \
        --io-timeout 1 "$@" >"$out" 2>"$err" &
    local client=$!
    wait_for_measuring "$client"
    sleep 1.5
    kill -0 "$client" 2>/dev/null || {
        cat "$err" >&2
        fail "$label: the client ended before its server was signalled"
    }
    kill "-${signal^^}" "$SERVER_PID"
    local signalled_at status=0
    signalled_at=$(date +%s.%N)
    wait "$client" || status=$?
    local took_s
    took_s=$(echo "$(date +%s.%N) - $signalled_at" | bc)
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    [ "$status" -ne 124 ] || fail "$label: the client hung (ended by timeout 60)"
    [ "$status" -eq 1 ] || {
        cat "$err" >&2
        fail "$label: the client exited $status, expected 1"
    }
    awk -v took="$took_s" -v bound="$bound_s" 'BEGIN { exit !(took <= bound) }' ||
        fail "$label: the client took $took_s s after the server's SIG${signal^^}, more than $bound_s s"
    # The interval lines, then one line that says what happened.
    local errors
    errors=$(grep -v '^\[' "$err" || true)
    [ "$(wc -l <<<"$errors")" -eq 1 ] || {
        cat "$err" >&2
        fail "$label: expected one error line on stderr"
    }
    grep -q '^SOCK_STREAM_clt: ' <<<"$errors" || fail "$label: the error line is not the program's: $errors"
    LAST_ERROR=$errors
    pass "$label: exit 1 $took_s s after SIG${signal^^}: $errors"
}

for interval in default 0.5 0; do
    interval_args=()
    [ "$interval" = default ] || interval_args=(--interval "$interval")
    for flows in 1 8; do
        flow_args=()
        [ "$flows" = 1 ] || flow_args=(--flows 8 --threads 2)
        for mode in rate throughput ping-pong; do
            case $mode in
            rate) mode_args=(--rate 1000 --duration 30) ;;
            throughput) mode_args=(--throughput --duration 30) ;;
            ping-pong) mode_args=(--duration 30) ;;
            esac
            peer_dies "$mode, $flows flow(s), interval $interval" \
                "${mode_args[@]}" "${flow_args[@]}" "${interval_args[@]}"
            # Ping-pong is framed with intervals (its default is none) or flows.
            if [ "$mode" != ping-pong ] || [ "$interval" = 0.5 ] || [ "$flows" != 1 ]; then
                # A load-mode error names the flow, and the interval when there are some.
                grep -q 'flow [0-9]*, [0-9.]* s into the run' <<<"$LAST_ERROR" ||
                    fail "the error does not name the flow and the time: $LAST_ERROR"
                if [ "$interval" = 0.5 ] || { [ "$interval" = default ] && [ "$mode" != ping-pong ]; }; then
                    grep -q '(interval [0-9]*, from [0-9.]* s)' <<<"$LAST_ERROR" ||
                        fail "the error does not name the interval: $LAST_ERROR"
                fi
            else
                grep -q 'iteration [0-9]*' <<<"$LAST_ERROR" ||
                    fail "the ping-pong error does not name the iteration: $LAST_ERROR"
            fi
        done
    done
done

# With --format json, stdout is the error object.
peer_dies "rate, JSON error" --rate 1000 --duration 30 --format json
[ "$(json_field "$WORK_DIR/client.out" exit_code)" = 1 ] ||
    fail "the JSON error object does not give exit_code 1"
json_field "$WORK_DIR/client.out" error | grep -q 'flow 0' ||
    fail "the JSON error does not name the flow"
pass "--format json gives the error object"

# What was written before the failure stays usable: the interval CSV and
# the HdrHistogram log hold whole intervals (HdrHistogram's own reader
# reads the log, counting what the CSV counts), and the latency file whole
# rows only.
if [ "$signal" = kill ]; then
    HDR_JAR=${HDRHISTOGRAM_JAR:-/usr/share/java/hdrhistogram.jar}
    peer_dies "rate with every output file" --rate 1000 --duration 30 --flows 4 --threads 2 \
        --interval 0.5 --interval-csv "$WORK_DIR/intervals.csv" \
        --histogram-log "$WORK_DIR/run.hlog" --latency-file "$WORK_DIR/latency.csv"
    awk -F, 'NR > 1 && NF != 17 { bad = 1 } END { exit bad || NR < 3 }' "$WORK_DIR/intervals.csv" ||
        fail "the interval CSV is not whole rows: $(cat "$WORK_DIR/intervals.csv")"
    replies=$(awk -F, 'NR > 1 { n += $4 } END { print n }' "$WORK_DIR/intervals.csv")
    awk -F, 'NF != 7 { bad = 1 } END { exit bad }' "$WORK_DIR/latency.csv" ||
        fail "the latency file has a cut row"
    [ "$(tail -c 1 "$WORK_DIR/latency.csv" | od -An -c | tr -d ' ')" = '\n' ] ||
        fail "the latency file does not end with a whole row"
    rows=$(($(wc -l <"$WORK_DIR/latency.csv") - 1))
    [ "$rows" -eq "$replies" ] ||
        fail "the latency file has $rows rows, the interval CSV counts $replies replies"
    # The reader's totals line: Total_Count is its sixth column.
    timeout 60 java -cp "$HDR_JAR" org.HdrHistogram.HistogramLogProcessor -i "$WORK_DIR/run.hlog" \
        -csv -outputValueUnitRatio 1000 -o "$WORK_DIR/reader" >"$WORK_DIR/reader.stdout" 2>&1 || {
        cat "$WORK_DIR/reader.stdout" >&2
        fail "HdrHistogram's reader failed on the log of a run whose server died"
    }
    read_count=$(grep -E '^[0-9]' "$WORK_DIR/reader" | tail -n 1 | cut -d, -f6)
    [ "$read_count" = "$replies" ] ||
        fail "HdrHistogram's reader counted ${read_count:-nothing}, the interval CSV $replies"
    pass "after the server died: $replies replies in whole intervals, rows and log entries"
fi
