// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one-way figures of a run (--one-way: the round trip split by the
// server's stamps, stats/one_way_split.hpp) and half of the round trip
// (--half-rtt), in the text and JSON reports. Formatting only, of values
// measured elsewhere; the round trip's own figures stay where they are.

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>

#include "stats/log_linear_histogram.hpp"
#include "stats/one_way_split.hpp"

namespace sctp_perf {

// The label of every --half-rtt line and key: it is not a measurement of
// one way, and says whose convention it follows.
inline constexpr const char* half_rtt_label = "half of the round trip, as RTI Perftest reports";
inline constexpr const char* half_rtt_json_key = "half_of_the_round_trip_as_rti_perftest_reports";

// Parts of a round trip as columns of figures beside each other (min, the
// reported percentiles, max, in microseconds), each at least 16 wide, under
// their titles; "(no measured round trip)" when the first part is empty.
struct percentile_column {
    std::string_view title;
    const log_linear_histogram* part = nullptr;
};
void write_percentile_columns(std::ostream& out, std::span<const percentile_column> columns);
// One part's summary and percentiles, as the round trip's are given.
nlohmann::ordered_json part_json(const log_linear_histogram& h);

// The three parts, as percentile columns beside each other, then the clock
// they were read on (and, on two hosts, the offset and how far to trust it).
// `from_send`: a load mode's, whose split round trip is the uncorrected one.
void write_one_way_block(std::ostream& out, const one_way_split& split, bool from_send);
nlohmann::ordered_json one_way_json(const one_way_split& split);

// RTT/2 of every figure of the round trip `rtt` (min, the percentiles, max).
void write_half_rtt_block(std::ostream& out, const log_linear_histogram& rtt);
nlohmann::ordered_json half_rtt_json(const log_linear_histogram& rtt);

}  // namespace sctp_perf
