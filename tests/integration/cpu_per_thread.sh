#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --cpu with several worker threads over TCP on loopback: the kernel's own
# view of each thread (/proc/PID/task/TID/status, Cpus_allowed_list, and
# field 39 of its stat, the CPU it last ran on) agrees with what the
# client's report and the server's settings say of their workers; the
# warning for more workers than CPUs appears exactly when it should; and
# ping-pong reports the client's CPU (and why not the server's), with sane
# figures, as framed ping-pong reports both.
source "$(dirname "$0")/lib.sh"

clt="$BIN_DIR/SOCK_STREAM_clt"
srv="$BIN_DIR/SOCK_STREAM_srv"

# json_list FILE PATH: the JSON array at PATH, its elements joined by commas.
json_list() {
    perl -MJSON::PP -e '
        local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!";
        my $v = JSON::PP->new->decode(<$f>);
        $v = $v->{$_} for split /\./, $ARGV[1];
        print ref $v eq "ARRAY" ? join(",", @$v) : "null";
    ' "$1" "$2"
}

# pinned_threads PID: the CPU of each of the process's threads allowed on
# one CPU only, sorted, joined by commas ("0,1"); a thread whose last CPU
# (stat field 39) is not that one is printed as "X" so that it fails.
pinned_threads() {
    local task allowed last cpus=()
    for task in /proc/"$1"/task/*; do
        allowed=$(awk '/^Cpus_allowed_list:/ { print $2 }' "$task/status" 2>/dev/null) || continue
        [[ "$allowed" =~ ^[0-9]+$ ]] || continue
        # Fields after the name in parentheses start at field 3: 39 is the 37th.
        last=$(sed 's/.*) //' "$task/stat" 2>/dev/null | awk '{ print $37 }') || continue
        [ "$last" = "$allowed" ] && cpus+=("$allowed") || cpus+=("X$allowed/$last")
    done
    printf '%s\n' "${cpus[@]}" | sort -n | paste -sd, -
}

# sorted LIST: a comma-separated list sorted numerically.
sorted() {
    tr , '\n' <<<"$1" | sort -n | paste -sd, -
}

no_warning() {
    ! grep -q "warning: .* worker threads share" <<<"$1" || fail "$2: unexpected warning: $1"
}

# The warning, on one CPU: an explicit --threads above the --cpu list warns,
# on the client and on the server; the default count never exceeds it.
run_capture 0 "$clt" -t tcp --check -s 7 --rate 1000 --flows 2 --threads 2 --cpu 0
no_warning "$ERR" "--check"
start_server SOCK_STREAM_srv -t tcp --cpu 0 --threads 2
wait_for_log "2 worker threads"
grep -qF "warning: 2 worker threads share 1 CPU (the --cpu list), so busy ones take turns by time slices and the latencies include the wait: give --threads 1 or more CPUs with --cpu" \
    "$SERVER_LOG" || fail "server --cpu 0 --threads 2 gave no warning: $(cat "$SERVER_LOG")"
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 200 --rate 2000 --flows 2 \
    --threads 2 --cpu 0
grep -qF "SOCK_STREAM_clt: warning: 2 worker threads share 1 CPU (the --cpu list)" <<<"$ERR" ||
    fail "client --flows 2 --threads 2 --cpu 0 gave no warning: $ERR"
[ "$(grep -c "warning:" <<<"$ERR")" = 1 ] || fail "the client warned more than once: $ERR"
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 200 --rate 2000 --flows 4 \
    --cpu 0
no_warning "$ERR" "client --flows 4 --cpu 0 (one thread by default)"
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 200 --cpu 0
no_warning "$ERR" "ping-pong --cpu 0"
kill -TERM "$SERVER_PID"
timeout 5 tail --pid="$SERVER_PID" -f /dev/null || fail "server did not stop within 5 s"
start_server SOCK_STREAM_srv -t tcp --cpu 0
wait_for_log "1 worker thread,"
no_warning "$(cat "$SERVER_LOG")" "server --cpu 0"
grep -q "pinned one each" "$SERVER_LOG" && fail "a lone server worker was pinned on its own"
kill -TERM "$SERVER_PID"
timeout 5 tail --pid="$SERVER_PID" -f /dev/null || fail "server did not stop within 5 s"
pass "the warning: exactly for --threads 2 on --cpu 0, client and server, never by default"

# Ping-pong: the client's CPU over the measured part, user and system, and
# a line saying why the server's is not there. getrusage counts in ticks
# (at worst 10 ms): over 1 s that is 1 % either way, hence 101.
start_server SOCK_STREAM_srv -t tcp
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 --duration 1 --format json
echo "$OUT" >"$WORK_DIR/pp.json"
perl -MJSON::PP -e '
    local $/; my $d = JSON::PP->new->decode(<STDIN>); my $c = $d->{cpu};
    my ($t, $u, $s) = @$c{qw(client_percent client_user_percent client_system_percent)};
    die "client cpu $t % (user $u, system $s) is not within 0..101 or not their sum\n"
        unless $t > 0 && $t <= 101 && $u >= 0 && $s >= 0 && abs($u + $s - $t) < 0.01;
    die "server cpu is not null\n" if defined $c->{server_percent};
    die "no note on the server cpu\n" unless $c->{server_note} =~ /no end-of-test message/;
    print "client cpu $t % (user $u %, system $s %)\n";
' <"$WORK_DIR/pp.json" || fail "ping-pong cpu figures: $(grep -B1 -A5 '"client_percent"' "$WORK_DIR/pp.json")"
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 2000
grep -qE $'^\tcpu: [0-9.]+ % of one CPU while measuring \\(user [0-9.]+ %, system [0-9.]+ %\\)$' \
    <<<"$OUT" || fail "no client cpu line in the ping-pong report: $OUT"
grep -qF $'\tcpu: not reported in plain ping-pong, whose wire protocol has no end-of-test message' \
    <<<"$OUT" || fail "no server cpu line in the ping-pong report: $OUT"
# Framed (--threads 1): both ends' CPU, from the client and the server's account.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 --duration 1 --threads 1 \
    --format json
echo "$OUT" >"$WORK_DIR/framed.json"
[ "$(json_field "$WORK_DIR/framed.json" load.mode)" = ping-pong ] ||
    fail "--threads 1 did not run framed ping-pong"
for field in load.client_cpu_percent load.server.cpu_percent; do
    perl -e 'exit !($ARGV[0] > 0 && $ARGV[0] <= 101)' -- "$(json_field "$WORK_DIR/framed.json" $field)" ||
        fail "framed ping-pong $field is $(json_field "$WORK_DIR/framed.json" $field), not within 0..101"
done
kill -TERM "$SERVER_PID"
timeout 5 tail --pid="$SERVER_PID" -f /dev/null || fail "server did not stop within 5 s"
pass "ping-pong: client cpu within 0..100 % and split; framed ping-pong: both ends' cpu"

# Pinning needs two CPUs this test may use: the first two it is allowed.
read -r a b < <(perl -e '
    my @c = map { /^(\d+)-(\d+)$/ ? ($1 .. $2) : $_ } split /,/, $ARGV[0];
    print "@c[0, 1]\n";
' "$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)")
[ -n "${b:-}" ] || skip "pinning workers one each needs 2 CPUs, this test may use CPU $a only"
cpus="$a,$b"

# The server: worker i on the i-th CPU, in its log and its settings; the
# kernel's view is read once its workers have served (a worker pinned
# while it sleeps has not yet run where it is pinned).
start_server SOCK_STREAM_srv -t tcp --cpu "$cpus" --threads 2
wait_for_log "worker threads pinned one each to CPUs $a, $b (--cpu)"
no_warning "$(cat "$SERVER_LOG")" "server --cpu $cpus --threads 2"

# The client: three workers on two CPUs wrap round ($a, $b, $a), and warn.
"$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 --rate 2000 --flows 3 --threads 3 \
    --cpu "$cpus" --duration 3 --format json >"$WORK_DIR/load.json" 2>"$WORK_DIR/load.err" &
client=$!
STARTED_PIDS+=("$client")
# Looked at for as long as the client runs (within 20 s): its workers
# appear only once its flows are set up, and on a busy machine fifty looks
# of 0.1 s each once ended before they showed. The last look that found
# pinned threads is the one judged, not the empty one after the end.
seen=
for _ in $(seq 200); do
    state=$(sed 's/.*) //' "/proc/$client/stat" 2>/dev/null | awk '{ print $1 }') || true
    [ -n "$state" ] && [ "$state" != Z ] || break
    now=$(pinned_threads "$client")
    [ -n "$now" ] && seen=$now
    [ "$seen" = "$a,$a,$b" ] && break
    sleep 0.1
done
status=0
timeout 20 tail --pid="$client" -f /dev/null || fail "the client did not end within 20 s"
wait "$client" || status=$?
[ "$status" = 0 ] || fail "the client exited $status: $(cat "$WORK_DIR/load.err")"
[ "$seen" = "$a,$a,$b" ] || fail "the client's pinned threads are on '$seen', not $a,$a,$b"
[ "$(json_list "$WORK_DIR/load.json" load.worker_cpus)" = "$a,$b,$a" ] ||
    fail "the client reports its workers on $(json_list "$WORK_DIR/load.json" load.worker_cpus)"
[ "$(sorted "$(json_list "$WORK_DIR/load.json" load.worker_cpus)")" = "$seen" ] ||
    fail "the report and the kernel disagree"
[ "$(json_list "$WORK_DIR/load.json" server.worker_cpus)" = "$a,$b" ] ||
    fail "the server's settings give its workers on $(json_list "$WORK_DIR/load.json" server.worker_cpus)"
grep -qF "warning: 3 worker threads share 2 CPUs (the --cpu list)" "$WORK_DIR/load.err" ||
    fail "3 workers on 2 CPUs gave no warning: $(cat "$WORK_DIR/load.err")"
# The client's CPU under load: within 0..100 per CPU it may use (2), one tick over 3 s aside.
perl -e 'exit !($ARGV[0] > 0 && $ARGV[0] <= 201)' \
    "$(json_field "$WORK_DIR/load.json" load.client_cpu_percent)" ||
    fail "client cpu $(json_field "$WORK_DIR/load.json" load.client_cpu_percent) % on 2 CPUs"
# Both server workers served flows of that run, so each has run where it is pinned.
seen=$(pinned_threads "$SERVER_PID")
[ "$seen" = "$a,$b" ] || fail "the server's pinned threads are on '$seen', not $a,$b"

# Two workers on two CPUs: one each, no warning, and the text report says so.
run_capture 0 "$clt" -t tcp -H 127.0.0.1 -p "$SERVER_PORT" -s 7 -c 500 --rate 2000 --flows 2 \
    --threads 2 --cpu "$cpus"
no_warning "$ERR" "client --threads 2 --cpu $cpus"
grep -qF $'\tflows: 2 on 2 threads pinned one each to CPUs '"$a, $b"' (--cpu), every message timed' \
    <<<"$OUT" || fail "the text report does not give the workers' CPUs: $OUT"
grep -qF "sessions on 2 worker threads (one-to-one) pinned one each to CPUs $a, $b (--cpu)" \
    <<<"$OUT" || fail "the text report does not give the server's workers' CPUs: $OUT"
pass "workers pinned one each where the reports say, client ($a,$b,$a wrapped) and server ($a,$b)"
