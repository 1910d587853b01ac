#pragma once
// The load-mode parts of the reports: the summary in the ace text, and the
// `load` object of the JSON (README.SCTP_PERF_TEST section 9 lists its fields).

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "report/load_result.hpp"

namespace sctp_perf {

void write_load_summary(std::ostream& out, const load_result& load);
nlohmann::ordered_json load_json(const load_result& load);

// A latency summary in microseconds: num_points, min, mean, stddev, max and
// the reported percentiles, as the JSON's `summary` and `percentiles` name them.
nlohmann::ordered_json latency_json(const log_linear_histogram& latency);

}  // namespace sctp_perf
