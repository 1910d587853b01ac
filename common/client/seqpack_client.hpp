// SPDX-License-Identifier: Apache-2.0
#pragma once
// How SOCK_SEQPACK_clt connects: one SCTP association, possibly multi-homed,
// over a SOCK_SEQPACKET socket.

#include "client/client_main.hpp"

namespace sctp_perf {

client_connection connect_seqpack_client(const client_options& options);

}  // namespace sctp_perf
