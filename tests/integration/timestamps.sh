#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --timestamps over TCP on loopback: every measured round trip is split by
# the kernel's software stamps at the client into the client's send stack,
# what lies beyond the client and its receive stack. None may be missing or
# below 0 (a stamp matched to the wrong round trip makes parts below 0,
# which the report counts); a transmit stamp matches no round trip only as
# the repeat of a retransmitted segment (the kernel stamps it again as it
# leaves: at most one a retransmission, which a busy machine makes now and
# then); and the parts' means add up to the mean round
# trip: the split's t0 and t8 are the steady clock's readings that time the
# round trip, moved onto CLOCK_REALTIME, so the two differ only by the
# rounding of the means (a preemption between two clock reads once showed
# here, when t0 and t8 were read on CLOCK_REALTIME beside the steady clock). Every waiting policy is split (the blocking read, --spin and
# --poll-before-sleep, whose poll sees the waiting transmit stamps), runs
# of --repeat are pooled. (With --reconnect: reconnect.sh.)
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
start_server SOCK_STREAM_srv -t tcp

# whole(ROUND_TRIPS), for check_json: every round trip split, none missing,
# none below 0, and the parts' means add up to the round trip's.
# shellcheck disable=SC2016 # Perl, expanded by Perl
whole='
        sub whole { my ($n, @parts) = @_;
            # The parts, in the order a round trip passes them: the three of
            # the client'"'"'s stamps unless others are named.
            @parts = qw(client_send_stack beyond_the_client client_receive_stack) unless @parts;
            my $s = $d->{round_trip_split};
            die "no round_trip_split\n" unless $s;
            same "config timestamps", ($d->{config}{timestamps} ? "true" : "false"), "true";
            same "transmit_stamps", ($s->{transmit_stamps} ? "true" : "false"), "true";
            same "server_stamps", ($s->{server_stamps} ? "true" : "false"),
                (@parts >= 5 ? "true" : "false");
            same "server_transmit_stamps", ($s->{server_transmit_stamps} ? "true" : "false"),
                (@parts == 6 ? "true" : "false");
            same "parts", join(" ", sort keys %{$s->{parts}}), join(" ", sort @parts);
            # A round trip the wall clock was set during is left out, said
            # apart (this machine may be a virtual machine that is
            # snapshotted, which sets its clock): every other is split.
            same "split_round_trips + clock_set_round_trips",
                $s->{split_round_trips} + $s->{clock_set_round_trips}, $n;
            die "$s->{clock_set_round_trips} round trips left out for a clock setting\n"
                if $s->{clock_set_round_trips} > 2;
            # (a stamp of the server made before a clock setting and read
            # after it is sent as none: at most one a setting)
            die "$s->{missing_stamps} round trips missing a stamp\n"
                if $s->{missing_stamps} > $s->{clock_set_round_trips};
            same "negative_parts", $s->{negative_parts}, 0;
            my $again = $d->{transport}{retransmitted_segments};
            die "$s->{stray_transmit_stamps} stray transmit stamps, more than the $again of "
                . "$d->{transport}{retransmitted_segments} retransmitted segments\n"
                if $s->{stray_transmit_stamps} > $again;
            my $sum = 0;
            for my $part (@parts) {
                my $p = $s->{parts}{$part};
                same "$part num_points", $p->{summary}{num_points}, $s->{split_round_trips};
                die "$part p50 missing\n" unless defined $p->{percentiles}{p50_us};
                $sum += $p->{summary}{mean_us};
            }
            die "the network and the server took no time\n"
                unless $s->{parts}{$parts[1]}{summary}{min_us} > 0;
            # Each band: its parts share its mean round trip, to the rounding
            # of three means and three shares.
            for my $band (qw(p45_to_p55 p99_and_above)) {
                my $b = $s->{shares}{$band};
                die "$band: no round trips\n" unless $b->{round_trips} > 0;
                my ($means, $shares) = (0, 0);
                for my $part (@parts) {
                    $means += $b->{parts}{$part}{mean_us};
                    $shares += $b->{parts}{$part}{share_percent};
                }
                die "$band: parts of $means us in a round trip of $b->{round_trip_mean_us} us\n"
                    if abs($means - $b->{round_trip_mean_us}) > 0.005;
                die "$band: shares add up to $shares %\n" if abs($shares - 100) > 0.005;
            }
            die "the slowest band is not slower than the middle\n"
                unless $s->{shares}{p99_and_above}{round_trip_mean_us} > $s->{shares}{p45_to_p55}{round_trip_mean_us};
            # Three means rounded to 0.001 us, over the same round trips as
            # the mean round trip: well within 1 us.
            my $rtt = $d->{summary}{mean_us};
            # (over the same round trips only when none was left out)
            die sprintf("the parts mean %.3f us, the round trip %.3f us\n", $sum, $rtt)
                if abs($sum - $rtt) > 1.0 && $s->{clock_set_round_trips} == 0;
        }
'

run() {
    run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" "$@"
}

run -s 7 -c 2000 --timestamps --json-file "$WORK_DIR/pp.json"
check_json "$WORK_DIR/pp.json" "$whole" 'whole(2000)' ||
    fail "ping-pong --timestamps: the split is not whole"
grep -q '^where the round trip went (microseconds, the kernel.s software stamps' <<<"$OUT" ||
    fail "ACE: no split block"
grep -q 'client send stack  beyond the client  client receive stack' <<<"$OUT" ||
    fail "ACE: no column heads: $OUT"
grep -q 'the slowest, p99 and above: [0-9]* round trips of .* client send stack .* (.* %), beyond the client' <<<"$OUT" ||
    fail "ACE: the slowest round trips' shares are not said"
grep -q 'stamps: 2000 round trips split; 0 missing a stamp' <<<"$OUT" ||
    fail "ACE: the stamps' account is not said"
pass "ping-pong --timestamps: 2000 round trips split, none missing, the parts add up"

# With the server's stamps (--one-way) its receive and wake-up (from its
# kernel's arrival stamp to its application's read), its application and,
# by its kernel's transmit stamp of each reply (carried in the next reply),
# its send stack are parts of their own, taken out of the time beyond the
# client, which leaves the network; the six parts still add up, and the
# server's application is the server's own reading of its time: the
# one-way split of the same round trips holds it too (server_turnaround).
server_parts='client_send_stack network server_receive_and_wake_up server_application
              server_send_stack client_receive_stack'
run -s 7 -c 2000 --timestamps --one-way --json-file "$WORK_DIR/server.json"
# shellcheck disable=SC2016 # Perl, expanded by Perl
check_json "$WORK_DIR/server.json" "$whole" '
    whole(2000, qw('"$server_parts"'));
    my $server = $d->{round_trip_split}{parts}{server_application}{summary};
    my $one_way = $d->{one_way}{server_turnaround}{summary};
    die "no one-way server turnaround\n" unless defined $one_way;
    # The same round trips, unless one was left out for a clock setting.
    for my $figure (qw(num_points mean_us max_us)) {
        die "server application $figure $server->{$figure}, the one-way turnaround $one_way->{$figure}\n"
            if abs($server->{$figure} - $one_way->{$figure}) > 0.0005
               && $d->{round_trip_split}{clock_set_round_trips} == 0;
    }
' || fail "ping-pong --timestamps --one-way: the split with the server's part is not whole"
grep -q 'client send stack  *network  *server receive and wake-up  server application  server send stack  client receive stack' <<<"$OUT" ||
    fail "ACE: no column heads with the server's parts: $OUT"
grep -q 'server receive and wake-up: from the server kernel.s stamp of the request.s arrival' <<<"$OUT" ||
    fail "ACE: the server's parts are not explained"
grep -q 'server send stack: from the server.s send of the reply to its kernel.s handing it to the device' <<<"$OUT" ||
    fail "ACE: the server's send stack is not explained"
grep -q 'reply 34 bytes, the server.s 32 bytes of timestamps in it' <<<"$OUT" ||
    fail "ACE: the reply's size is not said: $OUT"
# One round trip more than measured brings the last one's transmit stamp:
# the server served it, and ended the test as complete.
wait_for_log "ok in .*: finished 2101 iterations"
pass "--timestamps --one-way: the server's receive and wake-up, its application and its send stack parts of their own, the six parts add up"

# The same, where the last reply's stamp comes with a round trip the server
# was not told of (--duration: the server serves until the client closes),
# over several runs (--repeat: each run's last), with replies of two
# segments (64 KiB: a reply's stamp is its last byte's), and with the
# server polling before it sleeps.
run -s 4 --duration 1 --timestamps --one-way --json-file "$WORK_DIR/duration.json"
# shellcheck disable=SC2016 # Perl, expanded by Perl
check_json "$WORK_DIR/duration.json" "$whole" '
    whole($d->{summary}{num_points}, qw('"$server_parts"'));' ||
    fail "--duration --timestamps --one-way: the split is not whole"
run -s 4 -c 500 --repeat 2 --pause 0 --timestamps --one-way --json-file "$WORK_DIR/repeat-server.json"
check_json "$WORK_DIR/repeat-server.json" "$whole" "whole(1000, qw($server_parts))" ||
    fail "--repeat 2 --timestamps --one-way: the runs' splits are not whole"
run -s 4 -c 300 --reply-bytes 65536 --timestamps --one-way --json-file "$WORK_DIR/big-reply.json"
check_json "$WORK_DIR/big-reply.json" "$whole" "whole(300, qw($server_parts))" ||
    fail "64 KiB replies --timestamps --one-way: the split is not whole"
first_port=$SERVER_PORT
start_server SOCK_STREAM_srv -t tcp --poll-before-sleep 50
run -s 4 -c 1000 --timestamps --one-way --json-file "$WORK_DIR/polling.json"
check_json "$WORK_DIR/polling.json" "$whole" "whole(1000, qw($server_parts))" ||
    fail "a polling server, --timestamps --one-way: the split is not whole"
SERVER_PORT=$first_port  # the first server again, for what follows
pass "--timestamps --one-way: whole with --duration, --repeat, 64 KiB replies and a polling server"

# A payload larger than loopback's segment (64 KiB, two segments): the
# request's stamps are its last byte's.
run --payload-bytes 65536 -c 300 --timestamps --json-file "$WORK_DIR/big.json"
check_json "$WORK_DIR/big.json" "$whole" 'whole(300)' ||
    fail "64 KiB requests: the split is not whole"
pass "64 KiB requests, stamped by their last byte: the split is whole"

for waiting in --spin "--poll-before-sleep 50"; do
    # shellcheck disable=SC2086 # the option and its value
    run -s 4 -c 1000 --timestamps $waiting --json-file "$WORK_DIR/wait.json"
    check_json "$WORK_DIR/wait.json" "$whole" 'whole(1000)' ||
        fail "$waiting --timestamps: the split is not whole"
done
pass "--spin and --poll-before-sleep: every round trip split"

run -s 4 -c 500 --repeat 2 --pause 0 --timestamps --json-file "$WORK_DIR/repeat.json"
check_json "$WORK_DIR/repeat.json" "$whole" 'whole(1000)' ||
    fail "--repeat 2: the runs' splits are not pooled"
pass "--repeat 2: both runs' round trips split and pooled"

# Without the option: no split, and the config says so.
run -s 4 -c 100 --json-file "$WORK_DIR/plain.json"
check_json "$WORK_DIR/plain.json" '
    same "config timestamps", ($d->{config}{timestamps} ? "true" : "false"), "false";
    die "a split without asking\n" if exists $d->{round_trip_split};
' || fail "a run without --timestamps changed"
pass "without --timestamps the report has no split"

# Under load each message is matched to its own stamps
# (client/load/flow_stamps.hpp). A reply that came in a read with more than
# itself has no arrival stamp of its own: counted missing, and said apart
# as a shared read; every other measured reply is split, none below 0, and
# in each band the parts add up to the round trip. At 500 messages/s one
# flow's replies come 2 ms apart, so most come alone; framed ping-pong has
# one in flight, so each comes alone.
# shellcheck disable=SC2016 # Perl, expanded by Perl
under_load='
        sub under_load { my ($least, @parts) = @_;
            @parts = qw(client_send_stack beyond_the_client client_receive_stack) unless @parts;
            my $s = $d->{round_trip_split};
            die "no round_trip_split\n" unless $s;
            same "parts", join(" ", sort keys %{$s->{parts}}), join(" ", sort @parts);
            my $replied = $d->{load}{messages_replied};
            same "split + missing + clock set", $s->{split_round_trips} + $s->{missing_stamps}
                + $s->{clock_set_round_trips}, $replied;
            die "only $s->{split_round_trips} of $replied split\n"
                if $s->{split_round_trips} < $least * $replied;
            same "negative_parts", $s->{negative_parts}, 0;
            # (in throughput the error queue may overflow, which is counted)
            same "client_transmit missing", $s->{missing_by_stamp}{client_transmit}, 0 if $least > 0;
            die "$s->{missing_by_stamp}{client_arrival} without an arrival stamp, "
                . "$s->{shared_reads} of them in shared reads\n"
                if $s->{missing_by_stamp}{client_arrival} > $s->{shared_reads} + $s->{clock_set_round_trips};
            for my $band (qw(p45_to_p55 p99_and_above)) {
                my $b = $s->{shares}{$band};
                my $means = 0;
                $means += $b->{parts}{$_}{mean_us} for @parts;
                die "$band: parts of $means us in a round trip of $b->{round_trip_mean_us} us\n"
                    if abs($means - $b->{round_trip_mean_us}) > 0.005;
            }
        }
'
run -s 7 --rate 500 --duration 2 --timestamps --json-file "$WORK_DIR/rate.json"
check_json "$WORK_DIR/rate.json" "$under_load" 'under_load(0.5)' ||
    fail "--rate --timestamps: the split under load is not whole"
grep -q 'stamps: [0-9]* round trips split' <<<"$OUT" || fail "--rate: the stamps' account is not said"
# With the server's stamps, over TCP its transmit stamp of a reply comes
# with the flow's next one, and only when that next one opened a send call
# of the server (else 0, counted missing): at 200 messages/s a flow's
# replies leave one a call, and a server slowed by a sanitizer, which sends
# several a call, left 1,158 of 8,000 without (TSan); a stamp matched to the
# wrong reply would make parts below 0.
# shellcheck disable=SC2016 # Perl, expanded by Perl
server_transmit_missing='
        sub server_transmit_missing { my ($most) = @_;
            my $s = $d->{round_trip_split};
            my $missing = $s->{missing_by_stamp}{server_transmit};
            die "$missing of $d->{load}{messages_replied} without the server transmit stamp
"
                if $missing > $most * $d->{load}{messages_replied};
        }
'
run -s 7 --rate 200 --flows 20 --duration 2 --timestamps --one-way --json-file "$WORK_DIR/rate-server.json"
check_json "$WORK_DIR/rate-server.json" "$under_load$server_transmit_missing" \
    "under_load(0.4, qw($server_parts)); server_transmit_missing(0.5)" ||
    fail "--rate --flows 20 --timestamps --one-way: the split with the server's parts is not whole"
run -s 7 -c 1000 --interval 1 --timestamps --json-file "$WORK_DIR/framed.json"
check_json "$WORK_DIR/framed.json" "$under_load" 'under_load(0.99)' ||
    fail "framed ping-pong --timestamps: not every round trip split"
# One request in flight: every reply opens a call of the server's, and the
# end-of-test reply brings the last one's stamp, so none lacks it.
run -s 7 -c 1000 --interval 1 --timestamps --one-way --json-file "$WORK_DIR/framed-server.json"
check_json "$WORK_DIR/framed-server.json" "$under_load$server_transmit_missing" \
    "under_load(0.99, qw($server_parts)); server_transmit_missing(0)" ||
    fail "framed ping-pong --timestamps --one-way: not every round trip split into the six parts"
run -s 7 --throughput --duration 1 --timestamps --json-file "$WORK_DIR/throughput.json"
check_json "$WORK_DIR/throughput.json" "$under_load" 'under_load(0)' ||
    fail "--throughput --timestamps: the split's account does not add up"
pass "--timestamps under load: rate, many flows with the server's six parts, framed ping-pong (with them too) and throughput split message by message"
