#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One-way latency (--one-way) and half of the round trip (--half-rtt) over TCP
# on loopback. Client and server share one host, so the split is on one
# CLOCK_MONOTONIC: client->server + the server's turnaround + server->client
# is each round trip, to the nanosecond, and the means of the three parts add
# up to the mean round trip within the clock's resolution and the report's
# rounding. Every part must be positive: a server that stamps wrongly (or not
# at all) makes parts below 0, which the report counts. Then the refusals:
# replies too small for the stamps, and a server of the previous release.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
start_server SOCK_STREAM_srv -t tcp

# adds_up(WHAT, RTT_MEAN), for check_json: the split of round trips whose
# mean is RTT_MEAN (us) has parts that add up to it.
# shellcheck disable=SC2016 # Perl, expanded by Perl
adds_up='
        sub adds_up { my ($w, $rtt_mean) = @_;
            my $res_us = $d->{clock}{resolution_ns} / 1000;
            same "same_host", ($w->{same_host} ? "true" : "false"), "true";
            same "negative_parts", $w->{negative_parts}, 0;
            my $sum = 0;
            for my $part (qw(client_to_server server_turnaround server_to_client)) {
                my $s = $w->{$part}{summary};
                die "$part has no samples\n" unless $s->{num_points} > 0;
                die "$part min $s->{min_us} us is not above 0\n" unless $s->{min_us} > 0 || $part eq "server_turnaround";
                die "$part p50 missing\n" unless defined $w->{$part}{percentiles}{p50_us};
                $sum += $s->{mean_us};
            }
            # Each mean is rounded to 0.001 us in the report: 4 roundings.
            my $tolerance = $res_us + 0.002;
            die sprintf("the parts mean %.3f us, the round trip %.3f us: more than %.3f us apart\n",
                        $sum, $rtt_mean, $tolerance) if abs($sum - $rtt_mean) > $tolerance;
            die "turnaround mean is not below the mean round trip\n"
                unless $w->{server_turnaround}{summary}{mean_us} < $rtt_mean;
        }
'

run() {
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" "$@"
}

# Ping-pong: 2000 round trips split, the report's sizes, the server's log.
run -s 7 -c 2000 --one-way --json-file "$WORK_DIR/pp.json"
check_json "$WORK_DIR/pp.json" "$adds_up" '
    same "num_points", $d->{summary}{num_points}, 2000;
    same "one_way config", ($d->{config}{one_way} ? "true" : "false"), "true";
    same "reply_bytes", $d->{config}{reply_bytes}, 18;
    same "client_to_server num_points", $d->{one_way}{client_to_server}{summary}{num_points}, 2000;
    adds_up($d->{one_way}, $d->{summary}{mean_us});
' || fail "ping-pong --one-way: the parts do not add up to the round trip"
grep -q '^one way (microseconds, from the server.s stamps' <<<"$OUT" || fail "ACE: no one-way block"
grep -q 'client->server      turnaround  server->client' <<<"$OUT" || fail "ACE: no column heads"
grep -q 'clock: one host (the same boot id at both ends): both ends. CLOCK_MONOTONIC' <<<"$OUT" ||
    fail "ACE: the clock is not said"
grep -q 'reply 18 bytes, the server.s 16 bytes of timestamps in it' <<<"$OUT" ||
    fail "ACE: the reply size with the stamps is not said"
wait_for_log "server timestamps"
pass "ping-pong --one-way: client->server + turnaround + server->client = the round trip"

# SOCK_STREAM_clt runs ping-pong in the load engine with 2 flows: framed.
run -s 7 -c 1000 --flows 2 --interval 0 --one-way --json-file "$WORK_DIR/framed.json"
check_json "$WORK_DIR/framed.json" "$adds_up" '
    same "reply_bytes", $d->{config}{reply_bytes}, 32;
    adds_up($d->{one_way}, $d->{load}{latency_uncorrected}{mean_us});
' || fail "framed ping-pong --one-way: the parts do not add up to the round trip"
pass "framed ping-pong over 2 flows --one-way: the parts add up"

# Rate mode: the split is of the round trip from each message's send.
run -s 7 --rate 2000 --duration 1 --one-way --json-file "$WORK_DIR/rate.json"
check_json "$WORK_DIR/rate.json" "$adds_up" '
    same "reply_bytes", $d->{config}{reply_bytes}, 32;
    adds_up($d->{one_way}, $d->{load}{latency_uncorrected}{mean_us});
' || fail "rate --one-way: the parts do not add up to the round trip"
grep -q 'the round trip from each message.s send (uncorrected)' <<<"$OUT" ||
    fail "rate ACE: which round trip is split is not said"
pass "rate --one-way: the parts add up to the uncorrected round trip"

# Throughput with --echo: the echo keeps the stamps after the header.
run --payload-bytes 100 --throughput --duration 1 --echo --echo-every 10 --one-way \
    --json-file "$WORK_DIR/tp.json"
check_json "$WORK_DIR/tp.json" "$adds_up" '
    same "reply_bytes", $d->{config}{reply_bytes}, 100;
    adds_up($d->{one_way}, $d->{load}{latency_uncorrected}{mean_us});
' || fail "throughput --echo --one-way: the parts do not add up"
pass "throughput --echo --one-way: the parts add up"

# --half-rtt: RTT/2 beside the round trip, labelled on every line.
run -s 7 -c 1000 --half-rtt --json-file "$WORK_DIR/half.json"
check_json "$WORK_DIR/half.json" "$adds_up" '
    my $h = $d->{half_of_the_round_trip_as_rti_perftest_reports};
    die "no half of the round trip\n" unless $h;
    for my $k (qw(min_us p50_us p99_us max_us)) {
        my $rtt = $k eq "min_us" ? $d->{summary}{min_us} : $d->{percentiles}{$k};
        die "$k: half $h->{$k}, round trip $rtt\n" if abs($h->{$k} - $rtt / 2) > 0.001;
    }
    die "the round trip is gone\n" unless defined $d->{percentiles}{p50_us};
    die "a one-way split without --one-way\n" if exists $d->{one_way};
' || fail "--half-rtt: the figures are not half of the round trip's"
half_lines=$(grep -c 'half of the round trip, as RTI Perftest reports' <<<"$OUT")
# The heading, then min, 7 percentiles and max, each labelled.
[ "$half_lines" -eq 10 ] || fail "--half-rtt: $half_lines labelled lines, not 10"
grep -q '^percentiles (microseconds):' <<<"$OUT" || fail "--half-rtt: the round trip's lines are gone"
run -s 7 --rate 1000 --duration 1 --half-rtt --format json
perl -MJSON::PP -e 'my $d = decode_json(join "", <STDIN>);
    exists $d->{half_of_the_round_trip_as_rti_perftest_reports}{p50_us} or die' <<<"$OUT" ||
    fail "--half-rtt in rate mode: no figures"
pass "--half-rtt: RTT/2 labelled, the round trip kept, in ping-pong and rate mode"

# Neither is the default: a plain run has its 2-byte replies and no split.
run -s 7 -c 200 --format json
perl -MJSON::PP -e 'my $d = decode_json(join "", <STDIN>);
    $d->{config}{reply_bytes} == 2 or die "reply_bytes $d->{config}{reply_bytes}\n";
    !exists $d->{one_way} && !exists $d->{half_of_the_round_trip_as_rti_perftest_reports}
        or die "split without asking\n"' <<<"$OUT" || fail "a plain run changed"
pass "without --one-way or --half-rtt the report is as before"

# Refusals: replies too small for the stamps are usage errors that say why.
run_capture 2 "$clt" -t tcp -p "$SERVER_PORT" -s 7 --one-way --reply-bytes 17
grep -q -- '--reply-bytes must be 18..65536 with --one-way' <<<"$ERR" || fail "no reason: $ERR"
run_capture 2 "$clt" -t tcp -p "$SERVER_PORT" -s 7 --rate 10 --one-way --reply-bytes 31
grep -q -- '--reply-bytes must be 32..65536 with --one-way' <<<"$ERR" || fail "no reason: $ERR"
run_capture 2 "$clt" -t tcp -p "$SERVER_PORT" --payload-bytes 17 --one-way --echo
grep -q -- '--echo with --one-way needs a payload of 18 bytes or more' <<<"$ERR" ||
    fail "no reason: $ERR"
pass "replies too small for the stamps: usage errors saying why"

# A version 3 server of the previous release refuses the flag with status 9:
# played here by a listener that reads the 24-byte header and answers so, if
# and only if the header's flag bit 2 (server timestamps) is set.
: >"$WORK_DIR/old.port"
perl -MIO::Socket::INET -e '
    my $l = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 5,
                                  ReuseAddr => 1) or die $!;
    $| = 1; print $l->sockport, "\n";
    alarm 30;
    while (my $c = $l->accept) {
        sysread $c, my $header, 24;
        my $flags = unpack("n", substr($header, 6, 2));
        syswrite $c, "SPRF" . pack("nn", ($flags & 4) ? 9 : 6, 3);
        close $c;
    }' >"$WORK_DIR/old.port" &
STARTED_PIDS+=("$!")
for _ in $(seq 100); do
    OLD_PORT=$(cat "$WORK_DIR/old.port")
    [ -n "$OLD_PORT" ] && break
    sleep 0.05
done
[ -n "$OLD_PORT" ] || fail "the stand-in for an older server did not start"
run_capture 1 "$clt" -t tcp -H 127.0.0.1 -p "$OLD_PORT" -s 7 -c 10 --one-way
grep -q "the server refused the test: the test asks for a feature this server does not offer (server timestamps); upgrade the server to the client's release" \
    <<<"$ERR" || fail "an older server's refusal of --one-way: $ERR"
pass "a server of the previous release refuses --one-way: exit 1, saying why"
