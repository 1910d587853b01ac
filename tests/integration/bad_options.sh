#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage errors exit 2 with a sentence naming the rule; --help and --version exit 0.
source "$(dirname "$0")/lib.sh"

expect_usage_error() {
    local pattern=$1
    shift
    run_capture 2 "$@"
    grep -q -- "$pattern" <<<"$ERR" || fail "'$*': stderr lacks '$pattern': $ERR"
    grep -q -- "--help" <<<"$ERR" || fail "'$*': no pointer to --help"
    pass "$* -> exit 2"
}

clt="$BIN_DIR/SOCK_STREAM_clt"
srv="$BIN_DIR/SOCK_STREAM_srv"
expect_usage_error "payload-size-power-of-2 or --payload-bytes is required" "$clt"
expect_usage_error "must be 0..16" "$clt" -s 17
expect_usage_error "-s/--payload-size-power-of-2 and --payload-bytes exclude each other" "$clt" -s 7 \
    --payload-bytes 100
expect_usage_error "--payload-bytes must be 1..65536" "$clt" --payload-bytes 0
expect_usage_error "--payload-bytes must be 1..65536" "$clt" --payload-bytes 65537
expect_usage_error "--rate and --throughput need --payload-bytes 16 or more" "$clt" --payload-bytes 15 \
    --rate 100
expect_usage_error "--reply-bytes and --echo exclude each other" "$clt" -s 7 --reply-bytes 100 --echo
expect_usage_error "--reply-bytes must be 16..65536 here: a framed reply carries its request's 16-byte" \
    "$clt" -s 7 --rate 100 --reply-bytes 8
expect_usage_error "--reply-bytes must be 2..65536: a ping-pong reply carries" "$clt" -s 7 --reply-bytes 1
expect_usage_error "--reply-bytes must be 2..65536" "$clt" -s 7 --reply-bytes 65537
expect_usage_error "--echo needs a payload of 2 bytes or more" "$clt" --payload-bytes 1 --echo
expect_usage_error "must be sctp or tcp" "$clt" -s 1 -t udp
expect_usage_error "unrecognised option '--bogus'" "$clt" -s 1 --bogus
expect_usage_error "test-iterations" "$clt" -s 1 -c 0
expect_usage_error "test-iterations" "$clt" -s 1 -c notanumber
expect_usage_error "unexpected argument 'stray'" "$clt" -s 1 stray
expect_usage_error "did you mean --payload-size-power-of-2?" "$clt" --payload-size-power-of2 3
expect_usage_error "did you mean --idle-report?" "$srv" --idle_reprt 5
expect_usage_error "-c/--test-iterations must be a count such as 100000, 1e5, 100k or 1M, not '2.5'" \
    "$clt" -s 1 -c 2.5
expect_usage_error "--sndbuf must be a size in bytes" "$clt" -s 1 -t tcp --sndbuf 4MB
expect_usage_error "--idle-report must be 1..86400 seconds" "$srv" -t tcp --idle-report 0
# Several broken rules: every line names the program.
run_capture 2 "$clt" -c 0 -b 0
[[ $(grep -c "^SOCK_STREAM_clt: " <<<"$ERR") == 3 ]] || fail "not every error line is prefixed: $ERR"
pass "every error line names the program"
expect_usage_error "greater than -m" "$clt" -s 1 -m 10 -M 5
expect_usage_error "apply to SCTP only" "$clt" -s 1 -t tcp --sctp-rto-min 20
expect_usage_error "--format must be ace or json" "$clt" -s 1 --format yaml
# SCTP's own features, each refused by name over TCP, by client and server.
for option in "--streams 4" --unordered "--pr-sctp ttl:10" "--sack-delay 20" "--sack-freq 2" \
    "--stream-scheduler rr" --interleave; do
    # shellcheck disable=SC2086
    expect_usage_error "${option%% *} applies to SCTP only" "$clt" -s 7 -t tcp --rate 10 $option
    # shellcheck disable=SC2086
    expect_usage_error "${option%% *} applies to SCTP only" "$srv" -t tcp $option
done
expect_usage_error "--pr-sctp needs --rate or --throughput" "$clt" -s 7 --pr-sctp ttl:10
# The path options, each refused by name over TCP by client and server, and
# their ranges; --sctp-primary is the client's alone.
for option in "--sctp-hb-interval 100" "--sctp-path-max-retrans 1" "--sctp-assoc-max-retrans 2" \
    "--sctp-pf-threshold 0"; do
    # shellcheck disable=SC2086
    expect_usage_error "${option%% *} applies to SCTP only; drop it or use -t sctp" "$clt" -s 7 \
        -t tcp $option
    # shellcheck disable=SC2086
    expect_usage_error "${option%% *} applies to SCTP only; drop it or use -t sctp" "$srv" -t tcp \
        $option
done
expect_usage_error "--sctp-primary applies to SCTP only" "$clt" -s 7 -t tcp --sctp-primary 127.0.0.1
expect_usage_error "--sctp-hb-interval must be 1..86400000 milliseconds or off, not 'sometimes'" \
    "$clt" -s 7 --sctp-hb-interval sometimes
expect_usage_error "--sctp-path-max-retrans must be 1..65535" "$srv" --sctp-path-max-retrans 0
expect_usage_error "--sctp-assoc-max-retrans must be 1..65535" "$clt" -s 7 --sctp-assoc-max-retrans 65536
expect_usage_error "--sctp-pf-threshold must be 0..65535" "$srv" --sctp-pf-threshold 65536
expect_usage_error "--sctp-primary takes an IPv4 or IPv6 address of the server, not 'a.host'" "$clt" \
    -s 7 --sctp-primary a.host
expect_usage_error "unrecognised option '--sctp-primary'" "$srv" --sctp-primary 127.0.0.1
# --at: a bad time, an empty command, and the rules around it.
expect_usage_error "--at later:true: the time must be 0..86400 seconds into the measured run" "$clt" \
    -s 7 -t tcp --at later:true
expect_usage_error "--at 2: : the command after the colon is empty" "$clt" -s 7 -t tcp --at '2: '
expect_usage_error "--at takes SECONDS:COMMAND" "$clt" -s 7 -t tcp --at reboot
expect_usage_error "is not within the measured run of --duration 2 s" "$clt" -s 7 -t tcp --rate 10 \
    --duration 2 --at '3:true'
expect_usage_error "--at-timeout must be 0.1..86400 seconds" "$clt" -s 7 -t tcp --at 1:true \
    --at-timeout 0
expect_usage_error "--at-timeout needs --at" "$clt" -s 7 -t tcp --at-timeout 5
expect_usage_error "--at describes one run" "$clt" -s 7 -t tcp --at 1:true --repeat 2
expect_usage_error "-p/--server-port must be 0..65535" "$srv" -p 70000
expect_usage_error "must be sctp or tcp" "$srv" -t udp
expect_usage_error "takes one address here" "$srv" -a 127.0.0.1,127.0.0.2

run_capture 0 "$clt" --help
grep -q -- "--payload-size-power-of-2" <<<"$OUT" || fail "client --help lacks options"
grep -q "microseconds" <<<"$OUT" || fail "client --help states no unit"
awk 'length($0) > 80 { exit 1 }' <<<"$OUT" || fail "client --help is wider than 80 columns"
grep -qw "arg" <<<"$OUT" && fail "client --help shows Boost's 'arg' placeholder"
run_capture 0 "$srv" -h
grep -q -- "--server-accept-addr" <<<"$OUT" || fail "server --help lacks options"
run_capture 0 "$clt" --version
grep -q "sctp-perf" <<<"$OUT" || fail "--version"
pass "--help and --version"
