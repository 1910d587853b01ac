#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SCTP over loopback with the host's own kernel, where it has SCTP. Kernels
# without it skip here; the VM test (sctp_vm_checks) covers SCTP on every run.
source "$(dirname "$0")/lib.sh"

kernel_has_sctp || skip "this kernel has no SCTP (the VM test covers SCTP)"

start_server SOCK_STREAM_srv --sctp-rto-min 20 --sctp-rto-max 200 --sctp-rto-initial 50
for power in 0 7 16; do
    run_capture 0 "$BIN_DIR/SOCK_STREAM_clt" -H 127.0.0.1 -p "$SERVER_PORT" -s "$power" -c 1000 \
        --format json --sctp-rto-min 20 --sctp-rto-max 200 --sctp-rto-initial 50
    echo "$OUT" >"$WORK_DIR/run.json"
    [ "$(json_field "$WORK_DIR/run.json" summary.num_points)" = 1000 ] || fail "2^$power points"
    [ "$(json_field "$WORK_DIR/run.json" environment.sctp_rto_socket.min_ms)" = 20 ] ||
        fail "effective rto_min not reported"
    pass "SCTP SOCK_STREAM payload 2^$power"
done
if [ -x "$BIN_DIR/SOCK_SEQPACK_srv" ]; then
    start_server SOCK_SEQPACK_srv
    run_capture 0 "$BIN_DIR/SOCK_SEQPACK_clt" -H 127.0.0.1 -p "$SERVER_PORT" -s 10 -c 1000 \
        --format json
    echo "$OUT" >"$WORK_DIR/run.json"
    [ "$(json_field "$WORK_DIR/run.json" summary.num_points)" = 1000 ] || fail "seqpack points"
    pass "SCTP SOCK_SEQPACK payload 2^10"
fi
