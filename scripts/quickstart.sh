#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing, builds, starts a server on loopback, runs a client
# against it and prints the latency report. SCTP where the kernel has it, TCP
# otherwise (with a note saying so).
#
# Usage: scripts/quickstart.sh [client options]
#
# The client runs with -s 7 -c 100000 plus the options given. An option given
# replaces the default of the same name, in any spelling: -c 20000,
# --test-iterations 20000, --test-iterations=20000 and -c20000 all keep -s 7
# and replace -c 100000; --duration replaces -c as well, since the two exclude
# each other. -t (--test-transport-protocol) and --cpu apply to the server
# too. -H and -p are refused: the server is started here, on 127.0.0.1, at a
# port the kernel picks.
#
# Only the report goes to stdout; everything else (package installation, the
# build, notes) goes to stderr, so the report can be piped:
#   scripts/quickstart.sh --format json | jq .summary
#
# Environment:
#   SCTP_PERF_BIN_DIR=DIR    use the programs already built in DIR: nothing is
#                            installed or built (the tests use this, so as not
#                            to reconfigure the build they run from)
#   SCTP_PERF_BUILD_DIR=DIR  build into DIR instead of build/ (programs in DIR/bin)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

usage_error() {
    echo "quickstart: $*" >&2
    exit 2
}

# Sets $name to the client's long name for an option word, and $glued to the
# value glued to it, if any: "-c20000" gives test-iterations and 20000.
# Underscores in long names read as dashes, as the programs take them. $name
# is empty for a word that is not an option.
name=
glued=
option_name() {
    local word=$1
    glued=
    case $word in
        --*=*)
            name=${word%%=*}
            glued=${word#*=}
            ;;
        --?*) name=$word ;;
        -[0-9]*) name= ;; # a negative number is a value
        -?*)
            name=${word:0:2}
            [ ${#word} -gt 2 ] && glued=${word:2}
            ;;
        *) name= ;;
    esac
    name=${name#--}
    name=${name//_/-}
    case $name in
        -s) name=payload-size-power-of-2 ;;
        -c) name=test-iterations ;;
        -t) name=test-transport-protocol ;;
        -H) name=server-host ;;
        -p) name=server-port ;;
    esac
}

# Sorts the options given into what quickstart sets itself (the transport, the
# CPUs) and what goes to the client as it is; notes which defaults are replaced.
user_args=("$@")
client_args=()
given_s=0
given_c=0
transport=
cpus=0
i=0
while [ $i -lt ${#user_args[@]} ]; do
    word=${user_args[$i]}
    option_name "$word"
    value=$glued
    case $name in
        test-transport-protocol | cpu)
            if [ -z "$value" ]; then
                i=$((i + 1))
                [ $i -lt ${#user_args[@]} ] || usage_error "$word needs a value"
                value=${user_args[$i]}
            fi
            if [ "$name" = cpu ]; then cpus=$value; else transport=$value; fi
            i=$((i + 1))
            continue
            ;;
        server-host | server-port)
            usage_error "$word: quickstart starts its own server on 127.0.0.1 at a port the kernel" \
                "picks; to measure another server, run SOCK_STREAM_clt itself"
            ;;
        payload-size-power-of-2) given_s=1 ;;
        test-iterations | duration) given_c=1 ;;
    esac
    client_args+=("$word")
    i=$((i + 1))
done
defaults=()
[ $given_s = 1 ] || defaults+=(-s 7)
[ $given_c = 1 ] || defaults+=(-c 100000)
client_args=("${defaults[@]}" "${client_args[@]}")

if [ -n "${SCTP_PERF_BIN_DIR:-}" ]; then
    bin_dir=$SCTP_PERF_BIN_DIR
    for program in SOCK_STREAM_srv SOCK_STREAM_clt; do
        [ -x "$bin_dir/$program" ] ||
            usage_error "SCTP_PERF_BIN_DIR=$bin_dir holds no $program; build it, or unset SCTP_PERF_BIN_DIR"
    done
else
    bin_dir=${SCTP_PERF_BUILD_DIR:-$root/build}/bin
    # Their progress is not the report: stdout is kept for the report alone.
    "$root/scripts/install-deps.sh" build >&2
    "$root/scripts/build.sh" -DSCTP_PERF_BUILD_TESTS=OFF >&2
fi

if [ -z "$transport" ]; then
    if perl -MSocket -e 'socket(my $s, AF_INET, SOCK_STREAM, 132) or exit 1'; then
        transport=sctp
    else
        transport=tcp
        echo "note: this kernel has no SCTP (try 'modprobe sctp'); measuring TCP instead." >&2
    fi
fi

server_log=$(mktemp)
# Both ends on the same CPUs: unpinned, the scheduler may place them together
# or apart, and the round trip differs by an order of magnitude between the two.
"$bin_dir/SOCK_STREAM_srv" -t "$transport" -a 127.0.0.1 -p 0 --cpu "$cpus" 2>"$server_log" &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid 2>/dev/null; rm -f "$server_log"' EXIT

port=
for _ in $(seq 100); do
    port=$(sed -n 's/.*starting server at port \([0-9][0-9]*\).*/\1/p' "$server_log")
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.05
done
[ -n "$port" ] || {
    cat "$server_log" >&2
    echo "quickstart: the server did not start" >&2
    exit 1
}

client=("$bin_dir/SOCK_STREAM_clt" -t "$transport" -H 127.0.0.1 -p "$port" --cpu "$cpus"
    "${client_args[@]}")
echo "quickstart: server and client both pinned to CPU $cpus (--cpu $cpus)" >&2
echo "quickstart: SOCK_STREAM_clt ${client[*]:1}" >&2
"${client[@]}"
