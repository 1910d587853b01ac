// SPDX-License-Identifier: Apache-2.0
#pragma once
// The server of SOCK_SEQPACK_srv: one SCTP one-to-many (SOCK_SEQPACKET)
// socket bound to every requested address on one port. Each new association
// is peeled off onto a socket of its own and served by the session pool,
// one thread per association.

#include "options/server_options.hpp"

namespace sctp_perf {

// Serves until SIGINT or SIGTERM; returns the exit code. Throws
// std::system_error when the listening socket cannot be set up (no SCTP in
// the kernel, an address that cannot be bound), usage_error for a bind
// address that does not resolve.
int run_seqpack_server(const server_options& options, const program_info& program);

}  // namespace sctp_perf
