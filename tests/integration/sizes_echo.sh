#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Any payload size (--payload-bytes) and replies of any size (--reply-bytes,
# --echo) over TCP on loopback, with exact accounting: every request
# answered, and the bytes both ends counted are the sizes asked for times the
# messages. The client checks every reply's bytes, so a server that answers
# with the mode's own reply instead fails each of these runs.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
start_server SOCK_STREAM_srv -t tcp

# Ping-pong: the count of round trips and the sizes reported.
# ping_pong LABEL PAYLOAD REPLY ECHO POWER CLIENT-ARGS...
ping_pong() {
    local label=$1 payload=$2 reply=$3 echo=$4 power=$5
    shift 5
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -c 500 --json-file "$WORK_DIR/pp.json" "$@"
    check_json "$WORK_DIR/pp.json" "
        same 'num_points', \$d->{summary}{num_points}, 500;
        same 'payload_bytes', \$d->{config}{payload_bytes}, $payload;
        same 'reply_bytes', \$d->{config}{reply_bytes}, $reply;
        same 'echo', (\$d->{config}{echo} ? 'true' : 'false'), '$echo';
        same 'payload_power_of_2', \$d->{config}{payload_power_of_2} // 'null', '$power';
    " || fail "ping-pong $label: wrong report"
    grep -q $'^\t\t\t\t\t(Message Size '"$payload"', Message Type octet)$' <<<"$OUT" ||
        fail "ping-pong $label: ACE title"
    grep -q "payload: $payload bytes.*, reply $reply bytes" <<<"$OUT" || fail "ping-pong $label: sizes line"
    wait_for_log "$payload-byte requests, $reply-byte replies"
    pass "ping-pong $label: 500 round trips, replies of $reply bytes"
}
ping_pong "--payload-bytes 100" 100 2 false null --payload-bytes 100
ping_pong "--payload-bytes 63000" 63000 2 false null --payload-bytes 63000
ping_pong "--payload-bytes 128 (ACE's 2^7)" 128 2 false 7 --payload-bytes 128
ping_pong "--payload-bytes 100 --reply-bytes 1000" 100 1000 false null --payload-bytes 100 \
    --reply-bytes 1000
ping_pong "--payload-bytes 63000 --echo" 63000 63000 true null --payload-bytes 63000 --echo
ping_pong "-s 10 --echo" 1024 1024 true 10 -s 10 --echo
grep -q 'reply 1024 bytes (an echo of the request)' <<<"$OUT" || fail "ACE: the echo is not said"

# The load modes: every count and byte count exact. Each of 2 flows sends 300
# measured messages after 100 primers; the server counts the primers too.
# load LABEL PAYLOAD REPLY REPLIES-PER-FLOW CLIENT-ARGS...
load() {
    local label=$1 payload=$2 reply=$3 replies=$4
    shift 4
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" --flows 2 -c 300 --interval 0 \
        --json-file "$WORK_DIR/load.json" "$@"
    check_json "$WORK_DIR/load.json" "
        my \$l = \$d->{load};
        my (\$flows, \$sent, \$primer) = (2, 300, 100);
        same 'reply_bytes', \$d->{config}{reply_bytes}, $reply;
        same 'messages_sent', \$l->{messages_sent}, \$flows * \$sent;
        same 'messages_replied', \$l->{messages_replied}, \$flows * $replies;
        same 'messages_lost', \$l->{messages_lost}, 0;
        same 'bytes_sent', \$l->{bytes_sent}, \$flows * \$sent * $payload;
        same 'bytes_replied', \$l->{bytes_replied}, \$flows * $replies * $reply;
        same 'server messages_received', \$l->{server}{messages_received}, \$flows * (\$sent + \$primer);
        same 'server bytes_received', \$l->{server}{bytes_received}, \$flows * (\$sent + \$primer) * $payload;
        same 'server replies_sent', \$l->{server}{replies_sent}, \$flows * ($replies + \$primer);
        same 'server bytes_sent', \$l->{server}{bytes_sent}, \$flows * ($replies + \$primer) * $reply;
    " || fail "$label: accounting"
    grep -q "sizes: request $payload bytes, reply $reply bytes" <<<"$OUT" || fail "$label: sizes line"
    pass "$label: exact counts, replies of $reply bytes"
}
load "rate --payload-bytes 100" 100 16 300 --rate 5000 --payload-bytes 100
load "rate --payload-bytes 63000" 63000 16 300 --rate 2000 --payload-bytes 63000
load "rate --payload-bytes 100 --reply-bytes 1000" 100 1000 300 --rate 5000 --payload-bytes 100 \
    --reply-bytes 1000
load "rate --payload-bytes 1000 --echo" 1000 1000 300 --rate 5000 --payload-bytes 1000 --echo
# An echo: the bytes received are the bytes sent, at both ends.
check_json "$WORK_DIR/load.json" '
    same "echo: bytes replied", $d->{load}{bytes_replied}, $d->{load}{bytes_sent};
    same "echo: server bytes sent", $d->{load}{server}{bytes_sent}, $d->{load}{server}{bytes_received};
' || fail "echo: bytes received differ from bytes sent"
pass "echo: bytes received equal bytes sent"
load "rate --payload-bytes 63000 --echo" 63000 63000 300 --rate 2000 --payload-bytes 63000 --echo
load "ping-pong over 2 flows --payload-bytes 100 --echo" 100 100 300 --payload-bytes 100 --echo
# Throughput: the echo applies to the messages that ask for a reply, one in 10.
load "throughput --payload-bytes 1000 --echo --echo-every 10" 1000 1000 30 --throughput \
    --payload-bytes 1000 --echo --echo-every 10
