#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --reconnect over TCP on loopback: the server is killed (SIGKILL) in the
# middle of a rate run and started again on the same port a second later,
# both by --at commands, so that the report itself says when each happened.
# Every flow sees its connection end, is set up again once the server is
# back, and carries on; its outage is measured from the kill to the new
# connection, and every message is accounted for: each reply asked for
# came, or was owed when the connection ended; each message due while the
# flow was down was counted as not sent. With a thousand flows the waits
# between attempts are drawn at random, and how spread out the flows come
# back is printed. Without --reconnect the same kill ends the run (exit 1),
# as before.
source "$(dirname "$0")/lib.sh"

clt=("$BIN_DIR/SOCK_STREAM_clt" -t tcp -H 127.0.0.1)

# How late a command starts after its instant on this machine as loaded
# now: the bound on how late the kill and the restart come, and on how late
# the client notices either.
calibrate_shell_start
late_s=$SHELL_START_BOUND_S

start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1
port=$SERVER_PORT

# The command that brings the server back: starts it on the same port in
# the background and returns once it listens (its log says so), so that the
# report's duration of the command ends when the server is back.
cat >"$WORK_DIR/restart.sh" <<EOF
#!/bin/sh
log=\$1
"$BIN_DIR/SOCK_STREAM_srv" -t tcp -a 127.0.0.1 -p $port 2>"\$log" &
echo \$! >"\$log.pid"
for i in \$(seq 200); do
    grep -q "starting server at port" "\$log" && exit 0
    sleep 0.01
done
exit 1
EOF
chmod +x "$WORK_DIR/restart.sh"

# run_with_restart NAME SECONDS ARGS...: a run of the client of SECONDS
# with ARGS in which the server is killed at 1 s and back at 2 s; its report
# is WORK_DIR/NAME.json.
run_with_restart() {
    local name=$1 seconds=$2 status=0
    shift 2
    (cd "$WORK_DIR" && timeout 60 "${clt[@]}" -p "$port" -s 6 --duration "$seconds" \
        --at "1:kill -KILL $SERVER_PID" --at "2:$WORK_DIR/restart.sh $WORK_DIR/$name.srv.log" \
        --format json "$@" >"$name.json" 2>"$name.err") || status=$?
    if [ -s "$WORK_DIR/$name.srv.log.pid" ]; then
        SERVER_PID=$(cat "$WORK_DIR/$name.srv.log.pid")
        STARTED_PIDS+=("$SERVER_PID")
    fi
    [ "$status" -eq 0 ] || { cat "$WORK_DIR/$name.err" >&2; fail "$name: the client exited $status"; }
}

# What every run with a restart holds: each flow lost its connection once,
# at the kill, and was back after the restart, within its wait; and every
# message is accounted for. Set $wait_ms (the longest wait), $rate (per
# flow) and $run_s (the run's --duration) before it. The bounds on time
# come from the run itself: how late the machine starts a shell (the
# calibration), how long this client took to set up all its flows at the
# start (setup_s: connects, tests opened and primers, as loaded now,
# sanitizers included), and how late it sent its messages
# (schedule_slip_max_us).
accounting='
    my $r = $l->{reconnect};
    my ($kill, $back) = @{$d->{faults}};
    same("kill exit status", $kill->{exit_status}, 0);
    same("restart exit status", $back->{exit_status}, 0);
    my $wait_s = $wait_ms / 1000;
    my $flows = $l->{flows};
    same("connections lost", $r->{connections_lost}, $flows);
    same("outages set up again", $r->{resumed}, $flows);
    same("outages not over", $r->{not_over}, 0);
    same("lost on the last connections", $l->{messages_lost}, 0);
    # Every reply asked for came, or was owed when its connection ended.
    same("replies asked = replied + owed at the outage", $l->{messages_echo_requested},
         $l->{messages_replied} + $r->{replies_lost});
    # What the server accounts for is what was sent on the last connections.
    same("sent = received by the servers + sent on the connections that ended",
         $l->{messages_sent}, $l->{messages_received_by_server} + $r->{messages_sent_on_lost_connections});
    my $back_at = $back->{started_s} + $back->{duration_s};  # listening by then
    my $setup_s = $l->{setup_s};
    my $slip_s = $l->{schedule_slip_max_us} / 1e6;
    for my $f (@{$l->{per_flow}}) {
        my @o = @{$f->{outages}};
        die "flow $f->{flow}: " . @o . " outages, not 1\n" unless @o == 1;
        my $o = $o[0];
        # At the kill, and seen before the server came back: not by a timeout.
        die "flow $f->{flow}: its outage began at $o->{began_s} s, not between the kill " .
            "($kill->{started_s} s) and the restart ($back->{started_s} s)\n"
            unless $o->{began_s} >= $kill->{started_s} && $o->{began_s} < $back->{started_s};
        my $resumed = $o->{began_s} + $o->{lasted_ms} / 1000;
        die "flow $f->{flow}: back at $resumed s, before the restart began ($back->{started_s} s)\n"
            if $resumed < $back->{started_s};
        # Back within its wait of the server listening, and the time its
        # connect takes (0.1 s, as on a quiet machine, or what the set-up of
        # all the flows took in this run, if longer).
        my $late = $resumed - $back_at;
        my $connect_s = $setup_s > 0.1 ? $setup_s : 0.1;
        die "flow $f->{flow}: back at $resumed s, $late s after the server listened again " .
            "(bound $wait_s + $connect_s + '"$late_s"' s)\n"
            unless $late < $wait_s + $connect_s + '"$late_s"';
        # The messages due while it was down were not sent, and counted.
        # (Messages the client was late with when the connection ended were
        # due before it and are not sent either: the slip bounds them.)
        my $due = $o->{lasted_ms} / 1000 * $rate;
        die "flow $f->{flow}: $o->{messages_not_sent} messages not sent in $o->{lasted_ms} ms at " .
            "$rate/s, slip at most $slip_s s\n"
            unless $o->{messages_not_sent} >= $due - 2 &&
                   $o->{messages_not_sent} <= $due + 2 + $rate * $slip_s;
    }
    # Each flow, with every message it did not send, keeps its schedule.
    for my $f (@{$l->{per_flow}}) {
        my $scheduled = $f->{messages_sent} + $f->{outages}[0]{messages_not_sent};
        my $want = $run_s * $rate;
        die "flow $f->{flow}: sent + not sent = $scheduled, not $want\n"
            unless abs($scheduled - $want) <= 1;
    }
'

# Ten flows at 100 messages per second each, waits of at most 50 ms: each
# is back within its wait (and a connect) of the server listening again,
# and all ten come back together, within that wait, the time this client
# took to set up all its flows at the start and how late it and the
# machine ran, as measured in this run. (The restarted server's listener
# once waited 0.45 s after the first of them, signalling a worker that had
# already taken its session, in about half of the runs; the nine others
# then came at once.)
run_with_restart ten 4 --flows 10 --rate 100 --reconnect --reconnect-backoff 0.05
check_json "$WORK_DIR/ten.json" 'my ($wait_ms, $rate, $run_s) = (50, 100, 4);' "$accounting" '
    my @back = sort { $a <=> $b }
        map { $_->{outages}[0]{began_s} + $_->{outages}[0]{lasted_ms} / 1000 } @{$l->{per_flow}};
    my $spread = $back[-1] - $back[0];
    my $bound = $wait_ms / 1000 + $l->{setup_s} + $l->{schedule_slip_max_us} / 1e6 + '"$late_s"';
    printf "10 flows back over %.3f s (bound %.3f s)\n", $spread, $bound;
    die sprintf("the flows came back over %.3f s, more than the wait %.3f s + the set-up %.3f s " .
                "+ the slip %.3f s + '"$late_s"' s\n", $spread, $wait_ms / 1000, $l->{setup_s},
                $l->{schedule_slip_max_us} / 1e6)
        unless $spread < $bound;
' || fail "ten flows: the outages or the accounting are not as they should be"
pass "ten flows: each back within its wait of the server's return, all within it of each other, every message accounted for"

# --timestamps across the restart: each flow turns its stamps on again on
# its new connection, whose stream counts its bytes from 0. Every measured
# reply is split or counted missing, none lacks the client transmit stamp
# (one matched by the old stream's count would be a stray, its round trip
# missing it), a reply lacks its arrival stamp only when it shared its read
# with another, no part is below 0, and more round trips were split than
# could have been replied before the kill: the new connections' replies
# were split too.
run_with_restart stamped 4 --flows 4 --rate 200 --reconnect --reconnect-backoff 0.05 --timestamps
check_json "$WORK_DIR/stamped.json" 'my ($wait_ms, $rate, $run_s) = (50, 200, 4);' "$accounting" '
    my $s = $d->{round_trip_split};
    die "no round_trip_split\n" unless $s;
    my $replied = $l->{messages_replied};
    same("split + missing + clock set",
         $s->{split_round_trips} + $s->{missing_stamps} + $s->{clock_set_round_trips}, $replied);
    same("client transmit stamps missing", $s->{missing_by_stamp}{client_transmit}, 0);
    # Stamps not turned on again would leave every reply on a new
    # connection without its arrival stamp, and not in a shared read.
    die "$s->{missing_by_stamp}{client_arrival} without an arrival stamp, only "
        . "$s->{shared_reads} of them in shared reads\n"
        if $s->{missing_by_stamp}{client_arrival} > $s->{shared_reads} + $s->{clock_set_round_trips};
    same("parts below 0", $s->{negative_parts}, 0);
    my $before_kill = $l->{flows} * $rate * $d->{faults}[0]{started_s};
    printf "%d of %d replies split, at most %d replied before the kill\n",
           $s->{split_round_trips}, $replied, $before_kill;
    die "only $s->{split_round_trips} split, no more than the $before_kill replied before the kill\n"
        unless $s->{split_round_trips} > $before_kill;
' || fail "--timestamps --reconnect: the new connections are not split, or the accounting is wrong"
pass "--timestamps with --reconnect: the new connections split too, every message accounted for"

# The text report says the same.
run_capture 0 "${clt[@]}" -p "$port" -s 6 --rate 100 --duration 0.5 --reconnect
grep -q "^	reconnect: 0 connections ended and 0 set up again (--reconnect, waits up to 200 ms), 0 still down at the end, over 0 flows$" <<<"$OUT" ||
    fail "the text report has no reconnect line: $OUT"
pass "the text report: a run with --reconnect and no outage says so"

# A thousand flows at 5 messages per second each, the default waits (up to
# 200 ms): every flow is back within 1 s of the server's return plus its
# wait, every message accounted for. The run lasts 8 s, 6 after the
# restart: under the thread sanitizer on a slow 2-CPU machine 216 of the
# thousand were still coming back when a run of 4 s ended (the bound on
# each flow's return is the run's own, above).
run_with_restart thousand 8 --flows 1000 --rate 5 --reconnect
check_json "$WORK_DIR/thousand.json" 'my ($wait_ms, $rate, $run_s) = (1200, 5, 8);' "$accounting" '
    my @back = sort { $a <=> $b }
        map { $_->{outages}[0]{began_s} + $_->{outages}[0]{lasted_ms} / 1000 } @{$l->{per_flow}};
    my $most = 0;
    for (my ($i, $j) = (0, 0); $j < @back; ++$j) {
        ++$i while $back[$j] - $back[$i] > 0.020;
        $most = $j - $i + 1 if $j - $i + 1 > $most;
    }
    # Reported, not judged: the restarted server decides when the flows
    # come back too (when its listener waited 0.45 s after the first
    # session, 510 of the 1000 came within 20 ms, where 142 to 269 is
    # usual). The spread of the waits is pinned by the unit test of
    # reconnect_wait; without it, 750 came back within 20 ms.
    print "1000 flows back over ", sprintf("%.3f", $back[-1] - $back[0]),
          " s, at most $most within 20 ms\n";
' || fail "a thousand flows: the outages or the accounting are not as they should be"
pass "a thousand flows: each back within 1 s of the server plus its wait, every message accounted for"

# A merge of several hosts' reports does not add up outages: it refuses
# reports that had any, rather than show messages sent and never received.
run_capture 2 "$BIN_DIR/sctp-perf-compare" --merge "$WORK_DIR/ten.json" "$WORK_DIR/thousand.json" \
    --allow-apart
grep -q "ten.json: its flows lost 10 connections and set them up again (--reconnect)" <<<"$ERR" ||
    fail "--merge of reports with outages: $ERR"
pass "--merge refuses reports with outages, naming the file"

# A server that never comes back: each flow keeps trying until the run's
# end and no later, even with waits of up to 30 s, and every message due
# after the kill is counted as not sent.
restarted_pid=$SERVER_PID
start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1
run_capture 0 bash -c "cd '$WORK_DIR' && exec $(printf '%q ' "${clt[@]}") -p $SERVER_PORT -s 6 \
    --flows 3 --rate 100 --duration 3 --reconnect --reconnect-backoff 30 \
    --at '1:kill -KILL $SERVER_PID' --format json"
echo "$OUT" >"$WORK_DIR/never.json"
check_json "$WORK_DIR/never.json" '
    my $r = $l->{reconnect};
    same("connections lost", $r->{connections_lost}, 3);
    same("outages set up again", $r->{resumed}, 0);
    same("outages not over", $r->{not_over}, 3);
    # 3 flows, 100 a second each, for 3 s.
    my $all = $l->{messages_sent} + $r->{messages_not_sent};
    die "sent + not sent = $all, not 900\n" unless abs($all - 900) <= 3;
    same("sent on the connection that ended", $r->{messages_sent_on_lost_connections}, $l->{messages_sent});
    for my $f (@{$l->{per_flow}}) {
        die "flow $f->{flow}: its outage has an end\n" if defined $f->{outages}[0]{lasted_ms};
    }
    # The run ends at its end, not at the next attempt (1.3 to 2.6 s after
    # the last one before it).
    die "the run lasted $l->{duration_s} s, past its 3 s\n"
        unless $l->{duration_s} < 3 + 0.5 + '"$late_s"';
' || fail "a server that never came back: the run did not end as it should"
pass "a server that never comes back: the flows stop trying at the run's end, every due message counted"
SERVER_PID=$restarted_pid

# A counted run (-c) has no end to wait for: a flow out of service for
# --io-timeout fails it (exit 1), as a silent server does, naming the flow
# and the last attempt's reason.
start_server SOCK_STREAM_srv -t tcp -a 127.0.0.1
status=0
(cd "$WORK_DIR" && timeout 60 "${clt[@]}" -p "$SERVER_PORT" -s 6 --rate 100 -c 500 \
    --io-timeout 1 --reconnect --at "1:kill -KILL $SERVER_PID" >counted.out 2>counted.err) ||
    status=$?
[ "$status" -eq 1 ] || fail "a counted run whose server never came back exited $status, not 1"
grep -q "flow 0: its connection ended, and in 1.0 s (--io-timeout) [0-9]* attempts did not set it up again; the last: Connection refused" \
    "$WORK_DIR/counted.err" || fail "a counted run whose server never came back: $(cat "$WORK_DIR/counted.err")"
pass "a counted run: a flow out of service for --io-timeout fails the run, naming why"
SERVER_PID=$restarted_pid

# Without --reconnect the kill ends the run, as it always did.
status=0
(cd "$WORK_DIR" && timeout 60 "${clt[@]}" -p "$port" -s 6 --rate 100 --duration 4 \
    --at "1:kill -KILL $SERVER_PID" >plain.out 2>plain.err) || status=$?
[ "$status" -eq 1 ] || fail "without --reconnect a killed server gave exit $status, not 1"
grep -q "the peer" "$WORK_DIR/plain.err" || fail "without --reconnect: $(cat "$WORK_DIR/plain.err")"
pass "without --reconnect the server's death ends the run (exit 1)"

# Where --reconnect has nothing to do, or cannot yet, it says so.
for bad in "-c 10 --reconnect" "--rate 10 --duration 1 --reconnect-backoff 0.1" \
    "--rate 10 --duration 1 --reconnect --reconnect-backoff 0" \
    "--rate 10 --duration 1 --reconnect --one-way" \
    "--rate 10 --duration 1 --reconnect --repeat 2"; do
    # shellcheck disable=SC2086
    run_capture 2 "${clt[@]}" -p "$port" -s 6 $bad
    grep -q -- "--reconnect" <<<"$ERR" || fail "'$bad': no sentence naming --reconnect: $ERR"
done
pass "bad --reconnect options: exit 2 with a sentence each"
