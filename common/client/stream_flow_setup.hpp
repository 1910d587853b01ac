// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sets up the flows of SOCK_STREAM_clt (TCP or SCTP one-to-one) many at a
// time: one after another, each flow waits for its handshake and then for
// the server's answer to its test header, two round trips and two
// wake-ups, so ten thousand flows wait for twenty thousand in turn (over a
// path of 1 ms, 20 s), however idle both ends are meanwhile.
//
// One event loop (epoll) drives at most --connect-window flows at once,
// each through two phases: its non-blocking connect, then its test header
// sent and the server's answer awaited. Each phase is bounded by
// --io-timeout, as the blocking path bounds each call. The answer (verdict
// and settings) is read once the socket is readable, with the blocking
// read negotiate_test uses, so a server that sends the verdict and then
// stalls still costs at most --io-timeout.

#include <memory>
#include <vector>

#include "options/client_options.hpp"
#include "protocol/wire_protocol.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// Connects flows channels.size() .. options.flows - 1 and opens the test on
// each with `header`, appending their channels in flow order. Failures as
// rethrow_flow_failure words them, and as negotiate_test does; the flows
// set up so far are closed.
void connect_stream_flows(const client_options& options, const protocol::test_header& header,
                          std::vector<std::unique_ptr<message_channel>>& channels);

}  // namespace sctp_perf
