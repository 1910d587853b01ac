// SPDX-License-Identifier: Apache-2.0
#include "client/flow_connection.hpp"

#include <algorithm>
#include <utility>

#include "client/connection_checks.hpp"
#include "client/flow_failure.hpp"
#include "client/test_negotiation.hpp"
#include "transport/sctp_features.hpp"
#include "transport/stream_connector.hpp"

namespace sctp_perf {
namespace {

void fold_timeout(std::optional<std::chrono::milliseconds>& shortest,
                  std::optional<std::chrono::milliseconds> timeout) {
    if (timeout) {
        shortest = shortest ? std::min(*shortest, *timeout) : *timeout;
    }
}

// Fan-out: flow `flow` (< the number of servers) alone, the first of its
// server, whose settings it reads for the report; its failure names the
// server.
void connect_first_of_server(const client_options& options, run_report& described,
                             const client_connectors& connectors,
                             const protocol::test_header& header, unsigned flow,
                             connected_flows& connected) {
    try {
        client_connection connection = connectors.connect(options, flow);
        if (flow == 0) {
            open_described_test(described, options, connection, header);
            described.servers.push_back({endpoint_text(options.servers[flow]),
                                         connection.peer_addresses, described.server_settings});
            fold_timeout(connected.shortest_server_io_timeout,
                         server_io_timeout(described.decoded_server_settings));
        } else {
            fan_out_server seen{endpoint_text(options.servers[flow]), connection.peer_addresses,
                                negotiate_test(*connection.channel, header)};
            const auto settings = protocol::decode_server_settings(seen.settings);
            if (options.common.transport == transport_protocol::sctp) {
                check_stream_counts(options, described.program,
                                    read_sctp_features(connection.channel->native_handle()),
                                    settings);
            }
            fold_timeout(connected.shortest_server_io_timeout, server_io_timeout(settings));
            described.servers.push_back(std::move(seen));
        }
        connected.channels.push_back(std::move(connection.channel));
    } catch (...) {
        rethrow_flow_failure(flow, options.flows, flow, options.servers);
    }
}

}  // namespace

connected_flows connect_flows(const client_options& options, run_report& described,
                              const client_connectors& connectors,
                              const protocol::test_header& header) {
    connected_flows connected;
    auto& channels = connected.channels;
    channels.reserve(options.flows);
    if (options.fan_out()) {
        // Each server's first flow alone: each says what it is, and each
        // one's failure is that server's (validation ensures flows >= servers).
        for (unsigned flow = 0; flow < options.servers.size(); ++flow) {
            connect_first_of_server(options, described, connectors, header, flow, connected);
        }
    } else {
        client_connection connection = connectors.connect(options, 0);
        open_described_test(described, options, connection, header);
        fold_timeout(connected.shortest_server_io_timeout,
                     server_io_timeout(described.decoded_server_settings));
        channels.push_back(std::move(connection.channel));
    }
    if (options.flows > channels.size() && connectors.connect_rest) {
        connectors.connect_rest(options, header, channels);
        return connected;
    }
    for (auto flow = static_cast<unsigned>(channels.size()); flow < options.flows; ++flow) {
        try {
            client_connection connection = connectors.connect(options, flow);
            negotiate_test(*connection.channel, header);
            channels.push_back(std::move(connection.channel));
        } catch (...) {
            rethrow_flow_failure(flow, options.flows, flow, options.servers);
        }
    }
    return connected;
}

}  // namespace sctp_perf
