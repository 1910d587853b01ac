// SPDX-License-Identifier: Apache-2.0
#include "compare/report_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "report/client_report.hpp"

namespace sctp_perf::compare {
// The compared percentiles are those every run states.
static_assert(compared_percentile_count == always_stated_percentiles + 1);

report_runs parse_report(std::string_view text, const std::string& source) {
    auto read = read_client_report(text, source);
    report_runs report;
    report.source = source;
    report.content = std::move(read.content);
    report.config = read.config;
    report.settings = read.settings;
    for (const auto& stated : read.runs) {
        percentile_values_us values{};
        for (const auto percentile : all_compared_percentiles) {
            const auto key = report_key_of(percentile);
            const auto it = std::find_if(stated.begin(), stated.end(),
                                         [&](const auto& s) { return s.key == key; });
            // read_client_report refuses a run without one of them.
            values[static_cast<std::size_t>(percentile)] = it->us;
        }
        report.runs.push_back(values);
    }
    return report;
}

report_runs read_report_file(const std::string& path) {
    return parse_report(read_whole_file(path), path);
}

namespace {

bool same_setup(const report_runs& a, const report_runs& b) {
    return a.config == b.config && a.settings == b.settings;
}

}  // namespace

side_runs gather_side(char name, const std::vector<std::string>& paths,
                      const std::vector<report_runs>& reports) {
    if (reports.empty()) {
        throw input_error(fmt::format("the {} side has no report", name));
    }
    // What most of the side's reports hold is the side's; each other report
    // is named with how it differs, so that the odd one out is the one named
    // (on a tie, the first report's is the side's).
    std::size_t reference = 0;
    std::ptrdiff_t most = 0;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const auto alike = std::count_if(reports.begin(), reports.end(),
                                         [&](const auto& r) { return same_setup(r, reports[i]); });
        if (alike > most) {
            most = alike;
            reference = i;
        }
    }
    const auto& usual = reports[reference];
    std::vector<std::string> differences;
    for (const auto& report : reports) {
        auto own = config_differences(usual.config, report.config, usual.source, report.source);
        const auto settings = setting_differences(usual.config, usual.settings, report.config,
                                                  report.settings, usual.source, report.source);
        own.insert(own.end(), settings.begin(), settings.end());
        differences.insert(differences.end(), own.begin(), own.end());
    }
    if (!differences.empty()) {
        throw input_error(fmt::format(
            "the {} side mixes configurations, so its runs measure different things: {}{}", name,
            fmt::join(differences, "; "),
            most > 1 ? fmt::format(" ({} of its {} reports are as {})", most, reports.size(),
                                   usual.source)
                     : std::string()));
    }
    side_runs side;
    side.paths = paths;
    side.config = usual.config;
    side.settings = usual.settings;
    for (const auto& report : reports) {
        side.files.push_back(report.source);
        side.runs.insert(side.runs.end(), report.runs.begin(), report.runs.end());
    }
    return side;
}

std::vector<report_runs> read_reports(const std::vector<std::string>& paths) {
    std::vector<report_runs> reports;
    for (const auto& path : paths) {
        for (const auto& file : report_files_in(path)) {
            reports.push_back(read_report_file(file));
        }
    }
    return reports;
}

void refuse_repeated_reports(const std::vector<report_runs>& a, const std::vector<report_runs>& b) {
    std::vector<std::string_view> contents;
    for (const auto* side : {&a, &b}) {
        for (const auto& report : *side) {
            contents.push_back(report.content);
        }
    }
    const auto repeated = find_repeated_input(contents);
    if (!repeated) {
        return;
    }
    const auto& first =
        repeated->first < a.size() ? a[repeated->first] : b[repeated->first - a.size()];
    const auto& again =
        repeated->again < a.size() ? a[repeated->again] : b[repeated->again - a.size()];
    if (repeated->first < a.size() && repeated->again >= a.size()) {
        std::error_code error;
        const bool one_file = first.source == again.source ||
                              std::filesystem::equivalent(first.source, again.source, error);
        throw input_error(fmt::format(
            "{}: a report on both sides compares its runs with themselves; give it to one side",
            one_file && first.source == again.source
                ? fmt::format("{} is on both sides", first.source)
                : fmt::format("{} (on the A side) and {} (on the B side) are {}", first.source,
                              again.source, one_file ? "one file" : "the same report")));
    }
    throw input_error(fmt::format("the {} side: {}", repeated->again < a.size() ? 'A' : 'B',
                                  repeated_input_sentence(first.source, again.source, "report")));
}

}  // namespace sctp_perf::compare
