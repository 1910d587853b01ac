// SPDX-License-Identifier: Apache-2.0
#pragma once
// The whole life of a client program, shared by SOCK_STREAM_clt and
// SOCK_SEQPACK_clt: they differ only in how they connect.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "options/client_options.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

struct client_connection {
    std::unique_ptr<message_channel> channel;
    std::vector<std::string> local_addresses;
    std::vector<std::string> peer_addresses;
};

// Connects as the options say; throws connect_error or std::system_error.
using client_connector = std::function<client_connection(const client_options&)>;

// Parses the command line, connects, runs the test and prints the report.
// Returns the exit code; prints one line on stderr on failure.
int client_main(int argc, const char* const* argv, const program_info& program,
                const client_connector& connect);

}  // namespace sctp_perf
