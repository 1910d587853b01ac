#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the reference build that the comparisons in bench/ measure the
# current build against: the programs of one commit, built as the project
# ships them (RelWithDebInfo, no tests), in a detached git worktree outside
# the tracked files. Run again, it reuses the worktree and the build when
# they are already of that commit, so every comparison on a machine uses
# the same reference binaries.
#
# Usage: bench/build_baseline.sh [-c COMMIT] [-d DIR] [-j JOBS]
#   -c  the reference commit (default fec1a73, the last commit whose servers
#       blocked in recv, before the event-driven servers)
#   -d  where its worktree goes (default: baseline-COMMIT beside this
#       repository's top directory)
#   -j  parallel build jobs (default 2); the build runs under nice
# Prints the directory that holds its SOCK_STREAM_srv and SOCK_STREAM_clt
# on the last line, for -B of the comparisons or SCTP_PERF_BASELINE_BIN.

set -euo pipefail

commit=fec1a73
dir=
jobs=2
while getopts "c:d:j:h" opt; do
    case $opt in
        c) commit=$OPTARG ;;
        d) dir=$OPTARG ;;
        j) jobs=$OPTARG ;;
        *) sed -n '3,17p' "$0"; exit 2 ;;
    esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "-j: a number of jobs, 1 or more" >&2; exit 2; }

repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
full=$(git -C "$repo" rev-parse --verify --quiet "$commit^{commit}") ||
    { echo "$(basename "$0"): no commit '$commit' in $repo" >&2; exit 2; }
short=$(git -C "$repo" rev-parse --short=7 "$full")
dir=${dir:-$(dirname "$repo")/baseline-$short}

if [[ -e $dir ]]; then
    have=$(git -C "$dir" rev-parse HEAD 2>/dev/null) ||
        { echo "$(basename "$0"): $dir exists and is not a worktree; name another with -d" >&2; exit 1; }
    [[ $have == "$full" ]] ||
        { echo "$(basename "$0"): $dir holds $have, not $full; name another with -d" >&2; exit 1; }
    [[ -z $(git -C "$dir" status --porcelain --untracked-files=no) ]] ||
        { echo "$(basename "$0"): $dir has local changes; the reference must be the commit as it is" >&2; exit 1; }
else
    git -C "$repo" worktree add --detach "$dir" "$full" >&2
fi

# The build directory is untracked inside the worktree; a rebuild of an
# unchanged commit does nothing.
cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSCTP_PERF_BUILD_TESTS=OFF -DSCTP_PERF_BUILD_BENCH=OFF >/dev/null
nice cmake --build "$dir/build" -j "$jobs" --target SOCK_STREAM_srv SOCK_STREAM_clt >&2
"$dir/build/bin/SOCK_STREAM_clt" --version >&2
echo "$dir/build/bin"
