#!/usr/bin/env bash
# Installs what is missing, builds, starts a server on loopback, runs a client
# against it and prints the latency histogram. SCTP where the kernel has it,
# TCP otherwise (with a note saying so).
#
# Usage: scripts/quickstart.sh [client options]   (default: -s 7 -c 100000)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${SCTP_PERF_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh" build
"$root/scripts/build.sh" -DSCTP_PERF_BUILD_TESTS=OFF

client_args=("$@")
[ ${#client_args[@]} -gt 0 ] || client_args=(-s 7 -c 100000)

if perl -MSocket -e 'socket(my $s, AF_INET, SOCK_STREAM, 132) or exit 1'; then
    transport=sctp
else
    transport=tcp
    echo "note: this kernel has no SCTP (try 'modprobe sctp'); measuring TCP instead." >&2
fi

server_log=$(mktemp)
# Both ends on one CPU: unpinned, the scheduler may place them together or
# apart, and the round trip differs by an order of magnitude between the two.
pin=(taskset -c 0)
"${pin[@]}" "$build_dir/bin/SOCK_STREAM_srv" -t "$transport" -a 127.0.0.1 -p 0 2>"$server_log" &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid 2>/dev/null; rm -f "$server_log"' EXIT

port=
for _ in $(seq 100); do
    port=$(sed -n 's/.*starting server at port \([0-9][0-9]*\).*/\1/p' "$server_log")
    [ -n "$port" ] && break
    sleep 0.05
done
[ -n "$port" ] || { cat "$server_log" >&2; echo "quickstart: the server did not start" >&2; exit 1; }

echo "quickstart: server and client both pinned to CPU 0 (taskset -c 0)" >&2
echo "quickstart: SOCK_STREAM_clt -t $transport -H 127.0.0.1 -p $port ${client_args[*]}" >&2
"${pin[@]}" "$build_dir/bin/SOCK_STREAM_clt" -t "$transport" -H 127.0.0.1 -p "$port" "${client_args[@]}"
