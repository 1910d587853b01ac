// SPDX-License-Identifier: Apache-2.0
#include "compare/comparison.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "report/run_notes.hpp"
#include "stats/latency_recorder.hpp"

namespace sctp_perf::compare {

namespace {

// The compared percentiles other than the maximum are reported percentiles
// (p50 ... p99.9, in that order): their labels and keys are the reports'
// own. The maximum is the largest sample and has no point of its own.
static_assert(
    std::string_view(reported_percentiles[static_cast<std::size_t>(compared_percentile::p99_9)]
                         .label) == "p99.9" &&
    std::string_view(
        reported_percentiles[static_cast<std::size_t>(compared_percentile::p50)].label) == "p50");

const percentile_point* point_of(compared_percentile percentile) {
    if (percentile == compared_percentile::max) {
        return nullptr;
    }
    return &reported_percentiles[static_cast<std::size_t>(percentile)];
}

}  // namespace

std::string_view label_of(compared_percentile percentile) {
    const auto* point = point_of(percentile);
    return point != nullptr ? std::string_view(point->label) : "max";
}

std::string report_key_of(compared_percentile percentile) {
    const auto* point = point_of(percentile);
    return point != nullptr ? percentile_json_key(*point) : "max_us";
}

double spectrum_position(compared_percentile percentile) {
    const auto* point = point_of(percentile);
    if (point == nullptr) {
        return 10000.0;
    }
    return 1e6 / (1e6 - point->parts_per_million);
}

std::vector<std::string> config_differences(const run_config& a, const run_config& b,
                                            std::string_view a_name, std::string_view b_name) {
    std::vector<std::string> differences;
    if (a.transport != b.transport) {
        differences.push_back(
            fmt::format("{} is {}, {} is {}", a_name, a.transport, b_name, b.transport));
    }
    if (a.service != b.service) {
        differences.push_back(
            fmt::format("{} uses {} sockets, {} {} sockets", a_name, a.service, b_name, b.service));
    }
    if (a.mode != b.mode) {
        differences.push_back(
            fmt::format("{} runs {}, {} runs {}", a_name, a.mode, b_name, b.mode));
    }
    if (a.payload_bytes != b.payload_bytes) {
        differences.push_back(fmt::format("{} sends {}-byte requests, {} {}-byte requests", a_name,
                                          a.payload_bytes, b_name, b.payload_bytes));
    }
    if (a.reply_bytes != b.reply_bytes) {
        differences.push_back(fmt::format("{} gets {}-byte replies, {} {}-byte replies", a_name,
                                          a.reply_bytes, b_name, b.reply_bytes));
    }
    return differences;
}

std::string describe_config(const run_config& config) {
    return fmt::format("{} {}, {}, {}-byte requests, {}-byte replies, Nagle {}", config.transport,
                       config.service, config.mode, config.payload_bytes, config.reply_bytes,
                       config.nagle ? "on" : "off");
}

std::vector<double> values_of(const side_runs& side, compared_percentile percentile) {
    const auto index = static_cast<std::size_t>(percentile);
    std::vector<double> values;
    values.reserve(side.runs.size());
    for (const auto& run : side.runs) {
        values.push_back(run[index]);
    }
    return values;
}

std::string_view name_of(verdict v) {
    switch (v) {
        case verdict::faster:
            return "faster";
        case verdict::slower:
            return "slower";
        case verdict::no_difference:
            break;
    }
    return "no difference";
}

verdict judge(const ratio_interval& ratio, double threshold_fraction) {
    if (ratio.low > 1.0 + threshold_fraction) {
        return verdict::slower;
    }
    if (ratio.high < 1.0 - threshold_fraction) {
        return verdict::faster;
    }
    return verdict::no_difference;
}

namespace {

side_figures figures_of(std::vector<double> runs_us, double confidence) {
    side_figures figures;
    figures.median_us = median(runs_us);
    figures.median_interval_us = median_confidence_interval(runs_us, confidence);
    figures.runs_us = std::move(runs_us);
    return figures;
}

}  // namespace

std::vector<percentile_comparison> compare_sides(const side_runs& a, const side_runs& b,
                                                 const compare_settings& settings) {
    std::vector<percentile_comparison> rows;
    for (const auto percentile : all_compared_percentiles) {
        percentile_comparison row;
        row.percentile = percentile;
        row.a = figures_of(values_of(a, percentile), settings.bootstrap.confidence);
        row.b = figures_of(values_of(b, percentile), settings.bootstrap.confidence);
        // Each percentile draws its own resamples from the same seed, so a
        // row's interval does not depend on which rows came before it.
        row.ratio = bootstrap_median_ratio(row.a.runs_us, row.b.runs_us, settings.bootstrap);
        row.test = mann_whitney_u(row.a.runs_us, row.b.runs_us);
        row.result = judge(row.ratio, settings.threshold_fraction);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<gate_outcome> apply_gate(std::span<const percentile_comparison> rows,
                                     std::span<const gate_rule> rules) {
    std::vector<gate_outcome> outcomes;
    for (const auto& rule : rules) {
        const auto row = std::find_if(rows.begin(), rows.end(), [&](const auto& r) {
            return r.percentile == rule.percentile;
        });
        if (row == rows.end()) {
            continue;
        }
        outcomes.push_back(
            {rule, row->ratio, judge(row->ratio, rule.threshold_fraction) == verdict::slower});
    }
    return outcomes;
}

int gate_exit_status(std::span<const gate_outcome> outcomes) {
    const bool failed =
        std::any_of(outcomes.begin(), outcomes.end(), [](const auto& o) { return o.failed; });
    return failed ? exit_slower : 0;
}

std::vector<std::string> run_count_warnings(const side_runs& a, const side_runs& b) {
    std::vector<std::string> warnings;
    for (const auto* side : {&a, &b}) {
        const auto runs = side->runs.size();
        if (runs < recommended_runs) {
            warnings.push_back(fmt::format(
                "{} has only {} run{}: with fewer than {} runs a side's intervals are wide and "
                "the U test means little; run the client {} or more times",
                side == &a ? 'A' : 'B', runs, runs == 1 ? "" : "s", recommended_runs,
                recommended_runs));
        }
    }
    return warnings;
}

std::string different_sides_sentence(std::span<const std::string> differences) {
    return fmt::format(
        "A and B measure different things ({}); compare them all the same with "
        "--allow-different",
        fmt::join(differences, "; "));
}

comparison_result compare_runs(side_runs a, side_runs b, const compare_settings& settings,
                               std::vector<gate_rule> gate_rules) {
    comparison_result result;
    result.differences = config_differences(a.config, b.config);
    result.settings = settings;
    result.rows = compare_sides(a, b, settings);
    result.gate = apply_gate(result.rows, gate_rules);
    result.gate_rules = std::move(gate_rules);
    result.warnings = run_count_warnings(a, b);
    result.exit_status = gate_exit_status(result.gate);
    result.a = std::move(a);
    result.b = std::move(b);
    return result;
}

}  // namespace sctp_perf::compare
