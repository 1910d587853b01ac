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

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "compare/comparison.hpp"

namespace sctp_perf::compare {

// Input that cannot be compared: a path, a report or two sides. what() is
// one sentence naming the file or the side. The program exits 2 on it.
class input_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// What one report holds for a comparison.
struct report_runs {
    std::string source;  // its path, for messages
    run_config config;
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

// The whole text of a file. Throws input_error.
std::string read_whole_file(const std::string& path);

// The report files `path` names: `path` itself when it is a file, the
// *.json files directly inside it, by name, when it is a directory. Throws
// input_error when it is neither, cannot be read, or is a directory without
// a *.json file.
std::vector<std::string> report_files_in(const std::string& path);

// Reads and parses one report file. Throws input_error.
report_runs read_report_file(const std::string& path);

// One side from its reports, which must share one configuration (a side
// mixing two would compare neither). `name` is 'A' or 'B'. Throws
// input_error naming two reports that differ, or when there is none.
side_runs gather_side(char name, const std::vector<std::string>& paths,
                      const std::vector<report_runs>& reports);

// Every report in `paths`, read and gathered into one side.
side_runs read_side(char name, const std::vector<std::string>& paths);

}  // namespace sctp_perf::compare
