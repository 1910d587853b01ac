// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything sctp-perf-compare is configured by, and how its command line is
// read: the A side's and the B side's reports, the noise threshold, the
// gate, and the outputs; or the reports or logs to merge and where to.

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/comparison.hpp"
#include "options/common_options.hpp"

namespace sctp_perf::compare {

enum class output_format { text, json };

// What the program is asked to do: compare two sides (--a, --b), merge the
// reports of clients that ran at once on several hosts (--merge), or merge
// their HdrHistogram interval logs (--merge-logs).
enum class compare_action { compare, merge_reports, merge_logs };

struct compare_options {
    compare_action action = compare_action::compare;
    std::vector<std::string> merge_paths;  // --merge reports or --merge-logs logs, 2 or more
    std::string output_file;               // -o: the merged report or log; empty: none
    std::vector<std::string> a_paths;      // report files or directories of *.json
    std::vector<std::string> b_paths;
    double threshold_fraction = 0.05;
    std::vector<gate_rule> fail_if_slower;  // empty: no gate
    bool allow_different = false;           // compare sides that measure different things
    bool allow_apart = false;               // --merge reports measured at different times
    output_format format = output_format::text;
    std::string plot_file;  // empty: no plot
};

// The program's name and summary, for --help, --version and messages.
const program_info& compare_program();

// A percentage as the options take it: "5%", "5" or "2.5%" (the % sign is
// optional, and the number is always percent). The fraction (0.05 for
// "5%"), or nullopt when the text is not a non-negative number.
std::optional<double> read_percent(std::string_view text);

// A compared percentile as the user names it: p50, p90, p99, p99.9 (or
// p99_9), max.
std::optional<compared_percentile> read_percentile_name(std::string_view text);

// The rules of --fail-if-slower, e.g. "p99:5%,p50:3%"; a percentile without
// ":PERCENT" takes `default_threshold_fraction` (--threshold). Appends one
// sentence per unreadable or repeated item to `errors`.
std::vector<gate_rule> read_gate_rules(std::string_view text, double default_threshold_fraction,
                                       std::vector<std::string>& errors);

// Parses and validates the command line. Returns nullopt when --help or
// --version was answered on `out`. Throws usage_error naming every broken
// rule.
std::optional<compare_options> parse_compare_options(int argc, const char* const* argv,
                                                     std::ostream& out);

}  // namespace sctp_perf::compare
