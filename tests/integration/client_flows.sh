#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The client's side of many flows, over TCP on loopback (many_flows.sh has
# the server's): a descriptor limit too low for --flows is a usage error
# before anything connects, and so are more flows than the local
# addresses have ports; --flow-csv writes one whole row per flow,
# agreeing with the JSON; past 10 flows the text report gives the spread
# over the flows and the worst of them; the schedule slip's percentiles are
# reported; and a client given more than it can do says so.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
start_server SOCK_STREAM_srv -t tcp
CLIENT=("$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT")

connections() { log_count "connected from"; }

# 100 flows on 2 threads need 100 sockets + 2 epoll descriptors + 16 = 118;
# under ulimit -n 64 that is a usage error, before the first connect. (bash's
# ulimit -n sets the soft and the hard limit.)
before=$(connections)
run_capture 2 bash -c 'ulimit -n 64 && exec "$0" "$@"' "${CLIENT[@]}" -s 7 --rate 10 -c 10 \
    --flows 100 --threads 2
grep -q "100 flows need 118 file descriptors" <<<"$ERR" || fail "no count of descriptors: $ERR"
grep -q "ulimit -n" <<<"$ERR" || fail "the error does not name ulimit -n: $ERR"
grep -q "'ulimit -n 118'" <<<"$ERR" || fail "the error does not say what to run: $ERR"
grep -q "Try '.*--help'" <<<"$ERR" || fail "a usage error without the --help line: $ERR"
sleep 0.2
[ "$(connections)" = "$before" ] || fail "the client connected before refusing its limit"
pass "ulimit -n 64 with --flows 100: exit 2 before connecting, naming ulimit -n and 118"

# A soft limit alone too low is raised to the hard one, as the server does.
run_capture 0 bash -c 'ulimit -Sn 64 && exec "$0" "$@"' "${CLIENT[@]}" -s 7 --rate 100 -c 5 \
    --flows 100 --threads 2 --interval 0
pass "ulimit -Sn 64 with --flows 100: the soft limit raised to the hard one, and the run runs"

# The same limit is plenty for 20 flows (20 + 2 + 16 = 38).
run_capture 0 bash -c 'ulimit -n 64 && exec "$0" "$@"' "${CLIENT[@]}" -s 7 --rate 100 -c 20 \
    --flows 20 --threads 2 --interval 0
pass "ulimit -n 64 with --flows 20: runs"

# One local address has the kernel's ephemeral ports for as many flows to
# one server port: one flow more is a usage error, before anything
# connects, that names -i with a second address. With two addresses the
# ports suffice, and what stops the run is the descriptor limit (ulimit -n
# 256), named instead.
read -r first_port last_port </proc/sys/net/ipv4/ip_local_port_range
too_many=$((last_port - first_port + 2))
if [ "$too_many" -gt 100000 ]; then
    echo "SKIP part: the ephemeral range has $((too_many - 1)) ports, more than --flows takes"
else
    before=$(connections)
    run_capture 2 bash -c 'ulimit -n 256 && exec "$0" "$@"' "${CLIENT[@]}" -s 7 --rate 1 -c 1 \
        --flows "$too_many"
    grep -q "$too_many flows need $too_many local ports, but 1 local address has only $((too_many - 1))" \
        <<<"$ERR" || fail "no count of ports: $ERR"
    grep -q "give -i a list of 2 local addresses" <<<"$ERR" || fail "the error does not name -i: $ERR"
    run_capture 2 bash -c 'ulimit -n 256 && exec "$0" "$@"' "${CLIENT[@]}" -s 7 --rate 1 -c 1 \
        --flows "$too_many" -i 127.0.0.1,127.0.0.2
    grep -q "file descriptors" <<<"$ERR" && ! grep -q "local ports" <<<"$ERR" ||
        fail "two local addresses did not lift the port bound: $ERR"
    sleep 0.2
    [ "$(connections)" = "$before" ] || fail "the client connected before refusing its ports"
    pass "--flows $too_many: exit 2 naming -i; with -i 127.0.0.1,127.0.0.2 the ports suffice"
fi

# 12 flows, 30 messages each: a CSV row per flow, as the JSON has them.
csv=$WORK_DIR/flows.csv
run_capture 0 "${CLIENT[@]}" -s 7 --rate 200 -c 30 --flows 12 --interval 0 --flow-csv "$csv" \
    --json-file "$WORK_DIR/flows.json"
text=$OUT
[ "$(head -n 1 "$csv")" = flow,messages_sent,messages_replied,messages_lost,rate_per_s,p50_us,p99_us,max_us ] ||
    fail "flow CSV header: $(head -n 1 "$csv")"
[ "$(($(wc -l <"$csv") - 1))" = 12 ] || fail "flow CSV has $(($(wc -l <"$csv") - 1)) rows for 12 flows"
[ -z "$(tail -c 1 "$csv")" ] || fail "the flow CSV's last row is cut short (no newline)"
# Whole rows: 8 fields, the flow numbered in order, 30 sent and replied, none
# lost, a rate and three latencies in microseconds.
awk -F, 'NR > 1 && !(NF == 8 && $1 == NR - 2 && $2 == 30 && $3 == 30 && $4 == 0 &&
        $5 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ && $6 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ &&
        $6 + 0 <= $7 + 0 && $7 + 0 <= $8 + 0) {
        print "row " NR ": " $0; bad = 1 } END { exit bad }' "$csv" >&2 ||
    fail "a flow CSV row is not whole or not consistent"
perl_check "$WORK_DIR/flows.json" '
    local $/ = "\n";
    open my $f, "<", $ARGV[2] or die "$ARGV[2]: $!\n";
    <$f>;
    for my $p (@{$d->{load}{per_flow}}) {
        my @row = split /,/, scalar <$f>; chomp $row[7];
        die "flow $p->{flow}: CSV p99 $row[6], JSON $p->{p99_us}\n" unless $row[6] == $p->{p99_us};
        die "flow $p->{flow}: CSV max $row[7], JSON $p->{max_us}\n" unless $row[7] == $p->{max_us};
    }
' "$csv" || fail "the flow CSV and the JSON's per_flow differ"
pass "--flow-csv: a header and 12 whole rows, as the JSON's per_flow"

# Past 10 flows the text gives the spread and the 10 worst, not every flow.
grep -q '^flows: 12, corrected latency per flow, microseconds, spread over the 12 flows with a timed reply:$' <<<"$text" ||
    fail "no spread over the flows: $(grep -A3 '^flows' <<<"$text")"
grep -qE '^	p99 +[0-9.]+ +[0-9.]+ +[0-9.]+$' <<<"$text" || fail "no p99 spread line"
worst=$(sed -n '/^worst flows: the 10 with the highest p99/,/^$/p' <<<"$text" | grep -cE '^	 +[0-9]+ +30 +30 ')
[ "$worst" = 10 ] || fail "expected 10 worst flows listed, got $worst: $text"
pass "12 flows: the spread of p50 and p99 over them, and the 10 worst"

# The schedule slip's percentiles, in both formats.
perl_check "$WORK_DIR/flows.json" '
    my $l = $d->{load};
    for my $k (qw(schedule_slip_p50_us schedule_slip_p99_us schedule_slip_max_us)) {
        die "$k is not a number\n" unless defined $l->{$k} && $l->{$k} =~ /^[0-9.e+-]+$/;
    }
    die "slip p50 > p99 > max\n" unless $l->{schedule_slip_p50_us} <= $l->{schedule_slip_p99_us}
        && $l->{schedule_slip_p99_us} <= $l->{schedule_slip_max_us} * 1.0625;
    die "no busy figure per worker\n" unless @{$l->{client_worker_busy_percent}} == $d->{config}{threads};
' || fail "JSON: the schedule slip or the workers' busy figures"
grep -qE '^	schedule slip: p50 [0-9.]+ us, p99 [0-9.]+ us, max [0-9.]+ us behind' <<<"$text" ||
    fail "text: no slip percentiles: $(grep 'schedule slip' <<<"$text")"
pass "schedule slip p50, p99 and max reported"

# 4 flows at 50,000 messages per second each, both threads on one CPU: no
# client keeps 200,000 sends and replies a second on one CPU, and it says so.
run_capture 0 "${CLIENT[@]}" -s 7 --rate 50000 --duration 1 --flows 4 --threads 2 --cpu 0 \
    --interval 0 --format json
echo "$OUT" >"$WORK_DIR/saturated.json"
perl_check "$WORK_DIR/saturated.json" '
    my @w = grep { /^the client could not keep/ } @{$d->{warnings}};
    die "no warning that the client could not keep up; slip p99 $d->{load}{schedule_slip_p99_us} us\n" unless @w;
    die "the warning does not say what it means: $w[0]\n"
        unless $w[0] =~ /the latencies include the client.s own/ && $w[0] =~ /--threads/;
' || fail "an overloaded client did not say so"
pass "4 x 50000 msg/s on one CPU: warned that the client could not keep up"
