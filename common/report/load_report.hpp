// SPDX-License-Identifier: Apache-2.0
#pragma once
// The load-mode parts of the reports, one reporter per format, each in a
// file of its own: the summary in the ace text (load_text_report.cpp), the
// `load` object of the JSON (load_json_report.cpp; README.SCTP_PERF_TEST
// section 9 lists its fields) and the per-flow CSV (load_csv_report.cpp).
// The figures they share are load_figures.hpp's; the spread over the flows
// is stats/value_spread.hpp's.

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

#include "client/load/load_result.hpp"

namespace sctp_perf {

void write_load_summary(std::ostream& out, const load_result& load);
nlohmann::ordered_json load_json(const load_result& load);

// The text report lists every flow up to this many; beyond, it gives the
// spread over the flows and the worst of them (flow_spread).
inline constexpr std::size_t flows_listed_in_full = 10;

// How one per-flow figure spreads over the flows: the smallest, the median
// (the flow of rank ceil(n / 2) in increasing order) and the largest.
struct spread_us {
    double min_us = 0.0;
    double median_us = 0.0;
    double max_us = 0.0;
};

// The spread of the flows' headline latencies, over the flows that had a
// timed reply (a flow with none has no percentile to spread).
struct flow_spread {
    std::size_t timed_flows = 0;  // flows with at least one timed reply
    spread_us p50;                // of the per-flow p50s
    spread_us p99;                // of the per-flow p99s
    // Indices into load_result::per_flow of the `worst_count` timed flows
    // with the highest p99, highest first; equal p99s in flow order.
    std::vector<std::size_t> worst;
};
flow_spread spread_over_flows(const load_result& load, std::size_t worst_count);

// --flow-csv: one row per flow after a header row,
// flow,messages_sent,messages_replied,messages_lost,rate_per_s,p50_us,p99_us,max_us
// with the flow's headline latency in microseconds, empty when it had no
// timed reply (README.SCTP_PERF_TEST section 8.12). With fan-out a last
// column, server, gives the flow's server as "host:port".
void write_flow_csv(std::ostream& out, const load_result& load);

// A latency in microseconds, keyed as the JSON's `summary` (num_points,
// min_us, mean_us, stddev_us, max_us) and `percentiles` (p50_us ...
// p99_99_us, max_us) name them; latency_json holds both, and the histogram
// itself as "hdr_histogram" (HdrHistogram's V2 compressed base64 encoding).
nlohmann::ordered_json latency_summary_json(const log_linear_histogram& latency);
nlohmann::ordered_json latency_percentiles_json(const log_linear_histogram& latency);
nlohmann::ordered_json latency_json(const log_linear_histogram& latency);

}  // namespace sctp_perf
