#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What the round-trip split shows is true: a server made to hold every
# ping-pong reply (its test hook --test-reply-delay, refused unless
# SCTP_PERF_TEST_HOOKS=1) puts the hold into the server's part of the split
# and nowhere else. The server polls its clock for the whole hold between
# its two stamps, so every round trip's server application part is at least
# the hold: its minimum, not a percentile, is checked. The other parts
# stay what a round trip over loopback costs: their medians are checked
# against a quarter of the hold, far above loopback's tens of microseconds
# even on a busy machine, far below the hold that a wrong attribution would
# add to one of them. Without the server's stamps the hold lies beyond the
# client. Every report says the server held its replies.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
srv="$BIN_DIR/SOCK_STREAM_srv"
hold_us=10000

# The hook is refused unless the tests ask for it, and in no help.
run_capture 2 "$srv" -t tcp -p 0 --test-reply-delay "$hold_us"
grep -q -- "--test-reply-delay makes every reply late on purpose.*refused unless SCTP_PERF_TEST_HOOKS=1" <<<"$ERR" ||
    fail "the hook without SCTP_PERF_TEST_HOOKS=1: not refused with its reason: $ERR"
SCTP_PERF_TEST_HOOKS=1 run_capture 2 "$srv" -t tcp -p 0 --test-reply-delay 0
grep -q -- "--test-reply-delay must be 1..1000000 microseconds" <<<"$ERR" ||
    fail "--test-reply-delay 0: not refused: $ERR"
run_capture 0 "$srv" --help all
if grep -q -- "test-reply-delay" <<<"$OUT"; then
    fail "--help all shows the test hook"
fi
pass "--test-reply-delay: refused without SCTP_PERF_TEST_HOOKS=1 and out of range, in no help"

SCTP_PERF_TEST_HOOKS=1 start_server SOCK_STREAM_srv -t tcp --test-reply-delay "$hold_us"
wait_for_log "warning: test hook: every ping-pong reply is held $hold_us us"

run() {
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 100 --timestamps "$@"
}

# shellcheck disable=SC2016 # Perl, expanded by Perl
held='
    sub held { my ($held_part, @others) = @_;
        my $s = $d->{round_trip_split};
        die "no round_trip_split\n" unless $s;
        same "split_round_trips", $s->{split_round_trips}, 100;
        same "missing_stamps", $s->{missing_stamps}, 0;
        same "server test_reply_delay_us", $d->{server}{test_reply_delay_us}, '"$hold_us"';
        die "no warning of the held replies\n"
            unless grep { /held every ping-pong reply '"$hold_us"' us/ } @{$d->{warnings}};
        my $held = $s->{parts}{$held_part}{summary}{min_us};
        die "$held_part: its shortest is $held us, less than the hold\n"
            unless $held >= '"$hold_us"';
        for my $part (@others) {
            my $p50 = $s->{parts}{$part}{percentiles}{p50_us};
            die "$part: p50 $p50 us, a share of the hold\n" if $p50 > '"$hold_us"' / 4;
        }
        die "the round trip p50 is $d->{percentiles}{p50_us} us, shorter than the hold\n"
            unless $d->{percentiles}{p50_us} >= '"$hold_us"';
    }
'

run --one-way --json-file "$WORK_DIR/server.json"
check_json "$WORK_DIR/server.json" "$held" \
    'held(qw(server_application client_send_stack network_and_server_kernel client_receive_stack))' ||
    fail "--one-way: the hold is not the server application's alone"
grep -q "warnings:" <<<"$OUT" && grep -q "held every ping-pong reply $hold_us us" <<<"$OUT" ||
    fail "ACE: the held replies are not warned of: $OUT"
pass "--timestamps --one-way: a ${hold_us} us hold in every round trip's server application, not in the other parts"

run --json-file "$WORK_DIR/client.json"
check_json "$WORK_DIR/client.json" "$held" \
    'held(qw(beyond_the_client client_send_stack client_receive_stack))' ||
    fail "without the server's stamps: the hold is not beyond the client alone"
pass "--timestamps alone: the hold beyond the client, not in the client's stacks"
