# SPDX-License-Identifier: Apache-2.0
# Shared helpers for the guest checks (sourced by busybox sh in the VM, by
# the host's sh in native mode).
#
# The runner (run-checks.sh) sets CHECK_NAME, CHECK_WORK (a scratch
# directory), RESULT_FILE, PID_FILE and NETNS_FILE. A check ends with pass,
# fail or skip, which leave a one-line reason in RESULT_FILE and exit with 0,
# 1 or 77. Every background process and namespace a check makes is recorded,
# so the EXIT trap here - or the runner, if the check was killed - removes it.
# shellcheck shell=sh

# Where the programs are: the VM's image has them here; the native runner
# points at the build's bin dir instead.
SCTPPERF_BIN="${SCTPPERF_BIN:-/sctp-perf/bin}"

# iproute2's ip and tc, not busybox's (which know neither netns nor netem).
# Debian's static busybox runs its own applet for a bare "ip" even when
# another ip comes first in PATH, so these are always called by full path.
IP="${SCTPPERF_IP:-/sctp-perf/sbin/ip}"
TC="${SCTPPERF_TC:-/sctp-perf/sbin/tc}"
ip() { "${IP}" "$@"; }
tc() { "${TC}" "$@"; }

# How long a server may take to print its port. Generous: under TCG a
# program's first start (loading libstdc++ and friends) can take a second.
SERVER_START_TIMEOUT_S=20

log() {
    echo "  [${CHECK_NAME}] $*"
}

_finish() {
    echo "$2" >"${RESULT_FILE}"
    exit "$1"
}
pass() { _finish 0 "$*"; }
fail() { _finish 1 "$*"; }
skip() { _finish 77 "$*"; }

cleanup() {
    while read -r pid; do
        stop_pid "${pid}"
    done <"${PID_FILE}"
    while read -r ns; do
        ip netns delete "${ns}" 2>/dev/null
    done <"${NETNS_FILE}"
    : >"${PID_FILE}"
    : >"${NETNS_FILE}"
}
trap cleanup EXIT

# Seconds since boot with hundredths; the guest clock is emulated, but
# elapsed-time bounds measured with it still mean something.
now_s() {
    cut -d' ' -f1 /proc/uptime
}

# Floating-point comparisons, which sh's $(( )) cannot do.
float_lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
float_ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
float_sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }

# Stops a process: TERM first (the servers exit cleanly on it), KILL if it
# is still there a second later.
stop_pid() {
    kill -TERM "$1" 2>/dev/null || return 0
    _stop_i=0
    while kill -0 "$1" 2>/dev/null && [ "${_stop_i}" -lt 10 ]; do
        sleep 0.1
        _stop_i=$((_stop_i + 1))
    done
    kill -KILL "$1" 2>/dev/null
    wait "$1" 2>/dev/null
    return 0
}

need_modules() {
    [ "${SCTPPERF_MODULES_OK:-0}" = 1 ] || fail "a kernel module failed to load (see insmod errors above)"
}

# Fails the check when a program that is always built is missing.
require_program() {
    [ -x "${SCTPPERF_BIN}/$1" ] || fail "$1 is not in the bin dir; build the project first"
}

# Skips the check when a program is not in the image (not built yet).
need_program() {
    [ -x "${SCTPPERF_BIN}/$1" ] || skip "$1 is not in the bin dir (not built)"
}

# need_both_styles: what a check of both socket styles needs: the kernel's
# modules, the SOCK_STREAM programs (always built, so missing fails) and the
# SOCK_SEQPACK ones (missing skips).
need_both_styles() {
    need_modules
    require_program SOCK_STREAM_srv
    require_program SOCK_STREAM_clt
    need_program SOCK_SEQPACK_srv
    need_program SOCK_SEQPACK_clt
}

# Skips the check when a program's --help all does not mention an option, so
# a check written against a documented option waits for it instead of
# failing. All of it: a client's plain --help shows only the options most
# runs need.
need_option() {
    "${SCTPPERF_BIN}/$1" --help all 2>&1 | grep -q -e "$2" ||
        skip "$1 has no $2 option yet"
}

# Network namespace with its loopback up, removed again on exit.
make_netns() {
    ip netns add "$1" || fail "ip netns add $1 failed"
    echo "$1" >>"${NETNS_FILE}"
    ip -n "$1" link set lo up
}

# veth_link NS1 IF1 ADDR1/LEN NS2 IF2 ADDR2/LEN: a veth pair between two
# namespaces, both ends addressed and up.
veth_link() {
    ip link add "$2" netns "$1" type veth peer name "$5" netns "$4" ||
        fail "cannot create veth pair $2/$5"
    ip -n "$1" addr add "$3" dev "$2"
    ip -n "$4" addr add "$6" dev "$5"
    ip -n "$1" link set "$2" up
    ip -n "$4" link set "$5" up
}

# two_paths: namespaces c and s joined by two veth links, as the multi-homing
# checks draw them:
#   ns c                                 ns s
#   mh0c 10.77.1.1/24 ---- path 1 ---- mh0s 10.77.1.2/24
#   mh1c 10.77.2.1/24 ---- path 2 ---- mh1s 10.77.2.2/24
# and sets, for the --at of a client in ns c, the commands that make path 1
# silent (netem loss 100 %, a silent failure as a cut fibre gives) and
# restore it, one per end, to be given at one instant: SILENCE_C, SILENCE_S,
# RESTORE_C, RESTORE_S.
two_paths() {
    make_netns c
    make_netns s
    veth_link c mh0c 10.77.1.1/24 s mh0s 10.77.1.2/24
    veth_link c mh1c 10.77.2.1/24 s mh1s 10.77.2.2/24
    # shellcheck disable=SC2034 # read by the checks
    SILENCE_C="${TC} qdisc add dev mh0c root netem loss 100%"
    # shellcheck disable=SC2034
    SILENCE_S="${IP} netns exec s ${TC} qdisc add dev mh0s root netem loss 100%"
    # shellcheck disable=SC2034
    RESTORE_C="${TC} qdisc del dev mh0c root"
    # shellcheck disable=SC2034
    RESTORE_S="${IP} netns exec s ${TC} qdisc del dev mh0s root"
}

# set_pf_enable VALUE NS...: net.sctp.pf_enable (the potentially-failed
# state: 1 on, 0 off) in each network namespace NS; fails the check if it
# cannot be set.
set_pf_enable() {
    _pf="$1"
    shift
    for _ns in "$@"; do
        echo "${_pf}" | ip netns exec "${_ns}" tee /proc/sys/net/sctp/pf_enable >/dev/null ||
            fail "cannot set net.sctp.pf_enable in namespace ${_ns}"
    done
}

# start_server LOG NS PROGRAM ARGS...
# Starts a server in the background (in namespace NS, or here when NS is "-") with its stderr in LOG and waits, at
# most SERVER_START_TIMEOUT_S, for its "starting server at port P" line.
# Sets SERVER_PID and SERVER_PORT; fails the check if the server dies or
# stays silent.
start_server() {
    _log="$1"
    _ns="$2"
    _prog="$3"
    shift 3
    # Started directly, never through a shell function: "func &" forks a
    # subshell, and $! would then name the subshell instead of the server.
    # "ip netns exec" execs the program itself, so $! is the program's PID.
    if [ "${_ns}" = "-" ]; then
        "${SCTPPERF_BIN}/${_prog}" "$@" </dev/null >"${_log}.out" 2>"${_log}" &
    else
        "${IP}" netns exec "${_ns}" "${SCTPPERF_BIN}/${_prog}" "$@" </dev/null >"${_log}.out" 2>"${_log}" &
    fi
    SERVER_PID=$!
    echo "${SERVER_PID}" >>"${PID_FILE}"
    SERVER_LOGS="${SERVER_LOGS:-} ${_log}"
    SERVER_PORT=""
    _deadline=$((SERVER_START_TIMEOUT_S * 10))
    _i=0
    while [ "${_i}" -lt "${_deadline}" ]; do
        SERVER_PORT="$(sed -n 's/.*starting server at port \([0-9][0-9]*\).*/\1/p' "${_log}" | head -n 1)"
        [ -n "${SERVER_PORT}" ] && break
        if ! kill -0 "${SERVER_PID}" 2>/dev/null; then
            sed 's/^/    server: /' "${_log}"
            fail "${_prog} $* exited before it reported a port"
        fi
        sleep 0.1
        _i=$((_i + 1))
    done
    if [ -z "${SERVER_PORT}" ]; then
        sed 's/^/    server: /' "${_log}"
        fail "${_prog} printed no 'starting server at port' line within ${SERVER_START_TIMEOUT_S} s"
    fi
}

# server_alive PID LOG: fails the check if the server has gone.
server_alive() {
    if ! kill -0 "$1" 2>/dev/null; then
        sed 's/^/    server: /' "$2"
        fail "the server exited during the check"
    fi
}

# run_client OUT LIMIT_S NS PROGRAM ARGS...
# Runs a client in the foreground (in namespace NS, or here when NS is "-"),
# bounded by LIMIT_S seconds; stdout goes to OUT and stderr to OUT.err.
# Returns the client's exit status (137 when the bound killed it).
run_client() {
    _out="$1"
    _limit="$2"
    _ns="$3"
    _prog="$4"
    shift 4
    if [ "${_ns}" = "-" ]; then
        timeout -s KILL "${_limit}" \
            "${SCTPPERF_BIN}/${_prog}" "$@" </dev/null >"${_out}" 2>"${_out}.err"
    else
        timeout -s KILL "${_limit}" \
            "${IP}" netns exec "${_ns}" "${SCTPPERF_BIN}/${_prog}" "$@" </dev/null >"${_out}" 2>"${_out}.err"
    fi
}

# start_client OUT NS PROGRAM ARGS...: a client in the background; sets
# CLIENT_PID. The caller bounds it with wait_bounded.
start_client() {
    _out="$1"
    _ns="$2"
    _prog="$3"
    shift 3
    if [ "${_ns}" = "-" ]; then
        "${SCTPPERF_BIN}/${_prog}" "$@" </dev/null >"${_out}" 2>"${_out}.err" &
    else
        "${IP}" netns exec "${_ns}" "${SCTPPERF_BIN}/${_prog}" "$@" </dev/null >"${_out}" 2>"${_out}.err" &
    fi
    CLIENT_PID=$!
    echo "${CLIENT_PID}" >>"${PID_FILE}"
}

# wait_bounded PID LIMIT_S: waits for a background process for at most
# LIMIT_S seconds; returns its exit status, or 124 after killing it.
wait_bounded() {
    _ticks=$(($2 * 10))
    _i=0
    while kill -0 "$1" 2>/dev/null; do
        if [ "${_i}" -ge "${_ticks}" ]; then
            kill -KILL "$1" 2>/dev/null
            wait "$1" 2>/dev/null
            return 124
        fi
        sleep 0.1
        _i=$((_i + 1))
    done
    wait "$1"
}

# json_num FILE SECTION KEY: the number at SECTION.KEY of a client's JSON
# report, e.g. json_num r.json summary num_points. Works on one-line and
# pretty-printed JSON alike because the whole document is joined first;
# "summary" and "percentiles" hold flat objects, so [^}]* spans them.
json_num() {
    _key="$(echo "$3" | sed 's/\./\\./g')"
    tr -d '\n' <"$1" |
        sed -n "s/.*\"$2\"[[:space:]]*:[[:space:]]*{\([^}]*\)}.*/\1/p" |
        sed -n "s/.*\"${_key}\"[[:space:]]*:[[:space:]]*\([-+0-9.eE]*\).*/\1/p"
}

# json_object FILE SECTION: a flat object of a client's report on one line.
json_object() {
    tr -d '\n' <"$1" | sed -n "s/.*\"$2\"[[:space:]]*:[[:space:]]*{\([^}]*\)}.*/{\1}/p" | tr -s ' '
}

# json_flatten FILE: every scalar of a JSON document as one "PATH<tab>VALUE"
# line, PATH being keys and array indexes joined by dots
# (load.server.messages_received, load.per_flow.0.messages_sent); VALUE is
# "null" for null and a string without its quotes (escapes kept). Empty
# objects and arrays print nothing. For the nested "load" object, where
# json_num's flat-section match cannot tell the report's "server" from
# load.server. The guest has no perl or jq, so this is a small tokenizer in
# (busybox) awk; under TCG it takes a noticeable fraction of a second, so a
# check that reads many fields flattens a report once and uses json_field.
json_flatten() {
    awk '
        { doc = doc $0 "\n" }
        function emit(value,    path, d) {
            path = ""
            for (d = 1; d <= depth; d++) path = path (d > 1 ? "." : "") name[d]
            print path "\t" value
        }
        END {
            n = length(doc)
            depth = 0
            expect_key = 0
            for (i = 1; i <= n; i++) {
                c = substr(doc, i, 1)
                if (c == "{" || c == "[") {
                    depth++
                    kind[depth] = c
                    name[depth] = (c == "[") ? 0 : ""
                    expect_key = (c == "{")
                } else if (c == "}" || c == "]") {
                    depth--
                    expect_key = 0
                } else if (c == ",") {
                    if (kind[depth] == "[") name[depth]++
                    else expect_key = 1
                } else if (c == ":") {
                    expect_key = 0
                } else if (c == "\"") {
                    j = i + 1
                    while (j <= n && substr(doc, j, 1) != "\"") j += (substr(doc, j, 1) == "\\") ? 2 : 1
                    s = substr(doc, i + 1, j - i - 1)
                    i = j
                    if (expect_key) name[depth] = s
                    else emit(s)
                } else if (c ~ /[-+0-9.a-zA-Z]/) {
                    j = i
                    while (j <= n && substr(doc, j, 1) ~ /[-+0-9.a-zA-Z]/) j++
                    emit(substr(doc, i, j - i))
                    i = j - 1
                }
            }
        }' "$1"
}

# json_field FLAT PATH: the value at PATH in FLAT, the output of
# json_flatten; empty when PATH is absent or names an object or array.
json_field() {
    awk -v want="$2" 'BEGIN { FS = "\t" } $1 == want { print $2; exit }' "$1"
}

# report_field PATH: a value of the last run's report, flattened once into
# the file $FLAT (json_flatten), as json_field gives it.
report_field() {
    json_field "${FLAT}" "$1"
}

# expect_field PATH VALUE: notes a mismatch in $mismatches instead of failing
# at once, so that one failure lists every value that is wrong.
expect_field() {
    _got="$(report_field "$1")"
    [ "${_got}" = "$2" ] || mismatches="${mismatches}; $1 is '${_got}', expected $2"
}

# expect_at_least PATH N: as expect_field, for a whole number of at least N.
expect_at_least() {
    _got="$(report_field "$1")"
    [ -n "${_got}" ] && [ "${_got}" -ge "$2" ] ||
        mismatches="${mismatches}; $1 is '${_got}', expected at least $2"
}

# judge WHAT [SEEN]: fails the check unless $mismatches is empty, naming WHAT
# and every mismatch, after the last run's client stderr (REPORT.err) and the
# servers' last log lines; otherwise logs "WHAT: SEEN" when SEEN is given.
judge() {
    if [ -n "${mismatches}" ]; then
        show_client_stderr "${REPORT}"
        show_server_logs
        fail "$1:${mismatches#;}"
    fi
    [ -z "${2:-}" ] || log "$1: $2"
}

# json_value FILE PATH: json_field on a JSON document, for a single look-up.
json_value() {
    json_flatten "$1" | awk -v want="$2" 'BEGIN { FS = "\t" } $1 == want { print $2; exit }'
}

# A client report in one line: the figures the check judges.
describe_run() {
    printf 'n=%s min=%s p50=%s p99=%s max=%s (us) duration=%s s\n' \
        "$(json_num "$1" summary num_points)" "$(json_num "$1" summary min_us)" \
        "$(json_num "$1" percentiles p50_us)" "$(json_num "$1" percentiles p99_us)" \
        "$(json_num "$1" summary max_us)" "$(json_num "$1" summary duration_s)"
}

# Last lines of every server log of the check, to see its side of a failure.
show_server_logs() {
    for _log in ${SERVER_LOGS:-}; do
        echo "    last lines of ${_log##*/}:"
        tail -n 6 "${_log}" | sed 's/^/    server: /'
    done
}

# show_client_stderr OUT: a client's stderr (OUT.err), to see its side of a
# failure.
show_client_stderr() {
    sed 's/^/    client: /' "$1.err"
}

# client_ok OUT STATUS WHAT [LIMIT_S]: fails the check unless a client's exit
# STATUS is 0, after its stderr (OUT.err) and the servers' last log lines.
# The reason names WHAT and the status, or, for 124 (wait_bounded) and 137
# (run_client's timeout), the time bound of LIMIT_S seconds that killed it.
client_ok() {
    [ "$2" -eq 0 ] && return 0
    show_client_stderr "$1"
    show_server_logs
    [ "$2" -eq 124 ] || [ "$2" -eq 137 ] && fail "$3: client killed at its ${4:+$4 s }time bound"
    fail "$3: client exited with status $2"
}

# run_report WHAT OUT LIMIT_S NS PROGRAM ARGS...: run_client, which must exit
# 0 (client_ok, naming WHAT), then the JSON report OUT (ARGS ask for it)
# flattened into OUT.flat (json_flatten). Sets REPORT (OUT), FLAT (OUT.flat)
# and RUN_S (the run's seconds), and empties $mismatches for expect_field and
# judge.
run_report() {
    _report_what="$1"
    REPORT="$2"
    shift 2
    _report_started="$(now_s)"
    _report_status=0
    run_client "${REPORT}" "$@" || _report_status=$?
    # shellcheck disable=SC2034 # read by the checks
    RUN_S="$(float_sub "$(now_s)" "${_report_started}")"
    client_ok "${REPORT}" "${_report_status}" "${_report_what}" "$1"
    FLAT="${REPORT}.flat"
    json_flatten "${REPORT}" >"${FLAT}"
    mismatches=""
}

# expect_io_timeout_ends WHAT SERVER_PID PORT ARGS...: stops the SOCK_STREAM
# server SERVER_PID (SIGSTOP), runs a SOCK_STREAM_clt of 100 round trips with
# --io-timeout 1 and ARGS (its way of waiting) against PORT, and resumes the
# server. Fails, naming WHAT, unless the client exits 1 within 10 s: however
# a client waits, the I/O timeout must still bound the wait.
expect_io_timeout_ends() {
    _silent_what="$1"
    _silent_pid="$2"
    _silent_port="$3"
    shift 3
    kill -STOP "${_silent_pid}"
    _silent_started="$(now_s)"
    _silent_status=0
    run_client "${CHECK_WORK}/stopped.json" 20 - SOCK_STREAM_clt -H 127.0.0.1 \
        -p "${_silent_port}" -s 7 -c 100 --io-timeout 1 "$@" || _silent_status=$?
    _silent_took="$(float_sub "$(now_s)" "${_silent_started}")"
    kill -CONT "${_silent_pid}"
    [ "${_silent_status}" -eq 1 ] ||
        fail "${_silent_what}, silent server: exit ${_silent_status}, expected 1 (took ${_silent_took} s)"
    float_lt "${_silent_took}" 10 ||
        fail "${_silent_what}, silent server: took ${_silent_took} s, expected about 1 s"
    log "${_silent_what}, silent server: exit 1 after ${_silent_took} s ($(head -n 1 "${CHECK_WORK}/stopped.json.err"))"
}

# calibrate WHAT PLANNED_S OUT NS PROGRAM ARGS...: a calibration, a short
# client run of the check's own kind with PLANNED_S seconds of planned work
# (run_report, bounded only by the check's own limit, CHECK_LIMIT_S), whose
# wall time gives SLOWDOWN: how many times longer than planned a run takes
# in this VM now, emulation, program start and a busy host together (at
# least 1). Every later bound on time in the check is scaled by it
# (scaled_s), so that none is a constant of a quiet machine.
calibrate() {
    _calibrate_what="$1"
    _calibrate_planned="$2"
    _calibrate_out="$3"
    shift 3
    run_report "${_calibrate_what}" "${_calibrate_out}" "${CHECK_LIMIT_S:-60}" "$@"
    SLOWDOWN="$(awk -v r="${RUN_S}" -v p="${_calibrate_planned}" \
        'BEGIN { s = r / p; printf "%.2f", s < 1 ? 1 : s }')"
    log "calibration (${_calibrate_what}): ${_calibrate_planned} s planned took ${RUN_S} s," \
        "slowdown ${SLOWDOWN}"
}

# scaled_s SECONDS: a bound for SECONDS of planned work, in whole seconds:
# three times SECONDS as slowed down as the calibration was (calibrate).
scaled_s() {
    awk -v p="$1" -v s="${SLOWDOWN:?calibrate first}" 'BEGIN { printf "%d", 3 * p * s + 1 }'
}

# sample_timer_lateness FILE: a calibration of timers while a run goes on
# beside it: in the background until stop_pid "${SAMPLER_PID}", the
# lateness in milliseconds (to the hundredth of a second /proc/uptime
# gives) of each sleep of 100 ms in this VM, one a line in FILE. Emulation
# on a busy host stalls the guest's timers, the kernel's among them, by
# as much.
sample_timer_lateness() {
    while :; do
        _late_from="$(now_s)"
        sleep 0.1
        awk -v a="${_late_from}" -v b="$(now_s)" \
            'BEGIN { l = (b - a) * 1000 - 100; printf "%d\n", (l < 0 ? 0 : l) }'
    done >"$1" &
    SAMPLER_PID=$!
    echo "${SAMPLER_PID}" >>"${PID_FILE}"
}

# largest FILE: the largest number of FILE, one a line; 0 when it has none.
largest() {
    awk 'BEGIN { m = 0 } $1 + 0 > m { m = $1 + 0 } END { printf "%d", m }' "$1"
}


# check_run OUT STATUS COUNT WHAT: fails unless the client exited 0 and its
# report counts exactly COUNT samples; prints the client's stderr and the
# servers' last log lines if not.
check_run() {
    client_ok "$1" "$2" "$4"
    _n="$(json_num "$1" summary num_points)"
    if [ "${_n}" != "$3" ]; then
        show_client_stderr "$1"
        head -c 2000 "$1" | sed 's/^/    report: /'
        fail "$4: summary.num_points is '${_n}', expected $3"
    fi
}

# run_every_size COUNT CLIENT [CLIENT OPTIONS...]: runs CLIENT against the
# server started last (SERVER_PORT, SERVER_PID, log in CHECK_WORK/srv.log)
# at every payload size 2^0..2^16, COUNT round trips each; fails unless every
# run exits 0 with exactly COUNT samples and the server outlives them all.
run_every_size() {
    _count="$1"
    _client="$2"
    shift 2
    _power=0
    while [ "${_power}" -le 16 ]; do
        _out="${CHECK_WORK}/size-${_power}.json"
        _status=0
        run_client "${_out}" 60 - "${_client}" "$@" -H 127.0.0.1 -p "${SERVER_PORT}" \
            -s "${_power}" -c "${_count}" --format json --io-timeout 10 || _status=$?
        check_run "${_out}" "${_status}" "${_count}" "payload 2^${_power}"
        log "2^${_power} bytes: $(describe_run "${_out}")"
        server_alive "${SERVER_PID}" "${CHECK_WORK}/srv.log"
        _power=$((_power + 1))
    done
}

# count_lines FILE PATTERN: how many lines of FILE match the extended
# regular expression PATTERN (0 when the file is missing).
count_lines() {
    # grep -c prints no count for a missing file; a client started in the
    # background may not have created its output yet.
    [ -f "$1" ] || {
        echo 0
        return
    }
    grep -cE "$2" "$1" 2>/dev/null || true
}

# await_lines FILE PATTERN COUNT LIMIT_S: waits at most LIMIT_S seconds for
# FILE (a server log, say) to hold COUNT lines matching PATTERN; returns 1
# if it never does.
await_lines() {
    _ticks=$(($4 * 10))
    _i=0
    while [ "$(count_lines "$1" "$2")" -lt "$3" ]; do
        [ "${_i}" -ge "${_ticks}" ] && return 1
        sleep 0.1
        _i=$((_i + 1))
    done
    return 0
}

# Associations the kernel holds with local port PORT in this namespace
# (/proc/net/sctp/assocs, LPORT in column 12).
count_assocs() {
    awk -v p="$1" 'NR > 1 && $12 == p { n++ } END { print n + 0 }' /proc/net/sctp/assocs
}
