// SPDX-License-Identifier: Apache-2.0
#pragma once
// How often a spinning server worker yields its CPU, one figure for both
// workers (event_worker, one_to_many_worker).

namespace sctp_perf {

// Spinning, empty polls between two yields of the CPU (as spin_wait does in
// the client): with both ends of a test on one CPU, a spinner would
// otherwise keep the other end from running for the rest of its time slice.
constexpr unsigned spin_polls_per_yield = 1024;

}  // namespace sctp_perf
