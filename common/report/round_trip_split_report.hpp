// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where the round trips went (--timestamps: the round trip split by the
// kernel's stamps at the client, stats/round_trip_split.hpp), in the text
// and JSON reports. Formatting only, of values measured elsewhere.

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "stats/round_trip_split.hpp"

namespace sctp_perf {

// The parts as percentile columns, what "beyond the client" holds, and the
// stamps' account: round trips split, missing a stamp, with a part below 0.
void write_round_trip_split_block(std::ostream& out, const round_trip_split& split);
nlohmann::ordered_json round_trip_split_json(const round_trip_split& split);

}  // namespace sctp_perf
