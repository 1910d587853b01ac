#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The warm-up over TCP on loopback: --primer sets the unrecorded round trips
# before measuring, and the server, which counts every message it is sent,
# must have seen exactly the measured ones plus that primer. A client that
# kept ACE's fixed 100 would make the server count 100 where these runs ask
# for 7 or 0.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
start_server SOCK_STREAM_srv -t tcp

# check_json FILE PERL: runs PERL with $d the decoded FILE; it dies with a reason.
check_json() {
    perl -MJSON::PP -e '
        local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!";
        our $d = JSON::PP->new->decode(<$f>);
        sub same { my ($what, $got, $want) = @_;
                   die "$what is ", $got // "null", ", not $want\n" unless defined $got && $got eq $want }
        eval $ARGV[1]; die $@ if $@;
    ' "$1" "$2"
}

# Ping-pong: the test header asks the server for -c + --primer round trips.
# ping_pong PRIMER: 50 measured round trips after PRIMER primers.
ping_pong() {
    local primer=$1 total=$((50 + $1))
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 -c 50 --primer "$primer" \
        --json-file "$WORK_DIR/pp.json"
    check_json "$WORK_DIR/pp.json" "
        same 'num_points', \$d->{summary}{num_points}, 50;
        same 'primer_iterations', \$d->{config}{primer_iterations}, $primer;
    " || fail "ping-pong --primer $primer: wrong report"
    grep -q $'^\titerations: 50 measured, after '"$primer"' unrecorded primer iterations$' <<<"$OUT" ||
        fail "ping-pong --primer $primer: the iterations line does not state the primer"
    wait_for_log "Test for $total iterations"
    wait_for_log "finished $total iterations"
    pass "ping-pong --primer $primer: the server served 50 + $primer round trips"
}
ping_pong 7
ping_pong 0

# The framed modes: each of 2 flows sends 30 measured messages after PRIMER
# primers; the server counts the primers too, the client's count does not.
# load LABEL PRIMER CLIENT-ARGS...
load() {
    local label=$1 primer=$2
    shift 2
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 5 --flows 2 -c 30 \
        --primer "$primer" --interval 0 --json-file "$WORK_DIR/load.json" "$@"
    check_json "$WORK_DIR/load.json" "
        my \$l = \$d->{load};
        my (\$flows, \$sent, \$primer) = (2, 30, $primer);
        same 'primer_iterations', \$d->{config}{primer_iterations}, \$primer;
        same 'messages_sent', \$l->{messages_sent}, \$flows * \$sent;
        same 'messages_received_by_server', \$l->{messages_received_by_server}, \$flows * \$sent;
        same 'messages_lost', \$l->{messages_lost}, 0;
        same 'server messages_received', \$l->{server}{messages_received}, \$flows * (\$sent + \$primer);
        same 'server replies_sent', \$l->{server}{replies_sent}, \$flows * (\$sent + \$primer);
    " || fail "$label --primer $primer: accounting"
    grep -q $'^\tprimer: '"$primer"' unrecorded round trips on each flow before the load$' <<<"$OUT" ||
        fail "$label --primer $primer: the primer line"
    pass "$label --primer $primer: the server counted 2 x (30 + $primer) messages"
}
load "rate" 7 --rate 2000
load "rate" 0 --rate 2000
load "framed ping-pong" 7

# A bad count is a usage error naming the rule.
run_capture 2 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 4 --primer 1000001
grep -q -- "--primer must be 0..1000000" <<<"$ERR" || fail "--primer 1000001: no sentence"
pass "--primer 1000001 is a usage error"
