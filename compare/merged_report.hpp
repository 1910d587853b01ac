// SPDX-License-Identifier: Apache-2.0
#pragma once
// The merged report of several clients' runs (sctp-perf-compare --merge):
// one writer per format, each writing to any std::ostream.

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "compare/merge_reports.hpp"

namespace sctp_perf::compare {

// The merged JSON report (README.SCTP_PERF_TEST, "Merging runs from several
// client hosts", lists its members): "hosts", a row per client report, then
// "summary", "percentiles" and "hdr_histogram" of the merged latency, keyed
// as a client's report keys them, and in load modes "load" with the summed
// counts and both merged latencies.
nlohmann::ordered_json merged_report_json(const merged_run& merged);
void write_json_merged(std::ostream& out, const merged_run& merged);

// A row per host and the merged row, times in microseconds, then the
// merged counts and rates.
void write_text_merged(std::ostream& out, const merged_run& merged);

}  // namespace sctp_perf::compare
