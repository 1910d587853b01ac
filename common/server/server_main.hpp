// SPDX-License-Identifier: Apache-2.0
#pragma once
// The life of a server program, shared by SOCK_STREAM_srv and SOCK_SEQPACK_srv:
// parse, validate, serve, and turn failures into one line and an exit code.

#include <functional>

#include "options/server_options.hpp"

namespace sctp_perf {

using server_runner = std::function<int(const server_options&, const program_info&)>;

int server_main(int argc, const char* const* argv, const program_info& program,
                const server_runner& serve);

}  // namespace sctp_perf
