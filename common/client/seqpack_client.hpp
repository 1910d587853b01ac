// SPDX-License-Identifier: Apache-2.0
#pragma once
// How SOCK_SEQPACK_clt connects: one SCTP association, possibly multi-homed,
// over a SOCK_SEQPACKET socket.

#include "client/client_main.hpp"
#include "transport/seqpacket_connector.hpp"

namespace sctp_perf {

// What the options ask of every association: all the -H addresses of the
// server, all the -i addresses bound.
seqpacket_connect_request seqpack_connect_request(const client_options& options);

// The connection on an association that is up, peeled off onto a socket of
// its own and set up as the options say (Nagle, I/O timeout, buffers,
// spinning, and with several streams the stream of every reply told).
client_connection seqpack_connection(seqpacket_association association,
                                     const client_options& options);

// Connects one association; every flow's goes to the one (multi-homed)
// server, so `flow` changes nothing.
client_connection connect_seqpack_client(const client_options& options, unsigned flow);

}  // namespace sctp_perf
