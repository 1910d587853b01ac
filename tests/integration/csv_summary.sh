#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --csv-summary over TCP on loopback: runs append one line each under one
# header, whatever their mode, and each line holds the figures the run's own
# JSON report gives; a file under another header is refused and left as it was.
source "$(dirname "$0")/lib.sh"

CLIENT=("$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1)
CSV=$WORK_DIR/runs.csv

# column NAME LINE: the field of LINE (1-based, of $CSV) under header NAME.
column() {
    awk -F, -v name="$1" -v line="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i; if (!col) exit 3 }
        NR == line { print $col }' "$CSV" || fail "no column $1 in $CSV"
}

start_server SOCK_STREAM_srv -t tcp

# Two ping-pong runs of two sizes, then one at a fixed rate.
run_capture 0 "${CLIENT[@]}" -p "$SERVER_PORT" -s 6 -c 2000 --csv-summary "$CSV" \
    --json-file "$WORK_DIR/first.json"
run_capture 0 "${CLIENT[@]}" -p "$SERVER_PORT" -s 8 -c 1000 --csv-summary "$CSV"
[ "$(wc -l <"$CSV")" = 3 ] || fail "two runs: expected a header and two lines, got: $(cat "$CSV")"
run_capture 0 "${CLIENT[@]}" -p "$SERVER_PORT" -s 7 --rate 2000 -c 500 --interval 0 \
    --csv-summary "$CSV" --json-file "$WORK_DIR/rate.json"
[ "$(wc -l <"$CSV")" = 4 ] || fail "three runs: expected a header and three lines, got: $(cat "$CSV")"
[ "$(grep -c '^started_at,' "$CSV")" = 1 ] || fail "the header was written more than once"
head -1 "$CSV" | grep -q ',p50_us,p90_us,p99_us,p99_9_us,' || fail "header lacks the percentiles"
[ "$(awk -F, '{ print NF }' "$CSV" | sort -u | wc -l)" = 1 ] ||
    fail "lines of different widths: $(cat "$CSV")"

# Each line is its own run's.
[ "$(column payload_bytes 2)" = 64 ] || fail "first run: payload_bytes $(column payload_bytes 2)"
[ "$(column payload_bytes 3)" = 256 ] || fail "second run: payload_bytes $(column payload_bytes 3)"
[ "$(column count 2)" = 2000 ] || fail "first run: count $(column count 2)"
[ "$(column count 3)" = 1000 ] || fail "second run: count $(column count 3)"
[ "$(column messages_lost 2)" = 0 ] || fail "first run: messages_lost $(column messages_lost 2)"
[ "$(column transport 2)" = tcp ] || fail "first run: transport $(column transport 2)"
[ "$(column rate_per_flow_per_s 2)" = "" ] || fail "ping-pong has a rate"
[ "$(column mode 4)" = rate ] || fail "third run: mode $(column mode 4)"
[ "$(column rate_per_flow_per_s 4)" = 2000 ] || fail "third run: rate $(column rate_per_flow_per_s 4)"

# The same figures as the JSON report of the same run, to the nanosecond.
same() { perl -e 'exit(abs($ARGV[0] - $ARGV[1]) <= 0.0015 ? 0 : 1)' -- "$1" "$2"; }
for key in min_us mean_us p50_us p99_us max_us; do
    section=percentiles
    case $key in min_us | mean_us) section=summary ;; esac
    same "$(column $key 2)" "$(json_field "$WORK_DIR/first.json" "$section.$key")" ||
        fail "first run: $key $(column $key 2) in the CSV, $(json_field "$WORK_DIR/first.json" "$section.$key") in the JSON"
    same "$(column $key 4)" "$(json_field "$WORK_DIR/rate.json" "$section.$key")" ||
        fail "rate run: $key $(column $key 4) in the CSV, $(json_field "$WORK_DIR/rate.json" "$section.$key") in the JSON"
done
[ "$(column messages_sent 4)" = "$(json_field "$WORK_DIR/rate.json" load.messages_sent)" ] ||
    fail "rate run: messages_sent differs from the JSON's"

# Another file's header: refused before connecting, exit 1, the file untouched.
printf 'flow,messages_sent\n1,2\n' >"$WORK_DIR/other.csv"
run_capture 1 "${CLIENT[@]}" -p "$SERVER_PORT" -s 6 -c 10 --csv-summary "$WORK_DIR/other.csv"
grep -q 'other columns' <<<"$ERR" || fail "no reason given for refusing the file: $ERR"
[ "$(wc -l <"$WORK_DIR/other.csv")" = 2 ] || fail "the refused file was written to"

# Both clients take it (SCTP itself is checked in the VM, not here).
run_capture 0 "$BIN_DIR/SOCK_SEQPACK_clt" --help
grep -q -- '--csv-summary FILE' <<<"$OUT" || fail "SOCK_SEQPACK_clt --help lacks --csv-summary"

pass
