// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a failure to set up one of several flows is told: past the first flow
// the server is there, so what failed is this flow (a server's limit on
// clients, or no local port left), and the sentence names it.

#include <vector>

#include "options/server_list.hpp"

namespace sctp_perf {

// Called inside a catch handler for a failure of flow `flow` (0-based) of
// `flows`, `accepted` of them set up before it: rethrows a connect_error as
// "flow K of N: ...", a test_refused as "flow K of N, after A were
// accepted: ...", and anything else as it is. The first flow's failure is
// rethrown as it is, so that a server that is not running is named so.
//
// With several `servers` (fan-out; flow k goes to server k modulo their
// number) the sentence begins with the flow's server, "server 2 of 3
// (127.0.0.1:45454), flow 1 of 6: ...", a peer_error is named so too, and
// a refused connect of a server's first flow (flow k < servers) says that
// this server is not running.
[[noreturn]] void rethrow_flow_failure(unsigned flow, unsigned flows, unsigned accepted,
                                       const std::vector<server_endpoint>& servers = {});

}  // namespace sctp_perf
