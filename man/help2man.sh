#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One program's man page, made by help2man from what the built program prints
# for --help and --version, so that the page lists every option it has; the
# sections --help has no room for (exit status, examples, files, environment,
# see also) come from a hand-written include file. The NAME line is the
# summary on the first line of --help, "PROGRAM - summary". Compressed with
# gzip -9n, as Debian wants (no name or time stamp in the header).
#
# Usage: man/help2man.sh PROGRAM INCLUDE OUTPUT.1.gz
set -euo pipefail

program=${1:?usage: $0 PROGRAM INCLUDE OUTPUT.1.gz}
include=${2:?usage: $0 PROGRAM INCLUDE OUTPUT.1.gz}
output=${3:?usage: $0 PROGRAM INCLUDE OUTPUT.1.gz}
name=$(basename "$program")

summary=$("$program" --help | sed -n "1s/^$name - //p")
if [ -z "$summary" ]; then
    echo "help2man.sh: the first line of '$name --help' is not '$name - SUMMARY'" >&2
    exit 1
fi
help2man --no-info --section=1 --name="$summary" --include="$include" \
    --output="$output.roff" "$program"
gzip -9n <"$output.roff" >"$output.tmp"
rm -f "$output.roff"
mv "$output.tmp" "$output"
