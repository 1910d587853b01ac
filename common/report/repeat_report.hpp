// SPDX-License-Identifier: Apache-2.0
#pragma once
// The runs of a repeated test (--repeat N) in the reports: what each run
// measured on its own, and how each percentile spreads over the runs.
//
// Concepts:
//   run        one whole test: its own connections, its own primer, its own
//              measurement; the runs of a test are separate samples of the
//              machine's state, as separate invocations would be.
//   pooled     every run's samples together, as if one run had measured them
//              all: what the rest of a report shows (its percentiles, the
//              ACE block, the load sections).
//   over runs  one figure taken in each run alone (that run's p99), then
//              summarized over the runs (stats/run_statistics.hpp): the
//              median of the run values, a distribution-free confidence
//              interval for that median from order statistics, and the
//              smallest and largest run value.
// A pooled percentile weighs every sample alike, a median over runs every
// run alike; only the second comes with an interval that says how far
// another set of runs may find it.

#include <array>
#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "client/load/load_result.hpp"
#include "stats/latency_recorder.hpp"
#include "stats/run_statistics.hpp"

namespace sctp_perf {

// The confidence the interval over runs aims for. Below 6 runs no pair of
// order statistics reaches it, and the interval is [min, max] with the
// coverage it has (93.75 % for 5 runs): the reports then state that one.
inline constexpr double runs_confidence = 0.95;

// A load run's own counts (as load_result counts them, for that run alone).
struct load_run_counts {
    std::uint64_t messages_sent = 0;
    std::uint64_t messages_received_by_server = 0;
    std::uint64_t messages_echo_requested = 0;
    std::uint64_t messages_replied = 0;
    std::uint64_t messages_lost = 0;
    std::uint64_t messages_duplicated = 0;
    double rate_achieved_per_s = 0.0;   // per flow, the mean of the flows'
    std::optional<std::uint64_t> seed;  // a poisson schedule's
};

// What one run measured: its round trips in ping-pong, its headline latency
// (load_result::headline) in a load mode; microseconds.
struct run_figures {
    std::uint64_t num_points = 0;  // 0: nothing was timed, and no figure below means anything
    double min_us = 0.0;
    double mean_us = 0.0;
    double max_us = 0.0;
    // In the order of reported_percentiles (p50 ... p99.99).
    std::array<double, std::size(reported_percentiles)> percentile_us{};
    double duration_s = 0.0;   // its measured time (load: t0 to its last end-of-test reply)
    bool interrupted = false;  // a signal ended it before its end
    std::optional<load_run_counts> load;
};

run_figures figures_of_run(const latency_recorder& recorder, double duration_s);
run_figures figures_of_run(const load_result& load);

// The runs of a repeated test as the reports need them.
struct repeat_account {
    unsigned asked = 1;  // --repeat
    // The runs done, in order. Only the last may be interrupted; a run that
    // failed is not among them.
    std::vector<run_figures> runs;
    // The failure that ended the run after the last one done (run number
    // runs.size() + 1), one sentence; empty when none did.
    std::string failure;
};

// One figure over the runs that timed at least one message: its label in the
// text ("p99"), its JSON key ("p99_us") and its summary over the runs.
struct aggregate_row {
    std::string label;
    std::string json_key;
    figure_over_runs over;
};

// Each of reported_percentiles, then max, over the runs with num_points > 0,
// at runs_confidence.
std::vector<aggregate_row> aggregate_over_runs(const repeat_account& account);

// Where the sample of iteration `pooled_iteration` of the pooled samples
// came from, when each run's iterations were numbered on after the runs
// before it (latency_recorder::merge): its run, from 1, and its iteration
// in that run, from 0.
struct run_iteration {
    std::size_t run = 0;
    std::uint64_t iteration = 0;
};
run_iteration locate_iteration(const repeat_account& account, std::uint64_t pooled_iteration);

// A coverage (0..1) in percent with the digits it needs, at most two
// decimals: "97.85", "93.75", "75".
std::string coverage_percent_text(double coverage);

// The "runs:" section of the text report: how many runs of those asked,
// then for p50, p90, p99, p99.9 and max the median over the runs, its
// interval with the coverage that interval has, and the smallest and
// largest run value; then one row per run. `latency` names what was
// measured, e.g. "round-trip time".
void write_runs_section(std::ostream& out, const repeat_account& account,
                        const std::string& latency);

// The JSON's "runs": one object per run done.
nlohmann::ordered_json runs_json(const repeat_account& account);
// The JSON's "aggregate": {runs, runs_done, runs_asked, method,
// confidence_percent, percentiles: {p50_us: {median_us, low_us, high_us,
// coverage_percent, min_us, max_us}, ...}}; runs counts those that timed a
// message, which the figures cover.
nlohmann::ordered_json aggregate_json(const repeat_account& account);

}  // namespace sctp_perf
