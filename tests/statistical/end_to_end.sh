#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The statistical tier's slice through the program itself: synthetic
# reports with a known truth (sctp_perf_synthetic_reports), made from real
# client reports (TEMPLATES: a ping-pong and a rate-mode run over loopback
# TCP), compared by sctp-perf-compare with a gate. An A/A comparison of 5
# runs a side passes (exit 0); a true 20 % slowdown at 10 runs a side is
# called at p50 and fails the gate (exit 3); 4 runs a side decide nothing
# (exit 4); and the JSON carries the power of each row.
#
# Usage: end_to_end.sh BIN_DIR TEMPLATES
source "$(dirname "$0")/../integration/lib.sh"
TEMPLATES=${2:?usage: $0 BIN_DIR TEMPLATES}
MAKE=("$BIN_DIR/sctp_perf_synthetic_reports")
COMPARE=("$BIN_DIR/sctp-perf-compare")
GATE=(--fail-if-slower "p99:5%,p50:3%")

for template in tcp-ping-pong tcp-rate; do
    t="$TEMPLATES/$template.json"
    # A/A: two sets of 5 draws of one model, seeds 1 and 2.
    "${MAKE[@]}" "$t" "$WORK_DIR/$template/aa-a" 5 1 drifting 1
    "${MAKE[@]}" "$t" "$WORK_DIR/$template/aa-b" 5 1 drifting 2
    run_capture 0 "${COMPARE[@]}" --a "$WORK_DIR/$template/aa-a" --b "$WORK_DIR/$template/aa-b" "${GATE[@]}"
    grep -q '^gate --fail-if-slower: passed$' <<<"$OUT" || fail "$template A/A: the gate did not pass: $OUT"
    pass "$template, A/A of 5 runs a side: exit 0; $(grep '^p50 ' <<<"$OUT" | tr -s ' ')"
done

# A true 20 % slowdown, 10 runs a side of a loaded machine (p50 moving by
# about 6 % from run to run).
t="$TEMPLATES/tcp-ping-pong.json"
"${MAKE[@]}" "$t" "$WORK_DIR/slow-a" 10 1 loaded 3
"${MAKE[@]}" "$t" "$WORK_DIR/slow-b" 10 1.2 loaded 4
run_capture 3 "${COMPARE[@]}" --a "$WORK_DIR/slow-a" --b "$WORK_DIR/slow-b" "${GATE[@]}"
grep -q '^p50 .* slower$' <<<"$OUT" || fail "20 % slower: p50 is not called slower: $OUT"
grep -q '^gate --fail-if-slower: FAILED (exit 3)$' <<<"$OUT" || fail "20 % slower: the gate did not fail: $OUT"
pass "a true 20 % slowdown, 10 runs a side: exit 3; $(grep '^p50 ' <<<"$OUT" | tr -s ' ')"

# 4 runs a side: below the least number, whatever the truth.
run_capture 4 "${COMPARE[@]}" --a "$WORK_DIR"/slow-a/run-[1-4].json --b "$WORK_DIR"/slow-b/run-[1-4].json "${GATE[@]}"
[ "$(grep -cE '^(p[0-9.]+|max) .* too few runs for a verdict \(n = 4, at least 5 needed\)$' <<<"$OUT")" = 5 ] ||
    fail "4 runs a side: not every row lacks a verdict: $OUT"
pass "4 runs a side of the same: exit 4, no verdict"

run_capture 0 "${COMPARE[@]}" --a "$WORK_DIR/slow-a" --b "$WORK_DIR/slow-b" --format json
printf '%s\n' "$OUT" >"$WORK_DIR/slow.json"
check_json "$WORK_DIR/slow.json" '
    same("p50 verdict", $d->{percentiles}[0]{verdict}, "slower");
    my $p = $d->{percentiles}[0]{power};
    die "p50 has no power\n" unless ref $p eq "HASH";
    die "p50 could call only above $p->{slower_ratio}, beyond its own ratio\n"
        if $p->{slower_ratio} > $d->{percentiles}[0]{ratio};'
pass "--format json: p50 slower, and it could call B/A below the ratio it found"
