// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading the clients' JSON reports (--format json, format version 2) into
// the runs of a side. A plain report is one run. A report with a "runs"
// array (a client run with --repeat) is one run per element, each element
// with its own "percentiles" object; its top-level figures and "aggregate"
// are summaries of those runs and are not read.
//
// A report is refused, with one sentence naming the file and why, when it
// is not JSON, not an sctp-perf client's report, in an older format, the
// report of a failed run ("error"), of an interrupted run, or lacks a
// compared percentile: a comparison resting on such a file would mislead.
// So is a report at odds with itself: a number that no run can give (a
// time below 1 ns or above 2^64 ns; 1e308 is JSON), a text where a number
// belongs, percentiles that fall before the maximum, or percentiles that its
// own hdr_histogram does not give. Each such sentence names the key.
//
// Each report counts once: the same report (by content, whatever its
// name) given twice, on one side or on both, is refused, since counting it
// twice would make one run look like two that agree.

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "compare/comparison.hpp"
#include "compare/report_inputs.hpp"
#include "compare/report_json.hpp"

namespace sctp_perf::compare {

// What one report holds for a comparison.
struct report_runs {
    std::string source;   // its path, for messages
    std::string content;  // the whole document as one canonical text
    run_config config;
    run_settings settings;
    std::vector<percentile_values_us> runs;
};

// Parses one report's text; `source` names it in every message. Throws
// input_error.
report_runs parse_report(std::string_view text, const std::string& source);

// The document of a finished client run's report, in a format this program
// reads: what parse_report checks before it reads the percentiles. Throws
// input_error.
nlohmann::json checked_report(std::string_view text, const std::string& source);

// A report's configuration, as compared. Throws input_error.
run_config config_of(const nlohmann::json& doc, const std::string& source);

// The settings a report states (config.spin, server.spin,
// config.poll_before_sleep_us, server.poll_before_sleep_us, config.timestamps
// (off where a report does not say: it predates them), sctp.streams_used,
// sctp.unordered, load.arrivals, config.rate_per_s, config.flows,
// config.batch). Throws input_error for one of the wrong type.
run_settings settings_of(const nlohmann::json& doc, const std::string& source);

// Reads and parses one report file. Throws input_error.
report_runs read_report_file(const std::string& path);

// One side from its reports, which must share one configuration and every
// setting (a side mixing two would compare neither). `name` is 'A' or 'B'.
// Throws input_error naming each report that differs from what most of the
// side's reports hold, and how, or when there is none.
side_runs gather_side(char name, const std::vector<std::string>& paths,
                      const std::vector<report_runs>& reports);

// Every report in `paths` (files, or directories of *.json), read, in order.
std::vector<report_runs> read_reports(const std::vector<std::string>& paths);

// Refuses a report that comes twice: within side A, within side B, or on
// both sides. Throws input_error naming both paths.
void refuse_repeated_reports(const std::vector<report_runs>& a, const std::vector<report_runs>& b);

}  // namespace sctp_perf::compare
