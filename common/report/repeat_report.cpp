// SPDX-License-Identifier: Apache-2.0
#include "report/repeat_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>
#include <ostream>

#include "report/run_notes.hpp"
#include "report/units.hpp"

namespace sctp_perf {
namespace {

using json = nlohmann::ordered_json;

// "95": the confidence aimed for, in percent.
std::string confidence_text() {
    return fmt::format("{:g}", runs_confidence * 100.0);
}

std::string value_text(double value_us) {
    return fmt::format("{:.3f}", value_us);
}

// "[29.800, 33.000]  95 % CI over 10 runs (order statistics, coverage
// 97.85 %); spread 28.100 .. 35.600", saying so when the runs are too few
// for the confidence aimed for.
std::string interval_text(const figure_over_runs& over) {
    if (over.runs < 2) {
        return "(one run: no interval)";
    }
    const auto& interval = over.interval;
    const std::string bounds =
        fmt::format("[{}, {}]", value_text(interval.low), value_text(interval.high));
    const std::string spread =
        fmt::format("spread {} .. {}", value_text(over.min), value_text(over.max));
    if (interval.coverage >= runs_confidence) {
        return fmt::format("{}  {} % CI over {} runs (order statistics, coverage {} %); {}", bounds,
                           confidence_text(), over.runs, coverage_percent_text(interval.coverage),
                           spread);
    }
    return fmt::format(
        "{}  {} % CI over {} runs (order statistics: [min, max], as {} runs cannot reach {} %); "
        "{}",
        bounds, coverage_percent_text(interval.coverage), over.runs, over.runs, confidence_text(),
        spread);
}

// A run's value of aggregate row `row` (reported_percentiles, then max).
double run_value(const run_figures& run, std::size_t row) {
    return row < run.percentile_us.size() ? run.percentile_us[row] : run.max_us;
}

// The rows the text shows: p50, p90, p99, p99.9 and max; p99.99 and above
// of a run rest on its top 0.01 % or less, which most runs do not have.
bool shown_in_text(const aggregate_row& row) {
    return row.label != "p99.99" && row.label != "p99.999" && row.label != "p99.9999";
}

json load_counts_json(const load_run_counts& counts) {
    return {
        {"messages_sent", counts.messages_sent},
        {"messages_received_by_server", counts.messages_received_by_server},
        {"messages_echo_requested", counts.messages_echo_requested},
        {"messages_replied", counts.messages_replied},
        {"messages_lost", counts.messages_lost},
        {"messages_duplicated", counts.messages_duplicated},
        {"rate_achieved_per_s", counts.rate_achieved_per_s},
        {"seed", counts.seed ? json(*counts.seed) : json(nullptr)},
    };
}

}  // namespace

run_figures figures_of_run(const latency_recorder& recorder, double duration_s) {
    run_figures run;
    run.duration_s = duration_s;
    const auto& summary = recorder.summary();
    run.num_points = summary.count();
    if (run.num_points == 0) {
        return run;
    }
    run.min_us = summary.min();
    run.mean_us = summary.mean();
    run.max_us = summary.max();
    for (std::size_t i = 0; i < run.percentile_us.size(); ++i) {
        run.percentile_us[i] = us_of_ns(
            recorder.percentiles().percentile_ns(reported_percentiles[i].parts_per_million));
    }
    return run;
}

run_figures figures_of_run(const load_result& load) {
    run_figures run;
    run.duration_s = load.duration_s;
    run.load = load_run_counts{load.messages_sent,           load.messages_received_by_server,
                               load.messages_echo_requested, load.messages_replied,
                               load.messages_lost,           load.messages_duplicated,
                               load.rate_achieved_per_s,     load.seed};
    const auto& latency = load.headline();
    run.num_points = latency.count();
    if (run.num_points == 0) {
        return run;
    }
    run.min_us = us_of_ns(static_cast<double>(latency.min_ns()));
    run.mean_us = us_of_ns(latency.mean_ns());
    run.max_us = us_of_ns(static_cast<double>(latency.max_ns()));
    for (std::size_t i = 0; i < run.percentile_us.size(); ++i) {
        run.percentile_us[i] =
            us_of_ns(latency.percentile_ns(reported_percentiles[i].parts_per_million));
    }
    return run;
}

std::vector<aggregate_row> aggregate_over_runs(const repeat_account& account) {
    std::vector<aggregate_row> rows;
    for (const auto& p : reported_percentiles) {
        rows.push_back({p.label, percentile_json_key(p), {}});
    }
    rows.push_back({"max", "max_us", {}});
    for (std::size_t row = 0; row < rows.size(); ++row) {
        std::vector<double> values;
        for (const auto& run : account.runs) {
            if (run.num_points > 0) {
                values.push_back(run_value(run, row));
            }
        }
        rows[row].over = summarize_over_runs(values, runs_confidence);
    }
    return rows;
}

run_iteration locate_iteration(const repeat_account& account, std::uint64_t pooled_iteration) {
    std::uint64_t before = 0;
    for (std::size_t i = 0; i < account.runs.size(); ++i) {
        const auto points = account.runs[i].num_points;
        if (pooled_iteration < before + points) {
            return {i + 1, pooled_iteration - before};
        }
        before += points;
    }
    return {account.runs.size(), pooled_iteration - std::min(before, pooled_iteration)};
}

std::string coverage_percent_text(double coverage) {
    std::string text = fmt::format("{:.2f}", coverage * 100.0);
    while (text.back() == '0') {
        text.pop_back();
    }
    if (text.back() == '.') {
        text.pop_back();
    }
    return text;
}

void write_runs_section(std::ostream& out, const repeat_account& account,
                        const std::string& latency) {
    const auto done = account.runs.size();
    const bool interrupted = !account.runs.empty() && account.runs.back().interrupted;
    std::string how;
    if (!account.failure.empty()) {
        how = fmt::format(" (run {} failed)", done + 1);
    } else if (interrupted || done < account.asked) {
        how = " (interrupted)";
    }
    fmt::print(out,
               "runs: {} of the {} asked{}, each connecting anew and running its own primer; "
               "the report's other figures pool them\n",
               done, account.asked, how);
    const auto rows = aggregate_over_runs(account);
    if (rows.front().over.runs == 0) {
        fmt::print(out, "\tno run timed a message\n");
    } else {
        fmt::print(out,
                   "\tover the runs, {} in microseconds: the median of the runs' values, a "
                   "confidence interval for that median, and the smallest and largest run value\n",
                   latency);
        for (const auto& row : rows) {
            if (shown_in_text(row)) {
                fmt::print(out, "\t{:<8}{:12.3f}  {}\n", row.label, row.over.median,
                           interval_text(row.over));
            }
        }
    }
    fmt::print(out, "\t{:>5} {:>12}", "run", "points");
    for (const auto& row : rows) {
        if (shown_in_text(row)) {
            fmt::print(out, " {:>12}", row.label + " us");
        }
    }
    fmt::print(out, "\n");
    for (std::size_t i = 0; i < done; ++i) {
        const auto& run = account.runs[i];
        fmt::print(out, "\t{:>5} {:>12}", i + 1, run.num_points);
        for (std::size_t row = 0; row < rows.size(); ++row) {
            if (shown_in_text(rows[row])) {
                fmt::print(out, " {:>12}",
                           run.num_points > 0 ? value_text(run_value(run, row)) : "-");
            }
        }
        fmt::print(out, "{}\n", run.interrupted ? "  interrupted" : "");
    }
}

json runs_json(const repeat_account& account) {
    json runs = json::array();
    const auto rows = aggregate_over_runs(account);
    for (std::size_t i = 0; i < account.runs.size(); ++i) {
        const auto& run = account.runs[i];
        json summary = {{"num_points", run.num_points}};
        json percentiles = json::object();
        if (run.num_points > 0) {
            summary["min_us"] = run.min_us;
            summary["max_us"] = run.max_us;
            summary["mean_us"] = run.mean_us;
            for (std::size_t row = 0; row < rows.size(); ++row) {
                percentiles[rows[row].json_key] = run_value(run, row);
            }
        }
        json one = {
            {"run", i + 1},       {"interrupted", run.interrupted}, {"duration_s", run.duration_s},
            {"summary", summary}, {"percentiles", percentiles},
        };
        if (run.load) {
            one["load"] = load_counts_json(*run.load);
        }
        runs.push_back(std::move(one));
    }
    return runs;
}

json aggregate_json(const repeat_account& account) {
    const auto rows = aggregate_over_runs(account);
    json percentiles = json::object();
    for (const auto& row : rows) {
        const auto& over = row.over;
        if (over.runs == 0) {
            continue;
        }
        percentiles[row.json_key] = {
            {"median_us", over.median},
            {"low_us", over.interval.low},
            {"high_us", over.interval.high},
            {"coverage_percent", over.interval.coverage * 100.0},
            {"min_us", over.min},
            {"max_us", over.max},
        };
    }
    return {
        {"runs", rows.front().over.runs},
        {"runs_done", account.runs.size()},
        {"runs_asked", account.asked},
        {"method", "order statistics"},
        {"confidence_percent", runs_confidence * 100.0},
        {"percentiles", percentiles},
    };
}

}  // namespace sctp_perf
