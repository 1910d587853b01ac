#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian package with scripts/package.sh in BUILD_DIR, unpacks it
# with dpkg-deb -x into a temporary root, and checks what it installs: the
# six programs, their man pages (every option of --help in each), the bash
# completions, the docs, the package's relations; then runs the unpacked
# programs against each other over loopback TCP, compares their reports with
# the unpacked sctp-perf-compare, and runs the unpacked run_spectrum.pl,
# which must find them beside itself. Last, lintian: an error or a warning fails
# the test, the rest is printed.
#
# Usage: tests/package/check-deb.sh BUILD_DIR
set -euo pipefail

build_dir=${1:?usage: $0 BUILD_DIR}
source_root=$(cd "$(dirname "$0")/../.." && pwd)
start_s=$SECONDS
for tool in help2man dpkg-shlibdeps file lintian; do
    command -v "$tool" >/dev/null ||
        { echo "FAIL: $tool is not installed: run scripts/install-deps.sh test" >&2; exit 1; }
done

echo "== building the package in $build_dir"
SCTP_PERF_PACKAGE_BUILD_DIR=$build_dir "$source_root/scripts/package.sh" >"$build_dir.log" 2>&1 || {
    tail -40 "$build_dir.log" >&2
    echo "FAIL: scripts/package.sh failed (its whole log: $build_dir.log)" >&2
    exit 1
}
deb=$(tail -n 1 "$build_dir.log")
echo "$deb, built in $((SECONDS - start_s)) s"

# lib.sh wants the programs' directory: the unpacked usr/bin, made below.
source "$source_root/tests/integration/lib.sh" /nonexistent
root=$WORK_DIR/root
BIN_DIR=$root/usr/bin

programs=(SOCK_STREAM_clt SOCK_STREAM_srv SOCK_SEQPACK_clt SOCK_SEQPACK_srv sctp-perf-compare)
all=("${programs[@]}" run_spectrum.pl)

echo "== contents"
dpkg-deb -c "$deb"
dpkg-deb -x "$deb" "$root"
for name in "${all[@]}"; do
    [ -x "$BIN_DIR/$name" ] || fail "usr/bin/$name is missing or not executable"
    [ -f "$root/usr/share/man/man1/$name.1.gz" ] || fail "no man page usr/share/man/man1/$name.1.gz"
    [ -f "$root/usr/share/bash-completion/completions/$name" ] ||
        fail "no bash completion usr/share/bash-completion/completions/$name"
done
doc=$root/usr/share/doc/sctp-perf
for file in copyright changelog.gz README.SCTP_PERF_TEST.gz sample-results/tcp-loopback/README.md; do
    [ -f "$doc/$file" ] || fail "no usr/share/doc/sctp-perf/$file"
done
count=0
while read -r module; do
    [ -f "$root/usr/share/sctp-perf/perl5/$module" ] || fail "run_spectrum.pl's $module is not in usr/share/sctp-perf/perl5"
    count=$((count + 1))
done < <(cd "$source_root/lib" && find SctpPerf -name '*.pm')
[ "$count" -gt 5 ] || fail "found only $count of run_spectrum.pl's modules in $source_root/lib"
for name in "${programs[@]}"; do
    file "$BIN_DIR/$name" | grep -q ', stripped' || fail "usr/bin/$name is not stripped: $(file "$BIN_DIR/$name")"
done
pass "the six programs, their man pages and completions, the sweep's modules and the docs are there; programs stripped"

echo "== relations"
dpkg-deb -f "$deb" Package Version Depends Recommends
depends=$(dpkg-deb -f "$deb" Depends)
for package in libsctp1 perl libcpanel-json-xs-perl libc6 libstdc++6; do
    tr ',' '\n' <<<"$depends" | awk '{ print $1 }' | grep -qxF "$package" ||
        fail "Depends lacks $package: $depends"
done
[ "$(dpkg-deb -f "$deb" Recommends)" = gnuplot-nox ] || fail "Recommends is not gnuplot-nox"
pass "Depends names the linked libraries (libsctp1 among them), perl and libcpanel-json-xs-perl; Recommends gnuplot-nox"

echo "== man pages and completions against --help"
options_of() {    # the long options a program's whole help lists, one a line
    "$@" | perl -ne 'next unless /^ {0,6}(-\S.*)/; my ($names) = split /\s{2,}/, $1;
                     print "$_\n" for $names =~ /(--[A-Za-z][\w-]*)/g' | sort -u
}
whole_help_word() {    # what follows --help for the whole help: "all" where a bare --help is short
    case $1 in SOCK_*) echo all ;; esac
}
for name in "${all[@]}"; do
    page=$(zcat "$root/usr/share/man/man1/$name.1.gz")
    for section in 'EXIT STATUS' EXAMPLES FILES ENVIRONMENT 'SEE ALSO'; do
        grep -Eq "^\.SH \"?$section\"?$" <<<"$page" || fail "the man page of $name has no $section section"
    done
    completion=$root/usr/share/bash-completion/completions/$name
    count=0
    while read -r option; do
        grep -qF -- "${option//-/\\-}" <<<"$page" || fail "the man page of $name lacks $option"
        # What bash offers for the option's first four letters after the dashes.
        offered=$(bash -c 'source "$1"; COMP_WORDS=("$2" "$3"); COMP_CWORD=1
                           "_sctp_perf_${2//[^a-zA-Z0-9_]/_}"; printf "%s\n" "${COMPREPLY[@]}"' \
            _ "$completion" "$name" "${option:0:6}")
        grep -qx -- "$option" <<<"$offered" || fail "completing ${option:0:6} for $name does not offer $option"
        count=$((count + 1))
    done < <(options_of "$BIN_DIR/$name" --help $(whole_help_word "$name"))
    [ "$count" -gt 3 ] || fail "found only $count options in $name --help"
done
offered=$(bash -c 'source "$1"; COMP_WORDS=(run_spectrum.pl --protocol t); COMP_CWORD=2
                   _sctp_perf_run_spectrum_pl; echo "${COMPREPLY[*]}"' _ \
    "$root/usr/share/bash-completion/completions/run_spectrum.pl")
[ "$offered" = tcp ] || fail "completing 'run_spectrum.pl --protocol t' offers '$offered', not tcp"
pass "each man page and completion has every long option of its program's --help"

echo "== the unpacked programs over loopback TCP"
start_server SOCK_STREAM_srv -t tcp
run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 1000
grep -qx 'num_points: 1000' <<<"$OUT" || fail "the client's report does not count 1000 round trips: $OUT"
pass "SOCK_STREAM_clt ran 1000 round trips against SOCK_STREAM_srv on port $SERVER_PORT"

echo "== the unpacked sctp-perf-compare on two runs"
for side in a b; do
    run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 500 \
        --format json
    printf '%s\n' "$OUT" >"$WORK_DIR/$side.json"
done
run_capture 0 "$BIN_DIR/sctp-perf-compare" --a "$WORK_DIR/a.json" --b "$WORK_DIR/b.json"
grep -q '^percentile  A median us  B median us' <<<"$OUT" || fail "sctp-perf-compare printed no table: $OUT"
grep -q '^warning: A has only 1 run' <<<"$OUT" || fail "sctp-perf-compare did not warn of one run a side: $OUT"
pass "sctp-perf-compare compared two runs of the unpacked client"

echo "== the unpacked report schema"
schema=$root/usr/share/sctp-perf/report.schema.json
[ -f "$schema" ] || fail "no usr/share/sctp-perf/report.schema.json"
run_capture 0 /usr/bin/python3 "$SCHEMA_CHECK" "$schema" "$WORK_DIR/a.json" "$WORK_DIR/b.json"
grep -q '^check_reports: 2 client reports checked, 0 not conforming' <<<"$OUT" ||
    fail "the unpacked client's reports against the unpacked schema: $OUT"
pass "the unpacked client's reports conform to usr/share/sctp-perf/report.schema.json"

echo "== the unpacked run_spectrum.pl, finding the programs beside itself and its modules in usr/share"
sweep=$WORK_DIR/sweep
# A PATH without any other sctp-perf, so the programs can only come from usr/bin;
# no PERL5LIB, so the modules can only come from the package.
run_capture 0 env -u PERL5LIB PATH=/usr/bin:/bin "$BIN_DIR/run_spectrum.pl" --protocol tcp --start-server \
    --min-power 0 --max-power 1 --iterations 100 --no-plot --output-dir "$sweep"
[ "$(wc -l <"$sweep/spectrum.csv")" -eq 3 ] || fail "spectrum.csv has not a header and two sizes: $(cat "$sweep/spectrum.csv")"
pass "run_spectrum.pl swept 2^0..2^1 with the programs in usr/bin and its modules in usr/share/sctp-perf/perl5"

echo "== lintian"
status=0
# Warnings fail too: the one lintian used to give, a copyright file that
# named no licence, is gone since the project took Apache-2.0, and a new
# one is worth a look before it ships.
lintian --display-info --fail-on error,warning "$deb" || status=$?
[ "$status" -eq 0 ] || fail "lintian found errors or warnings (exit $status)"
pass "lintian found no error and no warning; whole test in $((SECONDS - start_s)) s"
