#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a kernel without SCTP, every SCTP program fails at once with exit 1 and a
# message that says what to do, instead of hanging or falling back to TCP.
source "$(dirname "$0")/lib.sh"

kernel_has_sctp && skip "this kernel has SCTP; nothing to refuse"

for program in SOCK_STREAM_srv SOCK_STREAM_clt SOCK_SEQPACK_srv SOCK_SEQPACK_clt; do
    [ -x "$BIN_DIR/$program" ] || continue
    args=(-p 45453)
    [[ $program == *_clt ]] && args=(-s 1 -c 10 -H 127.0.0.1 -p 45453)
    run_capture 1 "$BIN_DIR/$program" "${args[@]}"
    grep -q "this kernel has no SCTP support: load it with 'modprobe sctp'" <<<"$ERR" ||
        fail "$program: unclear message: $ERR"
    pass "$program: exit 1 with 'no SCTP support'"
done
