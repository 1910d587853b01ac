// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sets up the flows of SOCK_STREAM_clt (TCP or SCTP one-to-one) many at a
// time (client/flow_setup_loop.hpp): each flow a non-blocking connect() on
// each of the server's addresses in turn, writable once it has ended.

#include <memory>
#include <vector>

#include "client/flow_setup_loop.hpp"
#include "options/client_options.hpp"
#include "protocol/wire_protocol.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// Connects flows channels.size() .. options.flows - 1 and opens the test on
// each with `header`, appending their channels in flow order; fails as
// connect_flows_at_once does.
void connect_stream_flows(const client_options& options, const protocol::test_header& header,
                          std::vector<std::unique_ptr<message_channel>>& channels);

// The dialer of those flows, for a load run that sets one up again
// (--reconnect).
std::unique_ptr<flow_dialer> stream_flow_dialer(const client_options& options);

}  // namespace sctp_perf
