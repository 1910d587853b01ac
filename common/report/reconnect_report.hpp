// SPDX-License-Identifier: Apache-2.0
#pragma once
// --reconnect in the reports: what the flows' outages cost, as a whole
// (how many, how long, what was lost or never sent) and flow by flow. Only
// a run that asked for --reconnect has the section; without it a flow whose
// connection ends fails the run, so there is nothing to tell.

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>

#include "client/load/load_result.hpp"
#include "stats/value_spread.hpp"

namespace sctp_perf {

// The outages of a run, over all its flows.
struct outage_figures {
    std::uint64_t outages = 0;
    std::uint64_t resumed = 0;   // ended by a new connection
    std::uint64_t not_over = 0;  // still without a connection at the run's end
    unsigned flows = 0;          // flows with at least one outage
    // Of the resumed outages: how long each lasted, spread, and in all.
    std::optional<value_spread> lasted_s;
    double total_s = 0.0;
    unsigned most_attempts = 0;  // the most connects one outage took
};
outage_figures outage_figures_of(const load_result& load);

// The text lines, under the load block's message line.
void write_reconnect_lines(std::ostream& out, const load_result& load);
// The JSON's load.reconnect object.
nlohmann::ordered_json reconnect_json(const load_result& load);
// One flow's outages, for its entry in load.per_flow.
nlohmann::ordered_json flow_outages_json(const flow_result& flow);

}  // namespace sctp_perf
