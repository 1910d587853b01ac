// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

#include "report/json_numbers.hpp"
#include "version.hpp"

namespace sctp_perf::compare {
namespace {

using json = nlohmann::ordered_json;

// "5" for 0.05, "2.5" for 0.025: a fraction as the user wrote its percent.
std::string percent_text(double fraction) {
    return fmt::format("{:g}", fraction * 100.0);
}

// Where a side's runs came from: its paths as given, the first few of many.
std::string describe_source(const side_runs& side) {
    constexpr std::size_t shown = 3;
    std::string paths;
    for (std::size_t i = 0; i < side.paths.size() && i < shown; ++i) {
        paths += (i == 0 ? "" : ", ") + side.paths[i];
    }
    if (side.paths.size() > shown) {
        paths += fmt::format(" and {} more", side.paths.size() - shown);
    }
    const auto reports = side.files.size();
    return fmt::format("{} run{} from {} ({} report{})", side.runs.size(),
                       side.runs.size() == 1 ? "" : "s", paths, reports, reports == 1 ? "" : "s");
}

std::string p_value_text(double p_value) {
    return p_value < 1e-4 ? std::string("<0.0001") : fmt::format("{:.2g}", p_value);
}

std::string verdict_text(verdict v) {
    return v == verdict::no_difference ? "no difference beyond the noise threshold"
                                       : std::string(name_of(v));
}

void write_gate(std::ostream& out, const comparison_result& result) {
    if (result.gate_rules.empty()) {
        return;
    }
    const bool failed = result.exit_status == exit_slower;
    out << '\n'
        << (failed ? fmt::format("gate --fail-if-slower: FAILED (exit {})", exit_slower)
                   : std::string("gate --fail-if-slower: passed"))
        << '\n';
    for (const auto& outcome : result.gate) {
        const double limit = 1.0 + outcome.rule.threshold_fraction;
        out << fmt::format(
                   "  {} slower by over {} %: {}, B/A's interval [{:.3f}, {:.3f}] {} {:.3f}",
                   label_of(outcome.rule.percentile), percent_text(outcome.rule.threshold_fraction),
                   outcome.failed ? "yes" : "no", outcome.ratio.low, outcome.ratio.high,
                   outcome.failed ? "lies above" : "reaches", limit)
            << '\n';
    }
}

json config_json(const run_config& config) {
    return {{"service", config.service},
            {"transport", config.transport},
            {"mode", config.mode},
            {"payload_bytes", config.payload_bytes},
            {"reply_bytes", config.reply_bytes},
            {"nagle", config.nagle}};
}

json side_json(const side_runs& side) {
    return {{"paths", side.paths},
            {"files", side.files},
            {"runs", side.runs.size()},
            {"config", config_json(side.config)}};
}

json figures_json(const side_figures& figures) {
    const auto& interval = figures.median_interval_us;
    return {{"median_us", figures.median_us},
            {"median_interval",
             {{"low_us", interval.low},
              {"high_us", interval.high},
              {"low_rank", interval.low_rank},
              {"high_rank", interval.high_rank},
              {"coverage_percent", interval.coverage * 100.0}}},
            {"runs_us", figures.runs_us}};
}

}  // namespace

void write_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                 const std::vector<align>& aligns) {
    std::vector<std::size_t> widths(aligns.size(), 0);
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            widths[i] = std::max(widths[i], row[i].size());
        }
    }
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += i == 0 ? "" : "  ";
            if (i + 1 == row.size()) {
                line += row[i];
            } else if (aligns[i] == align::left) {
                line += fmt::format("{:<{}}", row[i], widths[i]);
            } else {
                line += fmt::format("{:>{}}", row[i], widths[i]);
            }
        }
        out << line << '\n';
    }
}

void write_text_comparison(std::ostream& out, const comparison_result& result) {
    out << "A: " << describe_source(result.a) << ": " << describe_config(result.a.config) << '\n';
    out << "B: " << describe_source(result.b) << ": " << describe_config(result.b.config) << '\n';
    if (!result.differences.empty()) {
        out << fmt::format("differences, compared all the same (--allow-different): {}\n",
                           fmt::join(result.differences, "; "));
    }
    for (const auto& warning : result.warnings) {
        out << "warning: " << warning << '\n';
    }
    out << '\n';

    const auto confidence = percent_text(result.settings.bootstrap.confidence);
    const auto threshold = percent_text(result.settings.threshold_fraction);
    std::vector<std::vector<std::string>> rows{{"percentile", "A median us", "B median us", "B/A",
                                                confidence + " % interval of B/A", "U test p", "",
                                                "verdict for B"}};
    for (const auto& row : result.rows) {
        rows.push_back(
            {std::string(label_of(row.percentile)), fmt::format("{:.3f}", row.a.median_us),
             fmt::format("{:.3f}", row.b.median_us), fmt::format("{:.3f}", row.ratio.ratio),
             fmt::format("[{:.3f}, {:.3f}]", row.ratio.low, row.ratio.high),
             p_value_text(row.test.p_value),
             row.test.method == u_test_method::exact ? "exact" : "normal",
             verdict_text(row.result)});
    }
    write_table(out, rows,
                {align::left, align::right, align::right, align::right, align::right, align::right,
                 align::left, align::left});
    const auto& bootstrap = result.settings.bootstrap;
    out << '\n'
        << fmt::format(
               "Medians over the runs. B/A: the ratio of the medians, with its {} % interval\n"
               "from a percentile bootstrap ({} resamples of each side's runs, seed\n"
               "{:#x}). A verdict needs the whole interval above {:.3f}\n"
               "(slower) or below {:.3f} (faster): a {} % threshold. U test p: two-sided\n"
               "Mann-Whitney U over the run values, exact without ties and under 50 runs\n"
               "a side, else the normal approximation with tie and continuity corrections.\n",
               confidence, bootstrap.resamples, bootstrap.seed,
               1.0 + result.settings.threshold_fraction, 1.0 - result.settings.threshold_fraction,
               threshold);
    write_gate(out, result);
}

void write_json_comparison(std::ostream& out, const comparison_result& result) {
    const auto& bootstrap = result.settings.bootstrap;
    json doc = {
        {"tool", "sctp-perf"},
        {"tool_version", version_string},
        {"format_version", comparison_format_version},
        {"program", "sctp-perf-compare"},
        {"a", side_json(result.a)},
        {"b", side_json(result.b)},
        {"differences", result.differences},
        {"threshold_percent", result.settings.threshold_fraction * 100.0},
        {"method",
         {{"confidence_percent", bootstrap.confidence * 100.0},
          {"median", "median over the runs"},
          {"median_interval", "order statistics, binomial (distribution-free)"},
          {"ratio_interval",
           "percentile bootstrap of median(B) / median(A), resampling runs within each side"},
          {"resamples", bootstrap.resamples},
          {"seed", bootstrap.seed},
          {"test", "Mann-Whitney U, two-sided"}}},
    };
    json rows = json::array();
    for (const auto& row : result.rows) {
        rows.push_back({
            {"percentile", std::string(label_of(row.percentile))},
            {"a", figures_json(row.a)},
            {"b", figures_json(row.b)},
            {"ratio", row.ratio.ratio},
            {"ratio_low", row.ratio.low},
            {"ratio_high", row.ratio.high},
            {"u", row.test.u_a},
            {"p_value", row.test.p_value},
            {"p_method", row.test.method == u_test_method::exact ? "exact" : "normal"},
            {"verdict", std::string(name_of(row.result))},
        });
    }
    doc["percentiles"] = rows;
    if (result.gate_rules.empty()) {
        doc["gate"] = nullptr;
    } else {
        json outcomes = json::array();
        for (const auto& outcome : result.gate) {
            outcomes.push_back({{"percentile", std::string(label_of(outcome.rule.percentile))},
                                {"threshold_percent", outcome.rule.threshold_fraction * 100.0},
                                {"failed", outcome.failed}});
        }
        doc["gate"] = {{"failed", result.exit_status == exit_slower}, {"rules", outcomes}};
    }
    doc["warnings"] = result.warnings;
    doc["exit_code"] = result.exit_status;
    round_json_floats(doc);
    out << doc.dump(2) << '\n';
}

}  // namespace sctp_perf::compare
