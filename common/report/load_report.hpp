#pragma once
// The load-mode parts of the reports: the summary in the ace text, and the
// `load` object of the JSON (README.SCTP_PERF_TEST section 9 lists its fields).

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "report/load_result.hpp"

namespace sctp_perf {

void write_load_summary(std::ostream& out, const load_result& load);
nlohmann::ordered_json load_json(const load_result& load);

// A latency in microseconds, keyed as the JSON's `summary` (num_points,
// min_us, mean_us, stddev_us, max_us) and `percentiles` (p50_us ...
// p99_99_us, max_us) name them; latency_json holds both.
nlohmann::ordered_json latency_summary_json(const log_linear_histogram& latency);
nlohmann::ordered_json latency_percentiles_json(const log_linear_histogram& latency);
nlohmann::ordered_json latency_json(const log_linear_histogram& latency);

}  // namespace sctp_perf
