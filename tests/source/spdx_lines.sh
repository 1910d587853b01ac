#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file of the tree names its licence in an SPDX line, so that a
# file copied out of sctp-perf still says under what terms (Apache-2.0, the
# LICENSE file at the top). Lists the files that lack it and fails; build
# directories and the sample results (outputs of runs) are skipped.
#
# Usage: tests/source/spdx_lines.sh SOURCE_ROOT
set -euo pipefail

root=${1:?usage: $0 SOURCE_ROOT}
line='SPDX-License-Identifier: Apache-2.0'
[ -f "$root/LICENSE" ] || { echo "FAIL: $root/LICENSE is missing"; exit 1; }
grep -q 'Apache License' "$root/LICENSE" && grep -q 'Version 2.0' "$root/LICENSE" ||
    { echo "FAIL: $root/LICENSE is not the Apache License, Version 2.0"; exit 1; }

missing=0
checked=0
while IFS= read -r -d '' file; do
    checked=$((checked + 1))
    # Within the first three lines: after a #! line, or a C++ file's own first line.
    if ! head -n 3 "$file" | grep -qF "$line"; then
        echo "no SPDX line: ${file#"$root"/}"
        missing=$((missing + 1))
    fi
done < <(find "$root" \( -path "$root/build*" -o -path "$root/.git" -o -path "$root/sample-results" \) -prune -o -type f \
              \( -name '*.cpp' -o -name '*.hpp' -o -name '*.c' -o -name '*.hpp.in' \
                 -o -name '*.sh' -o -name '*.pl' -o -name '*.pm' -o -name '*.t' -o -name '*.gp' \
                 -o -name CMakeLists.txt -o -name '*.cmake' \) -print0)
[ "$checked" -gt 100 ] || { echo "FAIL: only $checked source files found under $root"; exit 1; }
if [ "$missing" -ne 0 ]; then
    echo "FAIL: $missing of $checked source files lack '$line' in their first three lines"
    exit 1
fi
echo "PASS: all $checked source files carry '$line'"
