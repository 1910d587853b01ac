// SPDX-License-Identifier: Apache-2.0
#pragma once
// The figures of a flow and of a server (fan-out) that the load reporters
// share (load_report.hpp): each format writes them its own way, all from
// the same numbers.

#include <optional>

#include "client/load/load_result.hpp"
#include "report/units.hpp"

namespace sctp_perf {

// A flow's p50, p99 and max of its headline latency, in microseconds; none
// when no timed message of the flow was answered.
struct flow_figures {
    std::optional<double> p50_us, p99_us, max_us;
};
flow_figures figures_of(const flow_result& flow);

// Fan-out: a server's p50, p99, p99.9 and max of the run's headline
// latency, in microseconds; none when no timed message of its flows was
// answered.
struct server_figures {
    std::optional<double> p50_us, p99_us, p99_9_us, max_us;
};
server_figures figures_of(const server_result& server);

}  // namespace sctp_perf
