#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The reports as a reader meets them, from real runs over TCP on loopback:
# the compact histogram against --all-bins, a typical run within 80 lines,
# ACE's block last, both ends described (a Nagle mismatch flagged), the clock
# stated, and one JSON object on stdout even when the run fails.
source "$(dirname "$0")/lib.sh"

CLIENT=("$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1)

# ace_rows TEXT: the histogram rows of an ACE report (below, bins, above).
ace_rows() { grep -E '^	.{12}  -  .{12}  :  ' <<<"$1"; }

start_server SOCK_STREAM_srv -t tcp

# The same run, compact and with --all-bins: the JSON written beside each
# says which bins held samples, so the rows can be checked one by one.
run_capture 0 "${CLIENT[@]}" -p "$SERVER_PORT" -s 7 -c 2000 -M 100 -b 50 \
    --json-file "$WORK_DIR/compact.json"
compact=$OUT
run_capture 0 "${CLIENT[@]}" -p "$SERVER_PORT" -s 7 -c 2000 -M 100 -b 50 --all-bins \
    --json-file "$WORK_DIR/all.json"
all=$OUT
nonzero=$(perl_check "$WORK_DIR/compact.json" 'print scalar grep { $_->{count} } @{$d->{histogram}{bins}}')
listed=$(perl_check "$WORK_DIR/compact.json" 'print scalar @{$d->{histogram}{bins}}')
[ "$nonzero" = "$listed" ] || fail "compact JSON lists $listed bins, $nonzero of them non-empty"
[ "$(ace_rows "$compact" | wc -l)" = $((nonzero + 2)) ] ||
    fail "compact report: expected $nonzero non-empty bins plus below and above, got: $(ace_rows "$compact")"
ace_rows "$compact" | sed '1d;$d' | grep -q ':      0    ' && fail "compact report lists an empty bin"
[ "$(ace_rows "$all" | wc -l)" = 52 ] || fail "--all-bins: expected 50 bins plus below and above"
[ "$(perl_check "$WORK_DIR/all.json" 'print scalar @{$d->{histogram}{bins}}')" = 50 ] ||
    fail "--all-bins: the JSON lacks bins"
[ "$(perl_check "$WORK_DIR/all.json" 'print $d->{histogram}{bins_shown}')" = all ] ||
    fail "--all-bins: bins_shown is not 'all'"
pass "compact report: the $nonzero non-empty of 50 bins; --all-bins: all 50"

# A typical run fits a screen: 80 lines leave room for 35 non-empty bins
# (10 us each by default) beside everything else. How many bins a run fills,
# and how many round trips beyond the histogram's range it lists (twice:
# with their iteration numbers, and in ACE's block), depends on the
# machine's noise, so that part is reported, not asserted.
# 49: the description (45 lines), p99.999 and p99.9999, as Perftest lists
# them, and each end's CPU (the client's, and why not the server's).
run_capture 0 "${CLIENT[@]}" -p "$SERVER_PORT" -s 7 -c 20000
lines=$(wc -l <<<"$OUT")
rows=$(ace_rows "$OUT" | wc -l)
# The first list is a section of its own (a heading, the rows, a blank
# line), there only when some round trip fell beyond the range.
outlier_rows=$(($(sed -n '/^outliers (/,/^$/p' <<<"$OUT" | wc -l) +
    $(sed '1,/^outliers:$/d' <<<"$OUT" | grep -cE '^	 *[0-9]+\.[0-9]{3}$' || true)))
[ $((lines - rows - outlier_rows)) -le 49 ] ||
    fail "-s 7 -c 20000 printed $((lines - rows - outlier_rows)) lines besides its $rows histogram rows and $outlier_rows outlier rows, more than 49"
typical=$OUT

# ACE's block comes last: a reader that takes every line after "outliers:"
# as a value finds only values. -M 1 makes every round trip an outlier: no
# loopback round trip takes under 1 us (5 us did not hold: 4.4 us is
# common with both ends on one CPU).
run_capture 0 "${CLIENT[@]}" -p "$SERVER_PORT" -s 7 -c 200 -M 1 -b 1 -x 4
values=$(sed '1,/^outliers:$/d' <<<"$OUT")
[ "$(wc -l <<<"$values")" = 4 ] || fail "expected the 4 kept outliers after 'outliers:', got: $values"
grep -vqE '^	 *[0-9]+\.[0-9]{3}$' <<<"$values" && fail "a line after 'outliers:' is not a value: $values"
grep -q '^	     below    -         0.000  :  ' <<<"$OUT" || fail "'below' is not where ACE puts it"
grep -q '^	       1.000  -       above    :    200    1.000    1.000$' <<<"$OUT" ||
    fail "'above' is not where ACE puts it"
OUT=$typical
grep -q 'test: closed loop: each round trip waits for the one before it' <<<"$OUT" ||
    fail "the closed loop is not stated"
grep -qE 'clock: CLOCK_MONOTONIC from .*resolution [0-9]+ ns, one read [0-9.]+ ns; the loop spends [0-9.-]+ ns per round trip' <<<"$OUT" ||
    fail "no clock line: $(grep clock <<<"$OUT")"
pass "-s 7 -c 20000: $lines lines ($rows histogram rows), ACE's block last, closed loop and clock stated"

# Both ends described; Nagle on at the client only is flagged in both formats.
run_capture 0 "${CLIENT[@]}" -p "$SERVER_PORT" -s 3 -c 300 -n --json-file "$WORK_DIR/nagle.json"
grep -q 'Nagle differs between the ends: client on, server off' <<<"$OUT" ||
    fail "ace report does not flag the Nagle mismatch"
perl_check "$WORK_DIR/nagle.json" '
    die "no warning\n" unless grep { /^Nagle differs between the ends: client on, server off/ } @{$d->{warnings}};
    my $s = $d->{server};
    for my $key (qw(version nagle cpu_affinity cpu_count spin sndbuf_bytes rcvbuf_bytes)) {
        die "server object lacks $key\n" unless exists $s->{$key};
    }
    die "server nagle\n" if $s->{nagle};
    die "no clock source\n" unless exists $d->{clock}{source};
    die "clock resolution\n" unless $d->{clock}{resolution_ns} >= 1;
    die "clock read cost\n" unless $d->{clock}{read_cost_ns} > 0;
' || fail "JSON: server, clock or warnings"
run_capture 0 "${CLIENT[@]}" -p "$SERVER_PORT" -s 3 -c 300 --format json
grep -q 'Nagle differs' <<<"$OUT" && fail "Nagle flagged while both ends have it off"
pass "both ends described; a Nagle mismatch flagged, and only then"

# With --format json a failure still prints exactly one JSON object.
closed_port=$(perl -MIO::Socket::INET -e 'my $s = IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1:0") or die; print $s->sockport')
run_capture 1 "${CLIENT[@]}" -p "$closed_port" -s 3 -c 10 --format json
echo "$OUT" >"$WORK_DIR/error.json"
perl_check "$WORK_DIR/error.json" '
    die "exit_code\n" unless $d->{exit_code} == 1;
    die "error\n" unless $d->{error} =~ /cannot connect to 127\.0\.0\.1:\d+ \(Connection refused\)/;
    die "format_version\n" unless $d->{format_version} == 2;
' || fail "refused connection: $OUT"
run_capture 2 "${CLIENT[@]}" -s 99 --format=json
echo "$OUT" >"$WORK_DIR/usage.json"
perl_check "$WORK_DIR/usage.json" '
    die "exit_code\n" unless $d->{exit_code} == 2;
    die "error\n" unless $d->{error} =~ /payload-size-power-of-2 must be 0\.\.16/;
' || fail "usage error: $OUT"
pass "failures print one JSON object with error and exit_code (1 and 2)"
