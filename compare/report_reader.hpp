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

namespace sctp_perf::compare {

// Input that cannot be compared: a path, a report or two sides. what() is
// one sentence naming the file or the side. The program exits 2 on it.
class input_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// What a number of a report may be, for the sentence that refuses one that
// is not: from `least` to `most`, a `noun` in `unit` ("time", " us").
struct number_range {
    double least = 0.0;
    double most = 0.0;
    std::string_view noun;
    std::string_view unit;
};

// A time in microseconds: the clients time whole nanoseconds, so nothing
// below 1 ns, and count them in 64 bits, so nothing above 2^64 ns (about
// 213 days).
inline constexpr number_range time_us_range{0.001, 18446744073709.551616, "time", " us"};

// `value`, the member `key` of a report (`what`: "x.json", "run 3 of
// x.json"), as a number within `range`. Throws input_error naming both when
// it is missing, not a number, or out of range.
double checked_number(const nlohmann::json* value, std::string_view key, const std::string& what,
                      const number_range& range);

// As checked_number, but a missing or null member is nullopt.
std::optional<double> optional_number(const nlohmann::json* value, std::string_view key,
                                      const std::string& what, const number_range& range);

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

// A report's text as JSON. Throws input_error naming the file, where it
// stops being JSON (the byte and the key) or which key holds a number
// beyond a double's range (1e400).
nlohmann::json parse_report_json(std::string_view text, const std::string& source);

// The document of a finished client run's report, in a format this program
// reads: what parse_report checks before it reads the percentiles. Throws
// input_error.
nlohmann::json checked_report(std::string_view text, const std::string& source);

// A report's configuration, as compared. Throws input_error.
run_config config_of(const nlohmann::json& doc, const std::string& source);

// The settings a report states (config.spin, server.spin, sctp.streams_used,
// sctp.unordered, load.arrivals, config.rate_per_s, config.flows,
// config.batch). Throws input_error for one of the wrong type.
run_settings settings_of(const nlohmann::json& doc, const std::string& source);

// The whole text of a file. Throws input_error.
std::string read_whole_file(const std::string& path);

// The report files `path` names: `path` itself when it is a file, the
// *.json files directly inside it, by name, when it is a directory. Throws
// input_error when it is neither, cannot be read, or is a directory without
// a *.json file.
std::vector<std::string> report_files_in(const std::string& path);

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

// Two inputs of one content, by index into `contents`: the first input
// whose content an earlier one has, with that earlier one; nullopt when
// each content comes once.
struct repeated_input {
    std::size_t first = 0;
    std::size_t again = 0;
};
std::optional<repeated_input> find_repeated_input(const std::vector<std::string_view>& contents);

// The sentence that refuses `first` and `again`, two paths of one content:
// one file named twice, or a copy. `kind` is "report" or "log".
std::string repeated_input_sentence(const std::string& first, const std::string& again,
                                    std::string_view kind);

// Refuses a report that comes twice: within side A, within side B, or on
// both sides. Throws input_error naming both paths.
void refuse_repeated_reports(const std::vector<report_runs>& a, const std::vector<report_runs>& b);

}  // namespace sctp_perf::compare
