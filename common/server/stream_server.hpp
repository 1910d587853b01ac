// SPDX-License-Identifier: Apache-2.0
#pragma once
// The server of SOCK_STREAM_srv: a listening TCP or SCTP one-to-one socket
// that hands each accepted connection to the session pool.

#include "options/server_options.hpp"

namespace sctp_perf {

// Serves until SIGINT or SIGTERM; returns the exit code. Throws
// std::system_error when the listening socket cannot be set up.
int run_stream_server(const server_options& options, const program_info& program);

}  // namespace sctp_perf
