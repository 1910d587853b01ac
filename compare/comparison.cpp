// SPDX-License-Identifier: Apache-2.0
#include "compare/comparison.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

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

namespace {

std::string on_off(bool on) {
    return on ? "on" : "off";
}

std::string plural(unsigned long long count, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", count, count == 1 ? one : many);
}

// Each setting as a report states it, for descriptions and differences;
// nullopt where it does not. Nagle comes first: describe_config states it.
using setting_text = std::optional<std::string> (*)(const run_config&, const run_settings&);

template <typename T, typename F>
std::optional<std::string> text_if(const std::optional<T>& value, F describe) {
    return value ? std::optional<std::string>(describe(*value)) : std::nullopt;
}

constexpr setting_text all_setting_texts[] = {
    [](const run_config& c, const run_settings&) -> std::optional<std::string> {
        return "Nagle " + on_off(c.nagle);
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.spin, [](bool on) { return "spin " + on_off(on); });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.server_spin, [](bool on) { return "server spin " + on_off(on); });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.poll_before_sleep_us,
                       [](auto us) { return fmt::format("poll before sleep {} us", us); });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.server_poll_before_sleep_us,
                       [](auto us) { return fmt::format("server poll before sleep {} us", us); });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.timestamps, [](bool on) { return "kernel timestamps " + on_off(on); });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.flows, [](auto n) { return plural(n, "flow", "flows"); });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.rate_per_s,
                       [](double rate) { return fmt::format("rate {:g}/s a flow", rate); });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.arrivals, [](const std::string& a) { return a + " arrivals"; });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.batch, [](auto n) { return fmt::format("batch {}", n); });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.streams, [](auto n) { return plural(n, "SCTP stream", "SCTP streams"); });
    },
    [](const run_config&, const run_settings& s) {
        return text_if(s.unordered, [](bool on) {
            return std::string(on ? "unordered delivery" : "ordered delivery");
        });
    },
};

}  // namespace

std::vector<std::string> setting_differences(const run_config& a_config,
                                             const run_settings& a_settings,
                                             const run_config& b_config,
                                             const run_settings& b_settings,
                                             std::string_view a_name, std::string_view b_name) {
    std::vector<std::string> differences;
    for (const auto& setting : all_setting_texts) {
        const auto a = setting(a_config, a_settings);
        const auto b = setting(b_config, b_settings);
        if (a == b) {
            continue;
        }
        // A report that does not state a setting, beside one that does.
        if (!a || !b) {
            const auto stated = a ? a_name : b_name;
            differences.push_back(fmt::format("{} has {}, {} does not say", stated, a ? *a : *b,
                                              a ? b_name : a_name));
        } else {
            differences.push_back(fmt::format("{} has {}, {} {}", a_name, *a, b_name, *b));
        }
    }
    return differences;
}

std::string describe_settings(const run_settings& settings) {
    std::string text;
    for (std::size_t i = 1; i < std::size(all_setting_texts); ++i) {
        if (const auto setting = all_setting_texts[i](run_config{}, settings)) {
            text += ", " + *setting;
        }
    }
    return text;
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

std::size_t least_runs(const compare_settings& settings) {
    return least_runs_per_side(settings.bootstrap.confidence);
}

std::string_view name_of(verdict v) {
    switch (v) {
        case verdict::faster:
            return "faster";
        case verdict::slower:
            return "slower";
        case verdict::too_few_runs:
            return "too few runs";
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

comparison_power power_of(const ratio_interval& ratio, double threshold_fraction,
                          std::size_t a_runs, std::size_t b_runs, std::size_t least) {
    comparison_power power;
    power.least_runs = least;
    power.slower_ratio = (1.0 + threshold_fraction) * ratio.ratio / ratio.low;
    power.faster_ratio = (1.0 - threshold_fraction) * ratio.ratio / ratio.high;
    if (threshold_fraction <= 0.0) {
        return power;
    }
    const double half_width =
        std::max({std::log(ratio.ratio / ratio.low), std::log(ratio.high / ratio.ratio), 0.0});
    const double target = std::log1p(threshold_fraction);
    const double spread_runs =
        2.0 / (1.0 / static_cast<double>(a_runs) + 1.0 / static_cast<double>(b_runs));
    const double runs = std::ceil(spread_runs * (half_width / target) * (half_width / target));
    // Past a billion runs the figure says only "never": keep it a count.
    constexpr double most_runs = 1e9;
    power.runs_per_side = std::max(
        least,
        static_cast<std::size_t>(std::isfinite(runs) ? std::min(runs, most_runs) : most_runs));
    return power;
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
    const auto least = least_runs(settings);
    const bool enough = a.runs.size() >= least && b.runs.size() >= least;
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
        // The interval is still shown below the least number of runs, but
        // it carries no verdict and says nothing of what could be seen.
        if (enough) {
            row.result = judge(row.ratio, settings.threshold_fraction);
            row.power = power_of(row.ratio, settings.threshold_fraction, a.runs.size(),
                                 b.runs.size(), least);
        } else {
            row.result = verdict::too_few_runs;
        }
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
        const bool decided = row->result != verdict::too_few_runs;
        auto power = row->power;
        if (power) {  // at this rule's threshold, which may not be --threshold
            power = power_of(row->ratio, rule.threshold_fraction, row->a.runs_us.size(),
                             row->b.runs_us.size(), power->least_runs);
        }
        outcomes.push_back(
            {rule, row->ratio, decided,
             decided && judge(row->ratio, rule.threshold_fraction) == verdict::slower, power});
    }
    return outcomes;
}

int gate_exit_status(std::span<const gate_outcome> outcomes) {
    // A percentile found slower is news whatever else could not be decided.
    if (std::any_of(outcomes.begin(), outcomes.end(), [](const auto& o) { return o.failed; })) {
        return exit_slower;
    }
    if (std::any_of(outcomes.begin(), outcomes.end(), [](const auto& o) { return !o.decided; })) {
        return exit_too_few_runs;
    }
    return 0;
}

std::string too_few_runs_sentence(std::size_t runs, std::size_t least) {
    return fmt::format("too few runs for a verdict (n = {}, at least {} needed)", runs, least);
}

std::vector<std::string> run_count_warnings(const side_runs& a, const side_runs& b,
                                            std::size_t least) {
    std::vector<std::string> warnings;
    for (const auto* side : {&a, &b}) {
        const auto runs = side->runs.size();
        if (runs < least) {
            warnings.push_back(fmt::format(
                "{} has only {} run{}, fewer than the {} a side needs for a verdict: no "
                "percentile gets one, and a gate ends with exit {}; run the client {} or more "
                "times",
                side == &a ? 'A' : 'B', runs, runs == 1 ? "" : "s", least, exit_too_few_runs,
                least));
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
    result.least_runs = least_runs(settings);
    result.rows = compare_sides(a, b, settings);
    result.gate = apply_gate(result.rows, gate_rules);
    result.gate_rules = std::move(gate_rules);
    result.warnings = run_count_warnings(a, b, result.least_runs);
    result.exit_status = gate_exit_status(result.gate);
    result.a = std::move(a);
    result.b = std::move(b);
    return result;
}

}  // namespace sctp_perf::compare
