# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 900
# TCP against SCTP, the worked example of "Comparing configurations" in
# README.SCTP_PERF_TEST: SOCK_STREAM_clt -s 7 -c 2000 --repeat 10 over TCP
# and over SCTP, in two interleaved rounds (TCP, SCTP, TCP, SCTP) so that a
# drift of the emulator meets both sides, every process on vCPU 0 (--cpu 0)
# so that no round trip includes a cross-CPU wake-up. Each client writes its
# text report and its JSON report (--json-file) into tcp/ or sctp/; the
# directory goes back to the host as sample-results/tcp-vs-sctp-vm, where
# run-vm-sweeps.sh runs sctp-perf-compare on it. The limit is only a
# ceiling: the VM's budget (run-vm-sweeps.sh --vm-timeout) is what bounds it.
# shellcheck shell=sh
# shellcheck source=../../lib.sh
. /sctp-perf/lib.sh
# shellcheck source=../sweep-lib.sh
. /sctp-perf/sweep-lib.sh

name=tcp-vs-sctp-vm
rounds=2
# Small enough that the four clients take about a minute under TCG, large
# enough that a run's p99 rests on 20 round trips.
runs_per_client=10
count=2000
power=7

need_modules
require_program SOCK_STREAM_srv
require_program SOCK_STREAM_clt

echo "SCTPPERF-INFO ${name} kernel=$(uname -r) cpus=$(nproc)" \
    "mem_total_kb=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)" \
    "started_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"

out="${SWEEP_ROOT}/${name}"
rm -rf "${out}"
mkdir -p "${out}/tcp" "${out}/sctp"

start_server "${CHECK_WORK}/tcp-srv.log" - SOCK_STREAM_srv -t tcp -a 127.0.0.1 -p 0 --cpu 0
tcp_server="${SERVER_PID}"
tcp_port="${SERVER_PORT}"
echo "SCTPPERF-COMMAND ${name} SOCK_STREAM_srv -t tcp -a 127.0.0.1 -p 0 --cpu 0 (port ${tcp_port})"
start_server "${CHECK_WORK}/sctp-srv.log" - SOCK_STREAM_srv -t sctp -a 127.0.0.1 -p 0 --cpu 0
sctp_server="${SERVER_PID}"
sctp_port="${SERVER_PORT}"
echo "SCTPPERF-COMMAND ${name} SOCK_STREAM_srv -t sctp -a 127.0.0.1 -p 0 --cpu 0 (port ${sctp_port})"

# run_side TRANSPORT PORT SERVER_PID ROUND: one client of --repeat runs into
# TRANSPORT/ROUND.txt (its text report) and TRANSPORT/ROUND.json.
run_side() {
    _transport="$1"
    _server="$3"
    _round="$4"
    _report="${out}/${_transport}/${_round}"
    set -- -t "${_transport}" -H 127.0.0.1 -p "$2" -s "${power}" -c "${count}" --repeat "${runs_per_client}" \
        --cpu 0 --json-file "${_report}.json"
    echo "SCTPPERF-COMMAND ${name} SOCK_STREAM_clt $* > ${_report}.txt"
    _started="$(now_s)"
    _status=0
    run_client "${_report}.txt" 300 - SOCK_STREAM_clt "$@" || _status=$?
    _elapsed="$(float_sub "$(now_s)" "${_started}")"
    if [ "${_status}" -ne 0 ]; then
        sed 's/^/    client: /' "${_report}.txt.err"
        show_server_logs
        fail "SOCK_STREAM_clt $* exited with status ${_status} after ${_elapsed} s"
    fi
    rm -f "${_report}.txt.err"
    # Every run of the client must have timed every round trip it was asked.
    _points="$(json_value "${_report}.json" summary.num_points)"
    _runs="$(json_value "${_report}.json" aggregate.runs)"
    [ "${_points}" = $((count * runs_per_client)) ] && [ "${_runs}" = "${runs_per_client}" ] ||
        fail "${_report}.json has ${_points} round trips in ${_runs} runs, expected" \
            "$((count * runs_per_client)) in ${runs_per_client}"
    server_alive "${_server}" "${CHECK_WORK}/${_transport}-srv.log"
    log "${_transport} round ${_round}: ${_runs} runs, ${_points} round trips in ${_elapsed} s"
}

round=1
while [ "${round}" -le "${rounds}" ]; do
    run_side tcp "${tcp_port}" "${tcp_server}" "${round}"
    run_side sctp "${sctp_port}" "${sctp_server}" "${round}"
    round=$((round + 1))
done

send_directory "${name}"
pass "${rounds} rounds of ${runs_per_client} runs x ${count} round trips over TCP and over SCTP"
