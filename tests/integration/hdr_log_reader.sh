#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# HdrHistogram interval logs checked with HdrHistogram's own reader, the Java
# HistogramLogProcessor (Debian: libhdrhistogram-java, default-jre-headless).
#
# Sourced by other tests (after lib.sh), it provides
#   check_histogram_log FILE EXPECTED_COUNT EXPECTED_P99_US [TAG]
# Run alone with the programs' directory as $1, it is the test of
# hdr_log_sample's log, for both its untagged and its "uncorrected" series.

# The jar; HDRHISTOGRAM_JAR overrides where Debian puts it.
HDR_JAR=${HDRHISTOGRAM_JAR:-/usr/share/java/hdrhistogram.jar}

# check_histogram_log FILE EXPECTED_COUNT EXPECTED_P99_US [TAG]: fails unless
# the reader, merging every interval of FILE whose tag is TAG (none: the
# untagged lines), finds exactly EXPECTED_COUNT values and a p99 that agrees
# with EXPECTED_P99_US (microseconds) within one bucket.
#
# Why one bucket, one-sided: the reader reports a percentile as the highest
# value of its bucket, while log_linear_histogram reports the middle of the
# bucket (clamped to the exact minimum and maximum), and any exact value lies
# in the bucket too. So for the same samples 0 <= java - ours < bucket width,
# and a bucket is at most 1/1024 of its lower edge wide: java - ours <=
# java / 1024 (under 0.1 %). Both numbers are printed with 3 decimals, so
# each side gets 0.001 µs of slack for rounding.
check_histogram_log() {
    local file=$1 expected_count=$2 expected_p99_us=$3 tag=${4:-}
    local name=${tag:-untagged}
    command -v java >/dev/null ||
        fail "java not found: run scripts/install-deps.sh test (default-jre-headless)"
    [ -r "$HDR_JAR" ] ||
        fail "$HDR_JAR not found: run scripts/install-deps.sh test (libhdrhistogram-java)"
    local tag_args=()
    [ -n "$tag" ] && tag_args=(-tag "$tag")
    local out="$WORK_DIR/hdr-processor.$RANDOM"
    # -outputValueUnitRatio 1000: the log holds ns, the output is in µs.
    # -o: the per-interval CSV goes to $out (the merged distribution to
    # $out.hgrm); its last line holds the totals over all intervals.
    timeout 60 java -cp "$HDR_JAR" org.HdrHistogram.HistogramLogProcessor -i "$file" -csv \
        -outputValueUnitRatio 1000 "${tag_args[@]}" -o "$out" >"$out.stdout" 2>&1 || {
        cat "$out.stdout" >&2
        fail "$name: HistogramLogProcessor failed on $file"
    }
    # Columns: Timestamp,Int_Count,Int_50%,Int_90%,Int_Max,Total_Count,
    # Total_50%,Total_90%,Total_99%,Total_99.9%,Total_99.99%,Total_Max.
    local totals count p99_us
    totals=$(grep -E '^[0-9]' "$out" | tail -n 1)
    [ -n "$totals" ] || {
        cat "$out" >&2
        fail "$name: the reader found no intervals in $file"
    }
    count=$(cut -d, -f6 <<<"$totals")
    p99_us=$(cut -d, -f9 <<<"$totals")
    echo "$name: reader count=$count p99_us=$p99_us; ours count=$expected_count p99_us=$expected_p99_us"
    [ "$count" = "$expected_count" ] ||
        fail "$name: the reader counted $count values, expected $expected_count"
    awk -v java="$p99_us" -v ours="$expected_p99_us" 'BEGIN {
        difference = java - ours
        exit !(difference >= -0.001 && difference <= java / 1024 + 0.001)
    }' || fail "$name: the reader's p99 $p99_us µs is not within one bucket above ours, $expected_p99_us µs"
    pass "$name: HdrHistogram's reader agrees (count $count, p99 $p99_us µs)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    source "$(dirname "$0")/lib.sh"
    run_capture 0 "$BIN_DIR/hdr_log_sample" "$WORK_DIR/sample.hlog"
    for series in untagged uncorrected; do
        summary=$(grep "^$series " <<<"$OUT") || fail "hdr_log_sample printed no $series line"
        count=$(sed -n 's/.* count=\([0-9]*\).*/\1/p' <<<"$summary")
        p99_us=$(sed -n 's/.* p99_us=\([0-9.]*\).*/\1/p' <<<"$summary")
        tag=$series
        [ "$series" = untagged ] && tag=
        check_histogram_log "$WORK_DIR/sample.hlog" "$count" "$p99_us" "$tag"
    done
fi
