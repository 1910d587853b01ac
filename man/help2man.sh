#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One program's man page, made by help2man from what the built program prints
# for --help and --version, so that the page lists every option it has; the
# sections --help has no room for (exit status, examples, files, environment,
# see also) come from a hand-written include file. The NAME line is the
# summary on the first line of --help, "PROGRAM - summary". Compressed with
# gzip -9n, as Debian wants (no name or time stamp in the header).
#
# HELP is the option that prints the whole help: "--help all" for the
# programs whose bare --help gives only the options most runs need, "--help"
# (the default) for the others.
#
# Usage: man/help2man.sh PROGRAM INCLUDE OUTPUT.1.gz [HELP]
set -euo pipefail

usage="usage: $0 PROGRAM INCLUDE OUTPUT.1.gz [HELP]"
program=${1:?$usage}
include=${2:?$usage}
output=${3:?$usage}
help=${4:---help}
name=$(basename "$program")

# $help is split into its words on purpose: "--help all" is two.
# shellcheck disable=SC2086
summary=$("$program" $help | sed -n "1s/^$name - //p")
if [ -z "$summary" ]; then
    echo "help2man.sh: the first line of '$name $help' is not '$name - SUMMARY'" >&2
    exit 1
fi
help2man --no-info --section=1 --name="$summary" --include="$include" \
    --help-option="$help" --output="$output.roff" "$program"
gzip -9n <"$output.roff" >"$output.tmp"
rm -f "$output.roff"
mv "$output.tmp" "$output"
