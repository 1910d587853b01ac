# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 360
# Head-of-line blocking. One flow in rate mode, --rate 500 of 128-byte
# requests (-s 7), 4000 of them, over a veth link whose both ends add 10 ms
# of delay and drop 2 % of packets (netem), in five variants with the same
# load, loss and delay:
#
#   tcp        SOCK_STREAM_clt -t tcp: one byte stream each way
#   sctp1      SCTP, one ordered stream (the default)
#   sctp16     SCTP, --streams 16 on both ends: message k on stream k mod 16
#   unordered  SCTP, --unordered on both ends
#   prttl      SCTP, one ordered stream, --pr-sctp ttl:20 on both ends
#
# Each variant runs beside a twin: the same client and options (for prttl,
# without PR-SCTP) over a second link with the same delay and no loss, at
# the same time. The loss is switched on once the lossy client is 0.5 s
# into its load (its first progress line), so that neither client's primer
# waits out a lost packet and both loads start together; the messages due
# from a second after that on are counted (about 1.5 s in: ~3250 of 4000).
# A message is "late" when its corrected latency (from its due time to its
# reply, --latency-file) is above the twin's median + 10 ms; the twin's own
# late share is what the emulator alone did in that run (the floor), and
# the variant's "excess" is its late share minus the floor.
#
#   ns c  hl0c 10.77.7.1/24 ---- netem delay 10 ms, loss 2 % each -- hl0s 10.77.7.2/24  ns s
#         hb0c 10.77.6.1/24 ---- netem delay 10 ms each way -------- hb0s 10.77.6.2/24  (twin)
#
# The model. T = 1/rate = 2 ms between messages, one-way delay D = 10 ms,
# RTT = 20 ms, loss p = 2 % per packet and direction, bar theta = 10 ms.
#
#   Own loss. A round trip crosses the lossy link twice: q = 1 - (1-p)^2 =
#   3.96 % of messages lose their own request or reply. Each waits for its
#   retransmission, R later: SCTP fast-retransmits on the third SACK that
#   reports the gap, and those SACKs answer the next three messages, so
#   R = RTT + 3T = 26 ms (Linux TCP's RACK: RTT + T + RTT/4 = 27 ms). R is
#   above theta, so q is late in every variant: with no blocking at all,
#   the share is q. Unordered delivery blocks nobody: P_unordered = q.
#
#   One ordered stream. The i-th message after a lost one was sent i*T
#   later and arrives while the loss is being repaired; it waits R - i*T
#   more, late when that exceeds theta: i < (R - theta)/T = 8, so b = 7
#   later messages are made late by each loss, in each direction. A message
#   is late when it or one of the b before it lost a packet either way:
#   P_1 = 1 - (1-p)^(2(b+1)) = 1 - 0.98^16 = 27.6 %, 23.6 points above q:
#   that excess is the head-of-line blocking. TCP, one byte stream each
#   way, is blocked the same way.
#
#   16 streams. Only messages on the lost one's stream wait, and the next
#   of those was sent 16T = 32 ms later, after the repair (R - 32 ms <
#   theta): none is late, P_16 = q. (Were streams drawn at random, 1/16 of
#   the b = 7 would share the stream: 23.6/16 = 1.5 points.) So the model
#   orders 1 stream >> 16 streams ~ unordered.
#
#   Timeouts. A lost fast retransmission may wait for the retransmission
#   timer instead, RTO = 200 ms here (below): about 2pN x p = 2.6 chances
#   per 3250 messages; in one ordered stream each would make ~100 messages
#   late, on 16 streams ~6, unordered none. They could only widen the gap.
#   Among the counted messages of the VM runs SCTP showed none; TCP did, now
#   and then (~1.5 % of its messages, up to 290 ms, in one long run).
#
#   The emulator. Under TCG the guest itself delays messages now and then
#   (a late timer, a busy host). Measured alone, without a twin, 5-19 % of
#   no-loss messages were above the median + 5 ms and 1-7 % above + 10 ms:
#   hence theta = 10 ms, which still counts 7 of the 12 messages a loss
#   holds back. On a busy host a twin's floor reaches 20-40 % and its
#   median 30-60 ms (the emulated RTT grows), yet the excess still follows
#   the model, because both flows meet the same emulator at once.
#
# What the check asserts (shares: late / delivered, with binomial standard
# errors, printed with the counts; the late messages of one ordered stream
# come in bursts of ~8 per loss, so its real spread is ~3 points at 3250
# messages, still far inside the margins):
#   - excess sctp1 - excess sctp16 >= half the model's gap, (P_1 - P_16)/2
#     = 11.8 points;
#   - excess sctp16 >= excess unordered - 3 standard errors of their
#     difference (the model says equal); the pair is measured up to three
#     times, every attempt printed, for the emulator's noise only: an
#     ordering that is really wrong fails all three;
#   - excess sctp16 - excess unordered <= (sctp1 - unordered)/2: 16 streams
#     take away at least half of the blocking;
#   - every reliable run gets every reply (none lost), twins included;
#   - PR-SCTP: some messages are abandoned (2pN = 145 of the ~3700 sent
#     under loss: a TTL equal to the RTT gives a lost message up at the
#     first SACK after its TTL, before fast retransmit would resend it; on
#     a busy host also messages that waited in the sender past the TTL),
#     and the latest delivered one is within ttl_client + ttl_server + RTT
#     (the twin's median) + 16 ms (a SACK interval and a 4 ms jiffy, each
#     way; in the VM, with quiet twins: 66-71 ms for these 76 ms) + the
#     emulator's slack (the twin's max - median, at least 20 ms), but never
#     above the 200 ms RTO, which a message that waited for a
#     retransmission timeout would pass.
#     The maximum is one sample, so a breach is measured again, up to three
#     times, all printed. On a host so busy that the bound before its cap
#     reaches the RTO (the twin itself stalling for 100 ms or more: a twin's
#     median of 159 ms for this 20 ms path has been seen beside a whole other
#     test suite), a message that waited for a retransmission timeout cannot
#     be told from the emulator's own delay: if the last attempt is such a
#     one, PR-SCTP is not judged and the check is skipped, saying so, after
#     the other judgements have held; a breach of a bound below the RTO
#     fails as before.
# TCP is measured and reported, not judged: its recovery (RACK, tail loss
# probes, a window counted in packets) is not SCTP's, and the model above
# is only a first approximation of it.
#
# Retransmission timers: --sctp-rto-initial/min/max 200 on both SCTP ends.
# SCTP's default rto_min is 1000 ms (initial 3000): every lost fast
# retransmission would stall one ordered stream for a second, ~500 messages,
# and a couple of them would decide both the share and the run's length.
# 200 ms is Linux TCP's minimum RTO, so both transports wait alike for a
# timeout; max 200 stops the backoff from doubling it; 200 ms is still ten
# RTTs, so no timer fires before fast retransmit has had its chance.
#
# Each variant takes 4000 / 500 = 8 s of load plus ~4 s of start, primer
# (100 closed-loop round trips over the 20 ms path) and wind-down under TCG,
# 11-14 s with its twin; each client is bounded at 68 s. Five variants, up
# to six more runs on retries: 60-75 s, ~160 s at worst on a quiet host
# (143 s without the retries of one stream beside two other VMs).
#
# run-vm-sweeps.sh --sweeps hol sources this file with HOL_COUNT (messages
# per run) and HOL_EXPORT_DIR set; the data then also goes to that
# directory, and the hol_exported function it defines is called before the
# check passes.
# shellcheck shell=sh source=../lib.sh
. "${SCTPPERF_LIB:-/sctp-perf/lib.sh}"

rate_per_s=500
count="${HOL_COUNT:-4000}"
payload_power=7
delay_ms=10
loss_pct=2
late_ms=10
streams=16
ttl_ms=20
rto="--sctp-rto-initial 200 --sctp-rto-min 200 --sctp-rto-max 200"
rto_ms=200
client_limit_s=$((count / rate_per_s + 60))
attempts=3

need_modules
require_program SOCK_STREAM_srv
require_program SOCK_STREAM_clt
need_option SOCK_STREAM_clt sctp-rto-min
need_option SOCK_STREAM_srv sctp-rto-min
need_option SOCK_STREAM_clt latency-file

# --streams, --unordered and --pr-sctp on both programs; without them the
# TCP and one-stream variants still run and the check then skips.
features=1
for program in SOCK_STREAM_clt SOCK_STREAM_srv; do
    for option in --streams --unordered --pr-sctp; do
        "${SCTPPERF_BIN}/${program}" --help all 2>&1 | grep -q -e "${option}" || {
            features=0
            missing="${missing:-}${missing:+, }${program} ${option}"
        }
    done
done

make_netns c
make_netns s
veth_link c hb0c 10.77.6.1/24 s hb0s 10.77.6.2/24
veth_link c hl0c 10.77.7.1/24 s hl0s 10.77.7.2/24
ip netns exec c "${TC}" qdisc add dev hb0c root netem delay "${delay_ms}ms" || fail "tc netem on hb0c failed"
ip netns exec s "${TC}" qdisc add dev hb0s root netem delay "${delay_ms}ms" || fail "tc netem on hb0s failed"
ip netns exec c "${TC}" qdisc add dev hl0c root netem delay "${delay_ms}ms" || fail "tc netem on hl0c failed"
ip netns exec s "${TC}" qdisc add dev hl0s root netem delay "${delay_ms}ms" || fail "tc netem on hl0s failed"
log "both links, each end: $(ip netns exec c "${TC}" qdisc show dev hb0c);" \
    "the lossy one adds loss ${loss_pct}% at both ends during each load"

# lossy on|off: the loss on both ends of the lossy link.
lossy() {
    _loss=""
    [ "$1" = on ] && _loss="loss ${loss_pct}%"
    for _end in c:hl0c s:hl0s; do
        # shellcheck disable=SC2086 # ${_loss} is empty or two words
        ip netns exec "${_end%:*}" "${TC}" qdisc change dev "${_end#*:}" root netem delay "${delay_ms}ms" ${_loss} ||
            fail "tc netem change on ${_end#*:} failed"
    done
}

# interval_s FILE: the time of the last progress line a client wrote to
# FILE ("[   0.500 s] sent ..."), seconds after its load began; empty if none.
interval_s() {
    sed -n 's/^\[ *\([0-9.]*\) s\].*/\1/p' "$1" | tail -n 1
}

# field NAME PATH: a value of run NAME's report (NAME or NAME-clean).
field() {
    json_field "${CHECK_WORK}/$1.flat" "$2"
}

# figure NAME KEY: a figure of variant NAME worked out by run_variant (see there).
figure() {
    sed -n "s/^$2=//p" "${CHECK_WORK}/$1.stats"
}

# pct SHARE: a share in percent; ms US: microseconds in milliseconds.
pct() { awk -v x="$1" 'BEGIN { printf "%.1f", 100 * x }'; }
ms() { awk -v x="$1" 'BEGIN { printf "%.1f", x / 1000 }'; }

# root(x): the square root, by Newton's method (busybox awk has no sqrt).
root='function root(x,    r, i) { if (x <= 0) return 0; r = x < 1 ? 1 : x; for (i = 0; i < 60; i++) r = (r + x / r) / 2; return r }
'

# The model's figures, from the parameters above (see the header).
# (The guest's busybox awk has no math library: no ^, no sqrt.)
model="$(awk -v rate="${rate_per_s}" -v d="${delay_ms}" -v p="${loss_pct}" -v th="${late_ms}" -v k="${streams}" '
    function late_after(spacing,    n) { n = 0; while (r - (n + 1) * spacing > th) n++; return n }
    function power(x, n,    y) { y = 1; while (n-- > 0) y *= x; return y }
    BEGIN {
        t = 1000 / rate; r = 2 * d + 3 * t; p /= 100
        b1 = late_after(t); bk = late_after(k * t)
        q = 1 - power(1 - p, 2)
        p1 = 1 - power(1 - p, 2 * (b1 + 1)); pk = 1 - power(1 - p, 2 * (bk + 1))
        printf "%.4f %.4f %.4f %d %d %.1f\n", q, p1, pk, b1, bk, r
    }')"
# shellcheck disable=SC2086 # six numbers
set -- ${model}
model_q="$1"
model_p1="$2"
model_p16="$3"
model_repair_ms="$6"
gap_min="$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.4f", (a - b) / 2 }')"
log "model: repair R = $6 ms; a loss makes $4 later messages late in one ordered stream, $5 on ${streams} streams;" \
    "late share from loss: unordered $(pct "$1") %, 1 stream $(pct "$2") %, ${streams} streams $(pct "$3") %;" \
    "excess sctp1 - excess sctp16 must be >= $(pct "${gap_min}") points"

# late CSV BAR_NS FROM_S PREFIX: for the messages of one latency file due
# FROM_S seconds or more after its load began, KEY=VALUE lines with PREFIX
# before each key: n (messages delivered), late (corrected latency above
# BAR_NS), share (late / n), se (its binomial standard error) and max_us.
late() {
    awk -F, -v bar="$2" -v from="$3" -v k="$4" "${root}"'NR > 1 && $3 >= from * 1e9 { n++; if ($6 > bar) l++; if ($6 > m) m = $6 }
        END { s = n ? l / n : 0
              printf "%sn=%d\n%slate=%d\n%sshare=%.4f\n%sse=%.4f\n%smax_us=%.0f\n", k, n, k, l, k, s, k, n ? root(s * (1 - s) / n) : 0, k, m / 1000 }' "$1"
}

# percentiles CSV FROM_S: p50_us, p90_us and p99_us (nearest rank) of the
# corrected latency of the messages of CSV due FROM_S seconds or more after
# the load began, as KEY=VALUE lines.
percentiles() {
    awk -F, -v from="$2" 'NR > 1 && $3 >= from * 1e9 { print $6 }' "$1" | sort -n |
        awk '{ v[NR] = $1 }
             function at(p,    r) { r = int(p * NR + 0.999999); if (r < 1) r = 1; return v[r] / 1000 }
             END { printf "p50_us=%.0f\np90_us=%.0f\np99_us=%.0f\n", at(0.5), at(0.9), at(0.99) }'
}

# run_variant NAME TWIN ARGS...: a server and a client given ARGS, NAME over
# the lossy link, and at the same time a twin, NAME-clean, over the clean
# link: a client given the same ARGS against the same server when TWIN is
# "same", else a server and a client of its own given TWIN (a list of
# options). The twin meets the same emulator at the same moment, without
# loss: its median + late_ms is the bar, and its own share above the bar
# is the emulator's floor for this run. Fails unless both clients exit 0.
# Leaves the reports (NAME.json, NAME.flat, NAME-clean.*), the latency files
# (NAME.csv, NAME-clean.csv) and NAME.stats: bar_ns, from_s (messages due
# before it are not counted), the lossy flow's n, late, share, se, max_us,
# p50_us, p90_us, p99_us, the twin's n to max_us with a clean_ prefix, and
# excess = share - clean_share with its excess_se.
run_variant() {
    _name="$1"
    _twin="$2"
    shift 2
    _started="$(now_s)"
    echo "$*" >"${CHECK_WORK}/${_name}.args"
    # start_server reads the log at once; it may not exist yet otherwise.
    : >"${CHECK_WORK}/srv-${_name}.log"
    : >"${CHECK_WORK}/srv-${_name}-clean.log"
    start_server "${CHECK_WORK}/srv-${_name}.log" s SOCK_STREAM_srv "$@" -p 0
    _servers="${SERVER_PID}"
    _port="${SERVER_PORT}"
    start_client "${CHECK_WORK}/${_name}.json" c SOCK_STREAM_clt "$@" -H 10.77.7.2 -p "${_port}" \
        -s "${payload_power}" --rate "${rate_per_s}" -c "${count}" --interval 0.5 --format json \
        --io-timeout 10 --latency-file "${CHECK_WORK}/${_name}.csv"
    _pid="${CLIENT_PID}"
    if [ "${_twin}" != same ]; then
        # shellcheck disable=SC2086 # ${_twin} is a list of options
        set -- ${_twin}
        start_server "${CHECK_WORK}/srv-${_name}-clean.log" s SOCK_STREAM_srv "$@" -p 0
        _servers="${_servers} ${SERVER_PID}"
        _port="${SERVER_PORT}"
    fi
    start_client "${CHECK_WORK}/${_name}-clean.json" c SOCK_STREAM_clt "$@" -H 10.77.6.2 -p "${_port}" \
        -s "${payload_power}" --rate "${rate_per_s}" -c "${count}" --interval 0 --format json \
        --io-timeout 10 --latency-file "${CHECK_WORK}/${_name}-clean.csv"
    # The loss starts once the lossy client is past its primer: its first
    # progress line comes 0.5 s into the load. Both clients then set out at
    # the same moment, and no primer round trip waits out a lost packet.
    _ticks=0
    while [ -z "$(interval_s "${CHECK_WORK}/${_name}.json.err")" ] && kill -0 "${_pid}" 2>/dev/null &&
        [ "${_ticks}" -lt 600 ]; do
        sleep 0.1
        _ticks=$((_ticks + 1))
    done
    lossy on
    # Messages due from a second after the last progress line seen once the
    # loss was on are measured, on both flows (each from its own start).
    _from_s="$(awk -v t="$(interval_s "${CHECK_WORK}/${_name}.json.err")" 'BEGIN { printf "%.1f", (t == "" ? 0 : t) + 1 }')"
    for _run in "${_name}:${_pid}" "${_name}-clean:${CLIENT_PID}"; do
        _status=0
        wait_bounded "${_run#*:}" "${client_limit_s}" || _status=$?
        _run="${_run%:*}"
        client_ok "${CHECK_WORK}/${_run}.json" "${_status}" "${_run}" "${client_limit_s}"
        json_flatten "${CHECK_WORK}/${_run}.json" >"${CHECK_WORK}/${_run}.flat"
    done
    lossy off
    _run_s="$(float_sub "$(now_s)" "${_started}")"
    for _pid in ${_servers}; do
        stop_pid "${_pid}"
    done
    _bar_ns="$(awk -v m="$(field "${_name}-clean" load.latency_corrected.p50_us)" -v l="${late_ms}" \
        'BEGIN { printf "%.0f", (m + l * 1000) * 1000 }')"
    _stats="${CHECK_WORK}/${_name}.stats"
    {
        echo "bar_ns=${_bar_ns}"
        echo "from_s=${_from_s}"
        late "${CHECK_WORK}/${_name}.csv" "${_bar_ns}" "${_from_s}" ""
        late "${CHECK_WORK}/${_name}-clean.csv" "${_bar_ns}" "${_from_s}" clean_
        percentiles "${CHECK_WORK}/${_name}.csv" "${_from_s}"
    } >"${_stats}.part"
    awk -F= "${root}"'{ v[$1] = $2; print }
        END { printf "excess=%.4f\nexcess_se=%.4f\n", v["share"] - v["clean_share"], root(v["se"] * v["se"] + v["clean_se"] * v["clean_se"]) }' \
        "${_stats}.part" >"${_stats}"
    _abandoned="$(field "${_name}" load.messages_abandoned)"
    log "${_name}: both flows done in ${_run_s} s; lossy: sent $(field "${_name}" load.messages_sent)," \
        "replied $(field "${_name}" load.messages_replied), lost $(field "${_name}" load.messages_lost)," \
        "abandoned ${_abandoned:--}, slip <= $(ms "$(field "${_name}" load.schedule_slip_max_us)") ms;" \
        "twin: median $(ms "$(field "${_name}-clean" load.latency_corrected.p50_us)") ms, slip <= $(ms "$(field "${_name}-clean" load.schedule_slip_max_us)") ms;" \
        "counted from ${_from_s} s, late above $(ms "$((_bar_ns / 1000))") ms: $(figure "${_name}" late)/$(figure "${_name}" n) lossy," \
        "$(figure "${_name}" clean_late)/$(figure "${_name}" clean_n) twin"
}

# all_replied RUN: fails unless a run over a reliable transport got every reply.
all_replied() {
    _replied="$(field "$1" load.messages_replied)"
    _lost="$(field "$1" load.messages_lost)"
    if [ "${_replied}" != "${count}" ] || [ "${_lost}" != 0 ]; then
        fail "$1: ${_replied} of ${count} replies, ${_lost} lost, over a reliable transport"
    fi
}

# retransmitted NAME: the client's and the server's retransmissions.
retransmitted() {
    _kind=retransmitted_chunks
    [ -n "$(field "$1" transport.retransmitted_segments)" ] && _kind=retransmitted_segments
    echo "$(field "$1" "transport.${_kind}")+$(field "$1" "load.server.transport.${_kind}")"
}

# table NAME...: the figures of the variants, one line each.
table() {
    log "corrected latency of the lossy flow's counted messages in ms; late: above the twin's median + ${late_ms} ms;" \
        "floor: the twin's late share; excess = late share - floor; shares in %, +- one binomial standard error"
    printf '  %-10s %6s %6s %6s %6s %12s %7s %7s %7s %7s %9s %7s\n' \
        variant deliv late share floor excess p50 p90 p99 max abandoned rtx
    for _v in "$@"; do
        _abandoned="$(field "${_v}" load.messages_abandoned)"
        printf '  %-10s %6d %6d %6.1f %6.1f %5.1f +- %3.1f %7s %7s %7s %7s %9s %7s\n' "${_v}" \
            "$(figure "${_v}" n)" "$(figure "${_v}" late)" "$(pct "$(figure "${_v}" share)")" \
            "$(pct "$(figure "${_v}" clean_share)")" "$(pct "$(figure "${_v}" excess)")" "$(pct "$(figure "${_v}" excess_se)")" \
            "$(ms "$(figure "${_v}" p50_us)")" "$(ms "$(figure "${_v}" p90_us)")" \
            "$(ms "$(figure "${_v}" p99_us)")" "$(ms "$(figure "${_v}" max_us)")" \
            "${_abandoned:--}" "$(retransmitted "${_v}")"
    done
}

# hol_export: the data behind the table, small enough to keep, into
# HOL_EXPORT_DIR: every run's report (NAME.json, NAME-clean.json), its
# corrected latencies as a histogram of 0.5 ms bins (NAME-latency.csv,
# NAME-clean-latency.csv; the messages counted, those due from from_s on;
# bins holding none left out), table.csv with one row per variant and
# setup.csv with the parameters and the model's figures.
hol_export() {
    mkdir -p "${HOL_EXPORT_DIR}"
    echo "variant,options,sent,counted_from_s,delivered,late,late_share,late_share_se,bar_ms,twin_late_share,excess,excess_se,p50_ms,p90_ms,p99_ms,max_ms,abandoned,lost,retransmitted_client,retransmitted_server" \
        >"${HOL_EXPORT_DIR}/table.csv"
    for _v in "$@"; do
        for _run in "${_v}" "${_v}-clean"; do
            cp "${CHECK_WORK}/${_run}.json" "${HOL_EXPORT_DIR}/${_run}.json"
            {
                echo "latency_ms,messages"
                awk -F, -v from="$(figure "${_v}" from_s)" \
                    'NR > 1 && $3 >= from * 1e9 { c[int($6 / 500000)]++ } END { for (b in c) printf "%.1f,%d\n", b / 2, c[b] }' \
                    "${CHECK_WORK}/${_run}.csv" | sort -t, -k1,1n
            } >"${HOL_EXPORT_DIR}/${_run}-latency.csv"
        done
        _rtx="$(retransmitted "${_v}")"
        _abandoned="$(field "${_v}" load.messages_abandoned)"
        echo "${_v},$(cat "${CHECK_WORK}/${_v}.args"),$(field "${_v}" load.messages_sent),$(figure "${_v}" from_s),$(figure "${_v}" n),$(figure "${_v}" late),$(figure "${_v}" share),$(figure "${_v}" se),$(ms "$(($(figure "${_v}" bar_ns) / 1000))"),$(figure "${_v}" clean_share),$(figure "${_v}" excess),$(figure "${_v}" excess_se),$(ms "$(figure "${_v}" p50_us)"),$(ms "$(figure "${_v}" p90_us)"),$(ms "$(figure "${_v}" p99_us)"),$(ms "$(figure "${_v}" max_us)"),${_abandoned:-0},$(field "${_v}" load.messages_lost),${_rtx%+*},${_rtx#*+}" \
            >>"${HOL_EXPORT_DIR}/table.csv"
    done
    {
        echo "parameter,value"
        echo "rate_per_s,${rate_per_s}"
        echo "messages_per_run,${count}"
        echo "payload_bytes,$((1 << payload_power))"
        echo "delay_ms_each_way,${delay_ms}"
        echo "loss_percent_each_way,${loss_pct}"
        echo "late_ms_over_twin_median,${late_ms}"
        echo "streams,${streams}"
        echo "sctp_rto_ms,${rto_ms}"
        echo "pr_sctp_ttl_ms,${ttl_ms}"
        echo "model_repair_ms,${model_repair_ms}"
        echo "model_share_unordered,${model_q}"
        echo "model_share_1_stream,${model_p1}"
        echo "model_share_${streams}_streams,${model_p16}"
        echo "required_excess_gap_1_vs_${streams},${gap_min}"
        echo "pr_bound_ms,$(ms "${pr_bound_us}")"
        echo "pair_attempts,${pair_attempts}"
        echo "pr_attempts,${pr_attempts}"
        echo "gap_attempts,${gap_attempts}"
    } >"${HOL_EXPORT_DIR}/setup.csv"
}

run_variant tcp same -t tcp
all_replied tcp
all_replied tcp-clean
# shellcheck disable=SC2086 # ${rto} is a list of options
run_variant sctp1 same -t sctp ${rto}
all_replied sctp1
all_replied sctp1-clean

if [ "${features}" -eq 0 ]; then
    table tcp sctp1
    skip "the HOL variants need ${missing}; measured so far: excess late share tcp $(pct "$(figure tcp excess)") %, sctp1 $(pct "$(figure sctp1 excess)") %"
fi

# 16 streams against unordered, the pair measured back to back.
attempt=1
while :; do
    # shellcheck disable=SC2086
    run_variant sctp16 same -t sctp ${rto} --streams "${streams}"
    all_replied sctp16
    all_replied sctp16-clean
    # shellcheck disable=SC2086
    run_variant unordered same -t sctp ${rto} --unordered
    all_replied unordered
    all_replied unordered-clean
    e16="$(figure sctp16 excess)"
    eu="$(figure unordered excess)"
    tolerance="$(awk -v a="$(figure sctp16 excess_se)" -v b="$(figure unordered excess_se)" "${root}"'BEGIN { printf "%.4f", 3 * root(a * a + b * b) }')"
    log "attempt ${attempt}: excess late share sctp16 $(pct "${e16}") +- $(pct "$(figure sctp16 excess_se)") %," \
        "unordered $(pct "${eu}") +- $(pct "$(figure unordered excess_se)") %; sctp16 must be >= unordered - $(pct "${tolerance}") points"
    pair_attempts="${attempt}"
    float_ge "${e16}" "$(awk -v u="${eu}" -v t="${tolerance}" 'BEGIN { print u - t }')" && break
    if [ "${attempt}" -ge "${attempts}" ]; then
        table tcp sctp1 sctp16 unordered
        fail "16 streams had fewer late messages than unordered delivery beyond the noise, ${attempts} times (last excess: $(pct "${e16}") % against $(pct "${eu}") %)"
    fi
    log "emulator noise beyond the binomial spread: measuring the pair again"
    attempt=$((attempt + 1))
done

# PR-SCTP: the latest delivered message against the bound.
attempt=1
while :; do
    # The twin goes without PR-SCTP: under emulation its kernel would also
    # give up messages that were never lost but waited past the TTL.
    # shellcheck disable=SC2086
    run_variant prttl "-t sctp ${rto}" -t sctp ${rto} --pr-sctp "ttl:${ttl_ms}"
    all_replied prttl-clean
    abandoned="$(field prttl load.messages_abandoned)"
    lost="$(field prttl load.messages_lost)"
    replied="$(field prttl load.messages_replied)"
    [ -n "${abandoned}" ] || fail "prttl: the report has no load.messages_abandoned"
    [ "${lost}" = 0 ] || fail "prttl: ${lost} messages counted lost, not abandoned"
    [ "$((replied + abandoned))" -eq "${count}" ] ||
        fail "prttl: ${replied} replies and ${abandoned} abandoned do not add up to the ${count} sent"
    twin_p50_us="$(field prttl-clean load.latency_corrected.p50_us)"
    pr_uncapped_us="$(awk -v t="${ttl_ms}" -v m="${twin_p50_us}" -v x="$(figure prttl clean_max_us)" 'BEGIN {
        slack = (x - m) / 1000; if (slack < 20) slack = 20
        printf "%.0f", (2 * t + m / 1000 + 16 + slack) * 1000 }')"
    pr_bound_us="$(awk -v b="${pr_uncapped_us}" -v rto="${rto_ms}" 'BEGIN {
        if (b > rto * 1000) b = rto * 1000
        printf "%.0f", b }')"
    pr_max_us="$(figure prttl max_us)"
    pr_attempts="${attempt}"
    log "attempt ${attempt}: prttl abandoned ${abandoned} (kernels: client $(field prttl load.requests_abandoned_by_client_kernel)," \
        "server $(field prttl load.replies_abandoned_by_server_kernel)); latest delivered $(ms "${pr_max_us}") ms," \
        "bound $(ms "${pr_bound_us}") ms = 2 x ${ttl_ms} + RTT $(ms "${twin_p50_us}") + 16 + the twin's max - median" \
        "($(ms "$(figure prttl clean_max_us)") - $(ms "${twin_p50_us}") ms, at least 20), at most the RTO, ${rto_ms} ms"
    [ "${abandoned}" -gt 0 ] ||
        fail "prttl: no message abandoned with ttl ${ttl_ms} ms on both ends at ${loss_pct} % loss each way"
    float_lt "${pr_max_us}" "${pr_bound_us}" && break
    if [ "${attempt}" -ge "${attempts}" ] && float_ge "${pr_uncapped_us}" "$((rto_ms * 1000))"; then
        pr_undecided="the last twin, without loss, had a median of $(ms "${twin_p50_us}") ms and a max of $(ms "$(figure prttl clean_max_us)") ms, so the bound before its cap, $(ms "${pr_uncapped_us}") ms, reached the ${rto_ms} ms RTO: a retransmission timeout cannot be told from the emulator's delay"
        break
    fi
    if [ "${attempt}" -ge "${attempts}" ]; then
        table tcp sctp1 sctp16 unordered prttl
        fail "PR-SCTP ttl:${ttl_ms} delivered a message $(ms "${pr_max_us}") ms late, above the bound of $(ms "${pr_bound_us}") ms, ${attempts} times (the last twin, without loss: median $(ms "${twin_p50_us}") ms, max $(ms "$(figure prttl clean_max_us)") ms)"
    fi
    log "the maximum is one sample and may be the emulator's: measuring again"
    attempt=$((attempt + 1))
done

# One stream against 16: measured again, up to three times in all, when
# the gap falls short, for the emulator's noise. A twin whose own median
# is beyond the path's RTT plus twice the repair time shows an emulator
# whose delay swamps what a loss holds back (a twin median of 161 ms on
# this 20 ms path, beside two other VMs, left 99 of 1000 messages late
# and a gap of 3 points): if the last attempt is such a one, the gap is not
# judged and the check is skipped, saying so; a short gap beside a twin
# that was not so slowed fails as before.
swamped_us="$(awk -v d="${delay_ms}" -v r="${model_repair_ms}" 'BEGIN { printf "%.0f", (2 * d + 2 * r) * 1000 }')"
attempt=1
while :; do
    e1="$(figure sctp1 excess)"
    gap="$(awk -v a="${e1}" -v b="${e16}" 'BEGIN { printf "%.4f", a - b }')"
    twin1_p50_us="$(field sctp1-clean load.latency_corrected.p50_us)"
    gap_attempts="${attempt}"
    log "attempt ${attempt}: excess late share sctp1 $(pct "${e1}") %, sctp16 $(pct "${e16}") %: gap $(pct "${gap}") points," \
        "at least $(pct "${gap_min}") required; the sctp1 twin's median $(ms "${twin1_p50_us}") ms (swamped beyond $(ms "${swamped_us}") ms)"
    float_ge "${gap}" "${gap_min}" && break
    if [ "${attempt}" -ge "${attempts}" ] && float_ge "${twin1_p50_us}" "${swamped_us}"; then
        gap_undecided="the last sctp1 twin, without loss, had a median of $(ms "${twin1_p50_us}") ms on a path of $((2 * delay_ms)) ms, beyond the RTT plus twice the repair time ($(ms "${swamped_us}") ms): the emulator's own delay hid what a loss holds back"
        break
    fi
    if [ "${attempt}" -ge "${attempts}" ]; then
        table tcp sctp1 sctp16 unordered prttl
        fail "one stream had only $(pct "${gap}") points more late messages than 16 streams (model: $(pct "$(awk -v a="${model_p1}" -v b="${model_p16}" 'BEGIN { print a - b }')"), at least $(pct "${gap_min}") required), ${attempts} times"
    fi
    log "emulator noise: measuring one stream again"
    # shellcheck disable=SC2086 # ${rto} is a list of options
    run_variant sctp1 same -t sctp ${rto}
    all_replied sctp1
    all_replied sctp1-clean
    attempt=$((attempt + 1))
done
table tcp sctp1 sctp16 unordered prttl
if [ -n "${gap_undecided:-}" ]; then
    skip "one stream against 16 not judged: ${gap_undecided} (this host is too busy for it now); the rest held: sctp16 $(pct "${e16}") % ~ unordered $(pct "${eu}") %"
fi
float_ge "$(awk -v a="${e1}" -v b="${e16}" -v u="${eu}" 'BEGIN { print (a - u) / 2 - (b - u) }')" 0 ||
    fail "16 streams took away less than half of the blocking: excess sctp1 $(pct "${e1}") %, sctp16 $(pct "${e16}") %, unordered $(pct "${eu}") %"

if [ -n "${HOL_EXPORT_DIR:-}" ]; then
    hol_export tcp sctp1 sctp16 unordered prttl
    hol_exported
fi
if [ -n "${pr_undecided:-}" ]; then
    skip "PR-SCTP not judged: ${pr_undecided} (this host is too busy for it now); the rest held: excess late share sctp1 $(pct "${e1}") % > sctp16 $(pct "${e16}") % ~ unordered $(pct "${eu}") %"
fi
pass "excess late share: sctp1 $(pct "${e1}") % > sctp16 $(pct "${e16}") % ~ unordered $(pct "${eu}") % (model $(pct "${model_p1}") / $(pct "${model_p16}") / $(pct "${model_q}")), tcp $(pct "$(figure tcp excess)") %; prttl max $(ms "${pr_max_us}") ms < $(ms "${pr_bound_us}") ms, ${abandoned} abandoned"
