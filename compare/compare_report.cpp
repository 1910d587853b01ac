// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

#include "report/json_numbers.hpp"
#include "version.hpp"

namespace sctp_perf::compare {
namespace {

using ordered_json = nlohmann::ordered_json;

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

// A figure for the table: fixed, with `decimals` places, while that stays
// short; otherwise six significant digits with an exponent, so that no
// figure widens a column beyond a dozen characters (a report may hold times
// up to 2^64 ns, 1.8e13 us). Never "inf" or "nan": a figure that is not
// finite is shown as "-".
std::string figure_text(double value, int decimals = 3) {
    if (!std::isfinite(value)) {
        return "-";
    }
    const double size = std::abs(value);
    if (size >= 1e9 || (size != 0.0 && size < std::pow(10.0, -decimals))) {
        return fmt::format("{:.6g}", value);
    }
    return fmt::format("{:.{}f}", value, decimals);
}

std::size_t fewest_runs(const comparison_result& result) {
    return std::min(result.a.runs.size(), result.b.runs.size());
}

std::string p_value_text(double p_value) {
    return p_value < 1e-4 ? std::string("<0.0001") : fmt::format("{:.2g}", p_value);
}

std::string verdict_text(verdict v, const comparison_result& result) {
    switch (v) {
        case verdict::no_difference:
            return "no difference beyond the noise threshold";
        case verdict::too_few_runs:
            return too_few_runs_sentence(fewest_runs(result), result.least_runs);
        case verdict::faster:
        case verdict::slower:
            break;
    }
    return std::string(name_of(v));
}

// "<0.864 or >1.167": the ratios beyond which this comparison could have
// given a verdict.
std::string could_call_text(const std::optional<comparison_power>& power) {
    if (!power || !std::isfinite(power->faster_ratio) || !std::isfinite(power->slower_ratio)) {
        return "-";
    }
    return fmt::format("<{} or >{}", figure_text(power->faster_ratio),
                       figure_text(power->slower_ratio));
}

std::string runs_needed_text(const std::optional<comparison_power>& power) {
    return power && power->runs_per_side ? fmt::format("{}", *power->runs_per_side) : "-";
}

std::string gate_headline(const comparison_result& result) {
    switch (result.exit_status) {
        case exit_slower:
            return fmt::format("gate --fail-if-slower: FAILED (exit {})", exit_slower);
        case exit_too_few_runs:
            return fmt::format("gate --fail-if-slower: NOT DECIDED (exit {}): {}",
                               exit_too_few_runs,
                               too_few_runs_sentence(fewest_runs(result), result.least_runs));
        default:
            return "gate --fail-if-slower: passed";
    }
}

void write_gate(std::ostream& out, const comparison_result& result) {
    if (result.gate_rules.empty()) {
        return;
    }
    out << '\n' << gate_headline(result) << '\n';
    for (const auto& outcome : result.gate) {
        const auto threshold = percent_text(outcome.rule.threshold_fraction);
        const auto label = label_of(outcome.rule.percentile);
        if (!outcome.decided) {
            out << fmt::format("  {} slower by over {} %: not decided, too few runs\n", label,
                               threshold);
            continue;
        }
        const double limit = 1.0 + outcome.rule.threshold_fraction;
        out << fmt::format("  {} slower by over {} %: {}, B/A's interval [{}, {}] {} {:.3f}", label,
                           threshold, outcome.failed ? "yes" : "no", figure_text(outcome.ratio.low),
                           figure_text(outcome.ratio.high),
                           outcome.failed ? "lies above" : "does not lie above", limit);
        // What a pass is worth: the smallest slowdown this gate could see.
        if (!outcome.failed && outcome.power) {
            out << fmt::format("; it could see B/A above {} only",
                               figure_text(outcome.power->slower_ratio));
            if (outcome.power->runs_per_side) {
                out << fmt::format(", about {} runs a side would resolve {} %",
                                   *outcome.power->runs_per_side, threshold);
            }
        }
        out << '\n';
    }
}

ordered_json config_json(const run_config& config) {
    return {{"service", config.service},
            {"transport", config.transport},
            {"mode", config.mode},
            {"payload_bytes", config.payload_bytes},
            {"reply_bytes", config.reply_bytes},
            {"nagle", config.nagle}};
}

template <typename T>
ordered_json optional_json(const std::optional<T>& value) {
    return value ? ordered_json(*value) : ordered_json(nullptr);
}

ordered_json settings_json(const run_settings& settings) {
    return {{"spin", optional_json(settings.spin)},
            {"server_spin", optional_json(settings.server_spin)},
            {"poll_before_sleep_us", optional_json(settings.poll_before_sleep_us)},
            {"server_poll_before_sleep_us", optional_json(settings.server_poll_before_sleep_us)},
            {"timestamps", optional_json(settings.timestamps)},
            {"flows", optional_json(settings.flows)},
            {"rate_per_s", optional_json(settings.rate_per_s)},
            {"arrivals", optional_json(settings.arrivals)},
            {"batch", optional_json(settings.batch)},
            {"streams", optional_json(settings.streams)},
            {"unordered", optional_json(settings.unordered)}};
}

ordered_json side_json(const side_runs& side) {
    return {{"paths", side.paths},
            {"files", side.files},
            {"runs", side.runs.size()},
            {"config", config_json(side.config)},
            {"settings", settings_json(side.settings)}};
}

ordered_json power_json(const std::optional<comparison_power>& power) {
    if (!power) {
        return nullptr;
    }
    return {{"slower_ratio", power->slower_ratio},
            {"faster_ratio", power->faster_ratio},
            {"runs_per_side_for_threshold", optional_json(power->runs_per_side)}};
}

ordered_json figures_json(const side_figures& figures) {
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
    for (const auto* side : {&result.a, &result.b}) {
        out << (side == &result.a ? "A: " : "B: ") << describe_source(*side) << ": "
            << describe_config(side->config) << describe_settings(side->settings) << '\n';
    }
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
    std::vector<std::vector<std::string>> rows{
        {"percentile", "A median us", "B median us", "B/A", confidence + " % interval of B/A",
         "U test p", "", "could call B/A", fmt::format("runs for {} %", threshold),
         "verdict for B"}};
    for (const auto& row : result.rows) {
        rows.push_back(
            {std::string(label_of(row.percentile)), figure_text(row.a.median_us),
             figure_text(row.b.median_us), figure_text(row.ratio.ratio),
             fmt::format("[{}, {}]", figure_text(row.ratio.low), figure_text(row.ratio.high)),
             p_value_text(row.test.p_value),
             row.test.method == u_test_method::exact ? "exact" : "normal",
             could_call_text(row.power), runs_needed_text(row.power),
             verdict_text(row.result, result)});
    }
    write_table(out, rows,
                {align::left, align::right, align::right, align::right, align::right, align::right,
                 align::left, align::right, align::right, align::left});
    const auto& bootstrap = result.settings.bootstrap;
    out << '\n'
        << fmt::format(
               "Medians over the runs. B/A: the ratio of the medians, with its {} % interval\n"
               "from a percentile bootstrap ({} resamples of each side's runs, seed\n"
               "{:#x}). A verdict needs {} runs a side or more and the\n"
               "whole interval above {:.3f} (slower) or below {:.3f} (faster): a {} %\n"
               "threshold. could call B/A: at the spread these runs showed, only a B/A\n"
               "beyond these would have got a verdict; runs for {} %: about how many runs\n"
               "a side would narrow the interval to {} % each way, enough to call twice\n"
               "the threshold. U test p: two-sided Mann-Whitney U over the run values,\n"
               "exact without ties and under 50 runs a side, else the normal\n"
               "approximation with tie and continuity corrections; it takes no part in\n"
               "the verdict.\n",
               confidence, bootstrap.resamples, bootstrap.seed, result.least_runs,
               1.0 + result.settings.threshold_fraction, 1.0 - result.settings.threshold_fraction,
               threshold, threshold, threshold);
    write_gate(out, result);
}

void write_json_comparison(std::ostream& out, const comparison_result& result) {
    const auto& bootstrap = result.settings.bootstrap;
    ordered_json doc = {
        {"tool", "sctp-perf"},
        {"tool_version", version_string},
        {"format_version", comparison_format_version},
        {"program", "sctp-perf-compare"},
        {"a", side_json(result.a)},
        {"b", side_json(result.b)},
        {"differences", result.differences},
        {"threshold_percent", result.settings.threshold_fraction * 100.0},
        {"least_runs_per_side", result.least_runs},
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
    ordered_json rows = ordered_json::array();
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
            {"power", power_json(row.power)},
        });
    }
    doc["percentiles"] = rows;
    if (result.gate_rules.empty()) {
        doc["gate"] = nullptr;
    } else {
        ordered_json outcomes = ordered_json::array();
        for (const auto& outcome : result.gate) {
            outcomes.push_back({{"percentile", std::string(label_of(outcome.rule.percentile))},
                                {"threshold_percent", outcome.rule.threshold_fraction * 100.0},
                                {"decided", outcome.decided},
                                {"failed", outcome.failed},
                                {"power", power_json(outcome.power)}});
        }
        doc["gate"] = {{"failed", result.exit_status == exit_slower},
                       {"decided", result.exit_status != exit_too_few_runs},
                       {"rules", outcomes}};
    }
    doc["warnings"] = result.warnings;
    doc["exit_code"] = result.exit_status;
    round_json_floats(doc);
    out << doc.dump(2) << '\n';
}

}  // namespace sctp_perf::compare
