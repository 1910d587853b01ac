// SPDX-License-Identifier: Apache-2.0
// The statistical tier: comparisons of synthetic reports whose truth is
// known (synthetic_reports.hpp), each taken through the path the program
// takes (parse_report, refuse_repeated_reports, gather_side, compare_runs)
// in this process, since starting the program a thousand times would take
// longer than the comparisons. It checks that
//  - from the least number of runs a side up, the 95 % intervals hold the
//    true ratio in at least 93 % of the rows;
//  - there, an A/A comparison fails the gate p99:5%,p50:3% in at most 5 %
//    of the trials;
//  - below it, no row has a verdict and the gate ends with exit 4;
//  - a true 20 % slowdown, at 10 runs a side of the "loaded" model (p50
//    moving by about 6 % from run to run), is called slower at p50 in most
//    trials (over half).
// It prints its figures and exits 1 when a check fails.
//
// Usage: sctp_perf_statistical_tier TEMPLATE [--figures]
// TEMPLATE is a client's JSON report; --figures adds, unchecked, what the
// manual quotes: coverage below the least number of runs, and each model's
// power for 10 % and 20 % slowdowns at 5, 10 and 20 runs a side.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "compare/report_reader.hpp"
#include "synthetic_reports.hpp"

namespace {

using namespace sctp_perf;
using namespace sctp_perf::compare;
using namespace sctp_perf::statistical;

// The true ratio of a trial that is not A/A: 20 %, the slowdown the power
// check asks for, also measures coverage away from 1.
constexpr double slowdown = 1.2;
constexpr std::size_t trials_per_model = 32;  // at each run count, A/A and 1.2 each
constexpr std::size_t power_runs = 10;
constexpr std::size_t power_trials = 100;
// The spread of the power check: p50 moving by about 6 % from run to run.
const char* const power_model = "loaded";
constexpr std::size_t trials_below_least = 10;  // at each count below the least

const std::vector<gate_rule> gate = {{compared_percentile::p99, 0.05},
                                     {compared_percentile::p50, 0.03}};

struct side_maker {
    const nlohmann::json& template_doc;
    std::uint64_t serial = 0;

    // `runs` reports of one side, each one run of `model` times `factor`.
    std::vector<report_runs> reports(const spread_model& model, std::size_t runs, double factor,
                                     draws& random, char side) {
        std::vector<report_runs> made;
        for (std::size_t k = 1; k <= runs; ++k) {
            const auto doc = synthetic_report(template_doc, scaled(draw_run(model, random), factor),
                                              model.name, ++serial);
            made.push_back(parse_report(doc.dump(), fmt::format("{}/run-{}.json", side, k)));
        }
        return made;
    }

    comparison_result compare(const spread_model& model, std::size_t runs, double factor,
                              draws& random) {
        const auto a = reports(model, runs, 1.0, random, 'a');
        const auto b = reports(model, runs, factor, random, 'b');
        refuse_repeated_reports(a, b);
        return compare_runs(gather_side('A', {"a"}, a), gather_side('B', {"b"}, b), {}, gate);
    }
};

struct coverage_count {
    std::size_t held = 0;
    std::size_t rows = 0;
    void add(const comparison_result& result, double truth) {
        for (const auto& row : result.rows) {
            held += row.ratio.low <= truth && truth <= row.ratio.high;
            ++rows;
        }
    }
    double share() const { return rows == 0 ? 0.0 : static_cast<double>(held) / rows; }
};

std::string percent(std::size_t part, std::size_t whole) {
    return fmt::format("{:.1f} % ({} of {})", 100.0 * static_cast<double>(part) / whole, part,
                       whole);
}

double median_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

// Whether the gate's rules, judged on the rows' intervals alone, find B
// slower: what the gate does from the least number of runs up, and what it
// would do below it without that rule.
bool interval_fails_gate(const comparison_result& result) {
    return std::any_of(gate.begin(), gate.end(), [&](const gate_rule& rule) {
        const auto& row = result.rows[static_cast<std::size_t>(rule.percentile)];
        return judge(row.ratio, rule.threshold_fraction) == verdict::slower;
    });
}

// Coverage and A/A gate failures at `runs` a side, over every model;
// `disagreements` counts comparisons whose exit status is not what their
// intervals say (from the least number of runs up, there must be none).
struct coverage_row {
    coverage_count all;
    std::size_t aa_failed = 0;
    std::size_t aa_trials = 0;
    std::size_t disagreements = 0;
    std::string by_model;
};

coverage_row coverage_at(side_maker& maker, std::size_t runs, std::size_t trials,
                         std::size_t& comparisons) {
    coverage_row row;
    for (std::size_t m = 0; m < spread_models().size(); ++m) {
        const auto& model = spread_models()[m];
        draws random(1000 * runs + m);
        coverage_count own;
        for (std::size_t t = 0; t < trials; ++t) {
            const auto aa = maker.compare(model, runs, 1.0, random);
            own.add(aa, 1.0);
            row.aa_failed += interval_fails_gate(aa);
            ++row.aa_trials;
            const auto slower = maker.compare(model, runs, slowdown, random);
            own.add(slower, slowdown);
            for (const auto* result : {&aa, &slower}) {
                row.disagreements +=
                    (result->exit_status == exit_slower) != interval_fails_gate(*result);
            }
            comparisons += 2;
        }
        row.all.held += own.held;
        row.all.rows += own.rows;
        row.by_model += fmt::format("{}{} {:.1f} %", row.by_model.empty() ? "" : ", ", model.name,
                                    100.0 * own.share());
    }
    return row;
}

void print_coverage_header() {
    fmt::print("{:>11}  {:>11}  {:<36}  {:<30}  {}\n", "runs a side", "comparisons",
               "coverage of the true ratio (rows)", "A/A failing p99:5%,p50:3%",
               "coverage by model");
}

void print_coverage_row(std::size_t runs, const coverage_row& row) {
    fmt::print("{:>11}  {:>11}  {:<36}  {:<30}  {}\n", runs, 2 * row.aa_trials,
               percent(row.all.held, row.all.rows), percent(row.aa_failed, row.aa_trials),
               row.by_model);
}

// How often a true `factor` at `runs` a side of `model` is called slower,
// at p50 and p99.
struct power_row {
    std::size_t p50 = 0;
    std::size_t p99 = 0;
    std::size_t trials = 0;
    std::vector<double> could_call;   // p50's slower_ratio
    std::vector<double> runs_needed;  // p50's runs for the threshold
};

power_row power_at(side_maker& maker, const spread_model& model, std::size_t runs, double factor,
                   std::size_t trials, std::uint64_t seed, std::size_t& comparisons) {
    power_row row;
    draws random(seed);
    for (std::size_t t = 0; t < trials; ++t) {
        const auto result = maker.compare(model, runs, factor, random);
        const auto& p50 = result.rows[static_cast<std::size_t>(compared_percentile::p50)];
        const auto& p99 = result.rows[static_cast<std::size_t>(compared_percentile::p99)];
        row.p50 += p50.result == verdict::slower;
        row.p99 += p99.result == verdict::slower;
        if (p50.power) {
            row.could_call.push_back(p50.power->slower_ratio);
            row.runs_needed.push_back(static_cast<double>(p50.power->runs_per_side.value_or(0)));
        }
        ++row.trials;
        ++comparisons;
    }
    return row;
}

// With --figures: what the manual quotes, beyond what the checks need:
// coverage and A/A failures below the least number of runs, and the power
// of each model for 10 % and 20 % slowdowns at 5, 10 and 20 runs a side.
void print_figures(side_maker& maker, std::size_t& comparisons) {
    fmt::print(
        "\nbelow the least number of runs (not checked; A/A as the intervals alone "
        "would gate it, where the program gives exit 4):\n");
    print_coverage_header();
    for (const std::size_t runs : {2, 3, 4}) {
        print_coverage_row(runs, coverage_at(maker, runs, trials_per_model, comparisons));
    }
    fmt::print("\npower, slowdowns called slower in 100 trials each, p50 / p99:\n");
    for (const auto& model : spread_models()) {
        for (const double factor : {1.1, 1.2}) {
            std::string line;
            for (const std::size_t runs : {5, 10, 20}) {
                const auto row = power_at(maker, model, runs, factor, 100, 31 * runs, comparisons);
                line += fmt::format("  {} runs: {} % / {} %", runs, row.p50, row.p99);
            }
            fmt::print("{:<9} {:.0f} % slower:{}\n", model.name, 100.0 * (factor - 1.0), line);
        }
    }
}

int run_tier(const nlohmann::json& template_doc, const std::string& template_name, bool figures) {
    const auto started = std::chrono::steady_clock::now();
    side_maker maker{template_doc};
    const auto least = least_runs(compare_settings{});
    std::size_t comparisons = 0;
    std::vector<std::string> failures;
    fmt::print(
        "statistical tier: synthetic reports from {}, 95 % intervals from {} resamples; "
        "the least number of runs a side is {}\n\n",
        template_name, bootstrap_settings{}.resamples, least);
    print_coverage_header();
    // From the least number of runs up, wherever the derivation puts it.
    std::vector<std::size_t> run_counts = {least, least + 1, 8, 10};
    std::sort(run_counts.begin(), run_counts.end());
    run_counts.erase(std::unique(run_counts.begin(), run_counts.end()), run_counts.end());
    for (const auto runs : run_counts) {
        const auto row = coverage_at(maker, runs, trials_per_model, comparisons);
        print_coverage_row(runs, row);
        if (row.all.share() < 0.93) {
            failures.push_back(fmt::format("coverage at {} runs a side is {}, under 93 %", runs,
                                           percent(row.all.held, row.all.rows)));
        }
        if (static_cast<double>(row.aa_failed) > 0.05 * static_cast<double>(row.aa_trials)) {
            failures.push_back(fmt::format("A/A at {} runs a side failed the gate in {}, over 5 %",
                                           runs, percent(row.aa_failed, row.aa_trials)));
        }
        if (row.disagreements != 0) {
            failures.push_back(fmt::format(
                "at {} runs a side, {} comparisons' exit status did not follow their intervals",
                runs, row.disagreements));
        }
    }

    std::size_t undecided = 0;
    std::size_t below_trials = 0;
    draws below_random(7);
    for (std::size_t runs = 1; runs < least; ++runs) {
        for (std::size_t t = 0; t < trials_below_least; ++t) {
            const auto result =
                maker.compare(spread_model_named("drifting"), runs, slowdown, below_random);
            const bool none = std::all_of(result.rows.begin(), result.rows.end(), [](auto& row) {
                return row.result == verdict::too_few_runs;
            });
            undecided += none && result.exit_status == exit_too_few_runs;
            ++below_trials;
            ++comparisons;
        }
    }
    fmt::print(
        "\nbelow {} runs a side (1 to {}): {} comparisons with the gate; no verdict and "
        "exit {} in {}\n",
        least, least - 1, below_trials, exit_too_few_runs, percent(undecided, below_trials));
    if (undecided != below_trials) {
        failures.push_back("below the least number of runs, a comparison gave a verdict");
    }

    const auto power = power_at(maker, spread_model_named(power_model), power_runs, slowdown,
                                power_trials, 11, comparisons);
    fmt::print(
        "power: a true 20 % slowdown, {} runs a side, {} model: p50 called slower in {}, "
        "p99 in {}; at p50 the median comparison could call B/A above {:.3f} and needed "
        "about {:.0f} runs a side for 5 %\n",
        power_runs, power_model, percent(power.p50, power.trials), percent(power.p99, power.trials),
        median_of(power.could_call), median_of(power.runs_needed));
    if (2 * power.p50 <= power.trials) {
        failures.push_back(fmt::format("a true 20 % slowdown at p50 was called in {}, not most",
                                       percent(power.p50, power.trials)));
    }
    if (figures) {
        print_figures(maker, comparisons);
    }

    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    fmt::print("\n{} comparisons in {:.1f} s\n", comparisons, took.count());
    for (const auto& failure : failures) {
        fmt::print("FAIL: {}\n", failure);
    }
    if (failures.empty()) {
        fmt::print("ok: every check passed\n");
    }
    return failures.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    const bool figures = argc == 3 && std::string(argv[2]) == "--figures";
    if (argc != 2 && !figures) {
        std::cerr << "usage: " << argv[0] << " TEMPLATE [--figures]\n";
        return 2;
    }
    try {
        std::ifstream file(argv[1], std::ios::binary);
        std::ostringstream text;
        text << file.rdbuf();
        if (!file) {
            throw std::runtime_error(std::string("cannot read ") + argv[1]);
        }
        return run_tier(nlohmann::json::parse(text.str()), argv[1], figures);
    } catch (const std::exception& e) {
        std::cerr << argv[0] << ": " << e.what() << '\n';
        return 1;
    }
}
