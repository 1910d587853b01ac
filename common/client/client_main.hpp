// SPDX-License-Identifier: Apache-2.0
#pragma once
// The whole life of a client program, shared by SOCK_STREAM_clt and
// SOCK_SEQPACK_clt: they differ only in how they connect.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "options/client_options.hpp"
#include "protocol/wire_protocol.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

class flow_dialer;  // client/flow_setup_loop.hpp

struct client_connection {
    std::unique_ptr<message_channel> channel;
    std::vector<std::string> local_addresses;
    std::vector<std::string> peer_addresses;
};

// Connects flow `flow` as the options say (its server, with several);
// throws connect_error or std::system_error.
using client_connector = std::function<client_connection(const client_options&, unsigned flow)>;

// Connects the flows after those in `channels` (the first, connected with
// the client_connector) and opens the test on each with the header, many at
// a time (client/flow_setup_loop.hpp); throws as rethrow_flow_failure
// words it.
using flows_connector = std::function<void(const client_options&, const protocol::test_header&,
                                           std::vector<std::unique_ptr<message_channel>>&)>;

// Makes the dialer with which a load run sets up a flow again whose
// connection ended (--reconnect; client/load/flow_reconnector.hpp).
using flow_dialer_maker = std::function<std::unique_ptr<flow_dialer>(const client_options&)>;

// Parses the command line, connects, runs the test and prints the report.
// Returns the exit code; prints one line on stderr on failure. Without
// `connect_rest`, a load run connects its flows one after another with
// `connect`; without `redial`, --reconnect has no way to connect again.
int client_main(int argc, const char* const* argv, const program_info& program,
                const client_connector& connect, const flows_connector& connect_rest = {},
                const flow_dialer_maker& redial = {});

}  // namespace sctp_perf
