// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a failure to set up one of several flows is told: past the first flow
// the server is there, so what failed is this flow (a server's limit on
// clients, or no local port left), and the sentence names it.

namespace sctp_perf {

// Called inside a catch handler for a failure of flow `flow` (0-based) of
// `flows`, `accepted` of them set up before it: rethrows a connect_error as
// "flow K of N: ...", a test_refused as "flow K of N, after A were
// accepted: ...", and anything else as it is. The first flow's failure is
// rethrown as it is, so that a server that is not running is named so.
[[noreturn]] void rethrow_flow_failure(unsigned flow, unsigned flows, unsigned accepted);

}  // namespace sctp_perf
