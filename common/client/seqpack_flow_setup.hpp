// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sets up the associations of SOCK_SEQPACK_clt many at a time
// (client/flow_setup_loop.hpp). Each keeps a one-to-many socket of its own,
// since one endpoint holds only one association with a given server endpoint
// (RFC 9260, section 2.2), with every -i address bound (multi-homing): a
// non-blocking sctp_connectx to every -H address, per address family in
// turn, up once the association's SCTP_COMM_UP notification has come, and
// then peeled off as the blocking path does.

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
void connect_seqpack_flows(const client_options& options, const protocol::test_header& header,
                           std::vector<std::unique_ptr<message_channel>>& channels);

// The dialer of those associations, for a load run that sets one up again
// (--reconnect).
std::unique_ptr<flow_dialer> seqpack_flow_dialer(const client_options& options);

}  // namespace sctp_perf
