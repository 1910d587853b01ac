// SPDX-License-Identifier: Apache-2.0
#pragma once
// The flows of a load run connected, and the test opened on each: the first
// alone, since it is the one the report describes and a failure there is the
// server's (not running, refusing); with several servers (fan-out), each
// server's first flow alone; then the others, at once where the program can
// (client/flow_setup_loop.hpp).

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "client/client_main.hpp"
#include "options/client_options.hpp"
#include "protocol/wire_protocol.hpp"
#include "report/run_report.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// How the program connects one flow, and the flows after the first.
struct client_connectors {
    const client_connector& connect;
    const flows_connector& connect_rest;
    const flow_dialer_maker& redial;  // --reconnect's; may be empty
};

struct connected_flows {
    std::vector<std::unique_ptr<message_channel>> channels;  // flow i's at i
    // The shortest --io-timeout of the servers, as their settings state it
    // (server_io_timeout); unset when none does.
    std::optional<std::chrono::milliseconds> shortest_server_io_timeout;
};

// Connects every flow and opens the test with `header` on each, `described`
// getting the first flow's connection and server, and with fan-out every
// server's address and settings (run_report::servers). Throws as
// rethrow_flow_failure words it.
connected_flows connect_flows(const client_options& options, run_report& described,
                              const client_connectors& connectors,
                              const protocol::test_header& header);

}  // namespace sctp_perf
