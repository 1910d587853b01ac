// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sets up the flows of a client many at a time. One after another, each flow
// waits for its handshake and then for the server's answer to its test
// header, two round trips and two wake-ups, so ten thousand flows wait for
// twenty thousand in turn (over a path of 1 ms, 20 s), however idle both
// ends are meanwhile.
//
// One event loop (epoll) drives at most --connect-window flows at once,
// each through two phases: its non-blocking connect, then its test header
// sent and the server's answer awaited. Each phase is bounded by
// --io-timeout, as the blocking path bounds each call. The answer (verdict
// and settings) is read once the socket is readable, with the blocking
// read negotiate_test uses, so a server that sends the verdict and then
// stalls still costs at most --io-timeout.
//
// How a flow connects is the program's (flow_dialer): a one-to-one
// connection (stream_flow_setup) or an association of its own on a
// one-to-many socket (seqpack_flow_setup); the window, the deadlines and
// the sentence of a failure are shared.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "errors.hpp"
#include "options/client_options.hpp"
#include "protocol/wire_protocol.hpp"
#include "transport/message_channel.hpp"
#include "transport/unique_fd.hpp"

namespace sctp_perf {

// A connect started on one of a flow's routes (the ways to reach the
// server, tried in order).
struct connect_start {
    unique_fd socket;      // non-blocking, connecting; none when the route is unusable
    int failure = 0;       // the errno of a connect that failed at once
    std::string unusable;  // why the route cannot be tried
};

// One transport's way of connecting a flow without waiting.
class flow_dialer {
  public:
    virtual ~flow_dialer() = default;
    virtual std::size_t routes(unsigned flow) const = 0;
    // Starts connecting flow `flow` on route `route`. Throws connect_error
    // when a local address cannot be bound.
    virtual connect_start start(unsigned flow, std::size_t route) = 0;
    // The epoll events that say a connect on the socket has moved on.
    virtual std::uint32_t connect_events() const = 0;
    // After such an event on `socket`: 0 with `channel` set once the flow is
    // connected (`socket` may then hold a socket of the set-up, to close),
    // 0 without while it is under way, else the errno it failed with.
    virtual int advance(unique_fd& socket, std::unique_ptr<message_channel>& channel) = 0;
    // "cannot connect to ..." once no route is left.
    virtual connect_error failure(unsigned flow, const std::string& last_reason,
                                  bool refused) const = 0;
};

// Connects flows channels.size() .. options.flows - 1 with `dialer` and
// opens the test on each with `header`, appending their channels in flow
// order. Failures as rethrow_flow_failure words them, and as
// negotiate_test does; the flows set up so far are closed.
void connect_flows_at_once(flow_dialer& dialer, const client_options& options,
                           const protocol::test_header& header,
                           std::vector<std::unique_ptr<message_channel>>& channels);

}  // namespace sctp_perf
