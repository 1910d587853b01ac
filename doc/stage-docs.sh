#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Lays out share/doc/sctp-perf in STAGE: COPYRIGHT as "copyright" (never
# compressed), CHANGELOG as changelog.gz, and each DOC (a path relative to
# SOURCE_ROOT, kept) gzip -9n'd when over 4 KiB, as Debian policy 12.3 asks.
#
# Usage: doc/stage-docs.sh SOURCE_ROOT STAGE COPYRIGHT CHANGELOG DOC...
set -euo pipefail

usage="usage: $0 SOURCE_ROOT STAGE COPYRIGHT CHANGELOG DOC..."
source_root=${1:?$usage}
stage=${2:?$usage}
copyright=${3:?$usage}
changelog=${4:?$usage}
shift 4

rm -rf "$stage"
mkdir -p "$stage"
install -m 0644 "$copyright" "$stage/copyright"
gzip -9n <"$changelog" >"$stage/changelog.gz"
for doc in "$@"; do
    mkdir -p "$stage/$(dirname "$doc")"
    if [ "$(stat -c %s "$source_root/$doc")" -gt 4096 ]; then
        gzip -9n <"$source_root/$doc" >"$stage/$doc.gz"
    else
        install -m 0644 "$source_root/$doc" "$stage/$doc"
    fi
done
chmod -R u=rwX,go=rX "$stage"
