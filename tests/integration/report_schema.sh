#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The report's schema, doc/report.schema.json: valid JSON Schema; the clients'
# reports of every kind conform to it, those of real SCTP in the sample
# results too; and the check refuses what breaks the contract (a key the
# schema does not name, a wrong type, a missing key, another format_version),
# so that the check lib.sh makes of every other test's reports can fail.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
root=$(cd "$(dirname "$0")/../.." && pwd)
check=(/usr/bin/python3 "$SCHEMA_CHECK")

# One report of each kind the clients write.
start_server SOCK_STREAM_srv -t tcp
closed_port=$SERVER_PORT
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || fail "server did not exit 0 on SIGTERM"
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$closed_port" -s 1 -c 10 --json-file "$WORK_DIR/error.json"
# The failed run's --json-file holds the error document, not nothing.
expect_field "$WORK_DIR/error.json" exit_code 1
start_server SOCK_STREAM_srv -t tcp
to=(-t tcp -H 127.0.0.1 -p "$SERVER_PORT")
run_capture 0 "$clt" "${to[@]}" -s 4 -c 300 --json-file "$WORK_DIR/ping-pong.json"
run_capture 0 "$clt" "${to[@]}" -s 4 --rate 2000 --duration 0.3 --interval 0.1 --json-file "$WORK_DIR/rate.json"
run_capture 0 "$clt" "${to[@]}" -s 4 --rate 2000 --duration 0.3 --json-file "$WORK_DIR/rate-2.json"
run_capture 0 "$clt" "${to[@]}" -s 4 --throughput --flows 3 --duration 0.3 --json-file "$WORK_DIR/throughput.json"
run_capture 0 "$clt" "${to[@]}" -s 4 -c 200 --repeat 2 --pause 0 --one-way --half-rtt --json-file "$WORK_DIR/repeat.json"
run_capture 0 "$BIN_DIR/sctp-perf-compare" --merge "$WORK_DIR/rate.json" "$WORK_DIR/rate-2.json" \
    --allow-apart --format json
printf '%s\n' "$OUT" >"$WORK_DIR/merged.json"
for kind in error ping-pong rate throughput repeat merged; do
    run_capture 0 "${check[@]}" --strict "$REPORT_SCHEMA" "$WORK_DIR/$kind.json"
    grep -q '^check_reports: 1 client reports checked, 0 not conforming' <<<"$OUT" ||
        fail "$kind.json was not checked as a client report: $OUT"
done
# The published schema is open (a newer client may add keys); it accepts them as well.
run_capture 0 "${check[@]}" "$REPORT_SCHEMA" "$WORK_DIR"
pass "error document, ping-pong, rate, throughput with flows, repeat with --one-way, merged: all conform"

# SCTP from the real kernel (the VM's sample results): the sctp feature and
# association counter sections, which loopback TCP here cannot make.
run_capture 0 "${check[@]}" --strict "$REPORT_SCHEMA" "$root/sample-results/tcp-vs-sctp-vm"
grep -q '^check_reports: 4 client reports checked, 0 not conforming' <<<"$OUT" ||
    fail "the VM's TCP and SCTP sample reports: $OUT"
pass "the VM's sample reports of SCTP and TCP conform"

# And its failover experiment: SCTP's paths, faults and failure sections,
# over multi-homed associations, at 72 settings.
run_capture 0 "${check[@]}" --strict "$REPORT_SCHEMA" "$root/sample-results/sctp-failover-grid-vm"
grep -q '^check_reports: 72 client reports checked, 0 not conforming' <<<"$OUT" ||
    fail "the VM's failover sample reports: $OUT"
pass "the VM's failover sample reports conform"

# The check can fail: each spoiled copy of a real report is refused, naming where.
mkdir -p "$WORK_DIR/broken"
spoil() {    # spoil NAME FROM PERL: a copy of report FROM changed by PERL on $d
    perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; our $d = decode_json(<$f>);
        eval $ARGV[1]; die $@ if $@; print JSON::PP->new->canonical->encode($d)' \
        "$WORK_DIR/$2" "$3" >"$WORK_DIR/broken/$1.json"
}
refused() {    # refused NAME WHERE [--strict]: the check exits 1 and names WHERE
    local how=()
    [ -z "${3:-}" ] || how=("$3")
    run_capture 1 "${check[@]}" "${how[@]}" "$REPORT_SCHEMA" "$WORK_DIR/broken/$1.json"
    grep -qF -- "$2" <<<"$ERR" || fail "$1: the refusal does not say '$2': $ERR"
}
spoil extra-key ping-pong.json '$d->{surprise} = 1'
refused extra-key "'surprise' was unexpected" --strict
run_capture 0 "${check[@]}" "$REPORT_SCHEMA" "$WORK_DIR/broken/extra-key.json"
spoil nested-key rate.json '$d->{load}{messages_sent_twice} = $d->{load}{messages_sent}'
refused nested-key "at /load: Additional properties are not allowed" --strict
spoil wrong-type ping-pong.json '$d->{summary}{num_points} = "300"'
refused wrong-type "at /summary/num_points: '300' is not of type 'integer'"
spoil missing ping-pong.json 'delete $d->{percentiles}'
refused missing "'percentiles' is a required property"
spoil version ping-pong.json '$d->{format_version} = 3'
refused version "at /format_version: 2 was expected"
spoil counter throughput.json '$d->{load}{server}{transport}{rto_us} = -1'
refused counter "at /load/server/transport/rto_us: -1 is less than the minimum of 0"
spoil mode rate.json '$d->{config}{mode} = "burst"'
refused mode "at /config/mode: 'burst' is not one of"
printf '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": 5}\n' >"$WORK_DIR/broken/schema.json"
run_capture 2 "${check[@]}" "$WORK_DIR/broken/schema.json" "$WORK_DIR/ping-pong.json"
grep -q 'is not valid JSON Schema' <<<"$ERR" || fail "a broken schema was not refused: $ERR"
pass "a key not in the schema (strict), a wrong type, a missing key, format_version 3, a negative counter, an unknown mode: refused; a broken schema: exit 2"
