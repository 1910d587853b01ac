// SPDX-License-Identifier: Apache-2.0
#pragma once
// The reports of the two sides of a comparison: each read
// (report/client_report.hpp, which says what it refuses) into its runs'
// compared percentiles, and gathered into the runs of a side. A plain report
// is one run; a report with a "runs" array (a client run with --repeat) is
// one run per element.
//
// Each report counts once: the same report (by content, whatever its
// name) given twice, on one side or on both, is refused, since counting it
// twice would make one run look like two that agree.

#include <string>
#include <string_view>
#include <vector>

#include "compare/comparison.hpp"
#include "compare/report_inputs.hpp"

namespace sctp_perf::compare {

// What one report holds for a comparison.
struct report_runs {
    std::string source;   // its path, for messages
    std::string content;  // the whole document as one canonical text
    run_config config;
    run_settings settings;
    std::vector<percentile_values_us> runs;
};

// Reads one report's text; `source` names it in every message. Throws
// input_error.
report_runs parse_report(std::string_view text, const std::string& source);

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
