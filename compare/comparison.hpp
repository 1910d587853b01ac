// SPDX-License-Identifier: Apache-2.0
#pragma once
// The comparison of two sets of runs, the A side and the B side, percentile
// by percentile: each side's median over its runs, the ratio B/A of those
// medians with its interval, a rank test, and a verdict beyond a noise
// threshold; and the regression gate built on the verdict.
//
// Concepts (run value, sample, coverage) are those of stats/run_statistics.hpp.
//   side        the runs of one configuration, from one or more reports.
//   threshold   how far the ratio must lie from 1 before a difference counts,
//               as a fraction (0.05 is 5 %): the noise a user accepts.
//
// Pure functions over values: reading reports is report_reader's, writing
// them compare_report's.

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "report/client_report.hpp"
#include "stats/run_statistics.hpp"

namespace sctp_perf::compare {

// What the program returns beyond the three exit codes every sctp-perf
// program shares (errors.hpp): a gate's percentile came out slower; or a
// gate could not decide, a side having fewer runs than a verdict needs. The
// two differ so that a CI script can tell "slower" from "could not decide".
inline constexpr int exit_slower = 3;
inline constexpr int exit_too_few_runs = 4;

// The percentiles compared, in the order they are shown: the first four
// are reported_percentiles[0..3] (stats/latency_recorder.hpp), the maximum
// is the largest sample.
enum class compared_percentile { p50, p90, p99, p99_9, max };
inline constexpr std::array all_compared_percentiles = {
    compared_percentile::p50, compared_percentile::p90, compared_percentile::p99,
    compared_percentile::p99_9, compared_percentile::max};
inline constexpr std::size_t compared_percentile_count = all_compared_percentiles.size();

// "p50", "p99.9", "max": how the user names it and how it is shown.
std::string_view label_of(compared_percentile percentile);
// "p50_us", "p99_9_us", "max_us": its key in a client's report.
std::string report_key_of(compared_percentile percentile);
// Its place on a percentile spectrum's x axis, 1 / (1 - percentile): 2 for
// p50, 10 for p90, 100 for p99, 1000 for p99.9. The maximum has no
// percentile of its own (it is the last of however many samples a run had),
// so it is drawn one decade further, at 10000.
double spectrum_position(compared_percentile percentile);

// One run's value of every compared percentile, microseconds, indexed as
// all_compared_percentiles.
using percentile_values_us = std::array<double, compared_percentile_count>;

// What decides whether two sides measure the same thing (run_config) and
// the settings in which they may differ (run_settings) are those a client's
// report states, report/client_report.hpp.

// One sentence per setting of run_settings, or Nagle, in which `a` and `b`
// differ, naming both values, e.g. "a/1.json has Nagle off, a/5.json Nagle
// on"; empty when they agree.
std::vector<std::string> setting_differences(const run_config& a_config,
                                             const run_settings& a_settings,
                                             const run_config& b_config,
                                             const run_settings& b_settings,
                                             std::string_view a_name, std::string_view b_name);

// ", spin off, 2 flows, rate 1000/s a flow, uniform arrivals, batch 1":
// the settings a report states, each after a comma; empty when it states
// none.
std::string describe_settings(const run_settings& settings);

// One sentence per way in which `a` and `b` measure different things
// (service, transport, mode, payload size, reply size), each naming both
// values, e.g. "A is tcp, B is sctp"; empty when they agree. The names are
// those of the sides, or of two reports of one side.
std::vector<std::string> config_differences(const run_config& a, const run_config& b,
                                            std::string_view a_name = "A",
                                            std::string_view b_name = "B");

// "tcp stream, ping-pong, 64-byte requests, 2-byte replies, Nagle off"
std::string describe_config(const run_config& config);

// Every run of one side.
struct side_runs {
    std::vector<std::string> paths;  // as given on the command line
    std::vector<std::string> files;  // the report files read, in order
    run_config config;
    run_settings settings;
    std::vector<percentile_values_us> runs;
};

// The run values of one percentile, in run order.
std::vector<double> values_of(const side_runs& side, compared_percentile percentile);

struct compare_settings {
    double threshold_fraction = 0.05;  // --threshold, 0 <= threshold < 1
    bootstrap_settings bootstrap;      // its confidence is that of every interval
};

// The fewest runs each side needs before a row gets a verdict and a gate
// decides: least_runs_per_side (stats/run_statistics.hpp) at the bootstrap's
// confidence, 5 for 95 %. Below it the bootstrap's interval is narrower than
// any interval the runs can support at that confidence.
std::size_t least_runs(const compare_settings& settings);

enum class verdict {
    faster,         // B's ratio interval lies wholly below 1 - threshold
    slower,         // B's ratio interval lies wholly above 1 + threshold
    no_difference,  // the interval reaches into [1 - threshold, 1 + threshold]
    too_few_runs,   // a side has fewer than least_runs: no verdict
};
// "faster", "slower", "no difference", "too few runs"
std::string_view name_of(verdict v);

// The verdict on B against A: a difference only where the whole interval
// lies beyond the threshold, so that noise the size of the threshold is
// never called a difference (an interval exactly at 1 + threshold is not
// slower).
verdict judge(const ratio_interval& ratio, double threshold_fraction);

// What a comparison could have seen, at the spread its runs showed: its
// interval, moved to another ratio with its shape kept (each end the same
// factor from the ratio), would lie wholly beyond the threshold from
//   slower_ratio = (1 + threshold) ratio / low   upwards, and
//   faster_ratio = (1 - threshold) ratio / high  downwards.
// A true B/A between the two could not have been called. And about how many
// runs a side would narrow the interval to the threshold, its wider half
// ln(ratio / low) or ln(high / ratio) shrinking as 1 / sqrt(runs) to
// ln(1 + threshold): then a change of (1 + threshold)^2, twice the threshold
// or so, would be called. From the spread of m and n runs, h the wider half:
//   runs_per_side = (h / ln(1 + threshold))^2 2 / (1/m + 1/n)
// (the interval's width goes as sqrt(1/m + 1/n)), rounded up, at least the
// least number of runs; nullopt with a threshold of 0, which no number of
// runs resolves.
struct comparison_power {
    double slower_ratio = 0.0;
    double faster_ratio = 0.0;
    std::optional<std::size_t> runs_per_side;
    std::size_t least_runs = 0;  // the floor of runs_per_side
};

// The power of a comparison whose ratio interval is `ratio`, from `a_runs`
// and `b_runs` runs (each at least 1); `least` is the least number of runs.
comparison_power power_of(const ratio_interval& ratio, double threshold_fraction,
                          std::size_t a_runs, std::size_t b_runs, std::size_t least);

// One side's figures for one percentile.
struct side_figures {
    std::vector<double> runs_us;
    double median_us = 0.0;
    median_interval median_interval_us;  // the order-statistic interval of the median
};

struct percentile_comparison {
    compared_percentile percentile = compared_percentile::p50;
    side_figures a;
    side_figures b;
    ratio_interval ratio;  // median(B) / median(A), bootstrap interval
    u_test_result test;
    verdict result = verdict::no_difference;
    std::optional<comparison_power> power;  // none without a verdict (too few runs)
};

// Every compared percentile of B against A. Both sides must hold runs.
std::vector<percentile_comparison> compare_sides(const side_runs& a, const side_runs& b,
                                                 const compare_settings& settings);

// A regression gate: fail when B is slower than A at `percentile` by more
// than `threshold_fraction`.
struct gate_rule {
    compared_percentile percentile = compared_percentile::p50;
    double threshold_fraction = 0.05;
};

struct gate_outcome {
    gate_rule rule;
    ratio_interval ratio;
    bool decided = true;                    // false when its row has no verdict (too few runs)
    bool failed = false;                    // the ratio interval lies wholly above 1 + threshold
    std::optional<comparison_power> power;  // its row's
};

// Each rule against the comparison of its percentile.
std::vector<gate_outcome> apply_gate(std::span<const percentile_comparison> rows,
                                     std::span<const gate_rule> rules);

// 0 when every outcome passed (or there is no gate), exit_slower when one
// failed, otherwise exit_too_few_runs when one could not be decided.
int gate_exit_status(std::span<const gate_outcome> outcomes);

// One sentence per side with fewer than `least` runs.
std::vector<std::string> run_count_warnings(const side_runs& a, const side_runs& b,
                                            std::size_t least);

// "too few runs for a verdict (n = 3, at least 5 needed)", n being the
// smaller side's count.
std::string too_few_runs_sentence(std::size_t runs, std::size_t least);

// The sentence that refuses two sides which measure different things,
// naming each difference and the option that compares them anyway.
std::string different_sides_sentence(std::span<const std::string> differences);

// Everything a comparison found, as the reporters write it.
struct comparison_result {
    side_runs a;
    side_runs b;
    std::vector<std::string> differences;  // config_differences(a, b): compared anyway
    compare_settings settings;
    std::size_t least_runs = 0;  // least_runs(settings)
    std::vector<percentile_comparison> rows;
    std::vector<gate_rule> gate_rules;  // empty: no gate
    std::vector<gate_outcome> gate;
    std::vector<std::string> warnings;
    int exit_status = 0;  // 0, or gate_exit_status(gate)
};

// Compares B with A, applies the gate and gathers the warnings. Both sides
// must hold runs; whether their differences may be compared is the
// caller's decision.
comparison_result compare_runs(side_runs a, side_runs b, const compare_settings& settings,
                               std::vector<gate_rule> gate_rules);

}  // namespace sctp_perf::compare
