#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/quickstart.sh with the programs of this build (SCTP_PERF_BIN_DIR: it
# installs and builds nothing, so the build CTest runs from is left alone):
# extra options add to its defaults, and stdout holds the report alone.
source "$(dirname "$0")/lib.sh"

quickstart=$(cd "$(dirname "$0")/../.." && pwd)/scripts/quickstart.sh

# -c replaces the default -c 100000 and keeps -s 7: 2000 round trips of 2^7 bytes.
SCTP_PERF_BIN_DIR=$BIN_DIR timeout 60 "$quickstart" --format json -c 2000 \
    >"$WORK_DIR/quick.json" 2>"$WORK_DIR/quick.err" ||
    fail "quickstart failed: $(cat "$WORK_DIR/quick.err")"
perl -MJSON::PP -e '
    local $/; my $d = JSON::PP->new->decode(<STDIN>);
    die "num_points is $d->{summary}{num_points}, not 2000\n" unless $d->{summary}{num_points} == 2000;
    die "payload_bytes is $d->{config}{payload_bytes}, not 128\n" unless $d->{config}{payload_bytes} == 128;
' <"$WORK_DIR/quick.json" || fail "stdout is not the JSON report asked for: $(head -c 300 "$WORK_DIR/quick.json")"
grep -q -- '--cpu 0' "$WORK_DIR/quick.err" || fail "the client is not pinned with --cpu 0"
pass "quickstart --format json -c 2000: stdout parses as JSON, 2000 points of 128 bytes"

# A long form with '=' replaces the default as well: -s 7 gives way to 2^3.
SCTP_PERF_BIN_DIR=$BIN_DIR timeout 60 "$quickstart" --format=json --payload-size-power-of-2=3 \
    --test-iterations 500 >"$WORK_DIR/long.json" 2>"$WORK_DIR/long.err" ||
    fail "quickstart with long options failed: $(cat "$WORK_DIR/long.err")"
[ "$(json_field "$WORK_DIR/long.json" config.payload_bytes)" = 8 ] || fail "--payload-size-power-of-2=3"
[ "$(json_field "$WORK_DIR/long.json" summary.num_points)" = 500 ] || fail "--test-iterations 500"
pass "long options replace the defaults"

# It runs its own server: -H is refused with a usage error.
status=0
SCTP_PERF_BIN_DIR=$BIN_DIR timeout 60 "$quickstart" -H 127.0.0.1 >/dev/null \
    2>"$WORK_DIR/host.err" || status=$?
[ "$status" = 2 ] || fail "-H: exit status $status, not 2"
grep -q 'starts its own server' "$WORK_DIR/host.err" || fail "-H: $(cat "$WORK_DIR/host.err")"
pass "-H refused"
