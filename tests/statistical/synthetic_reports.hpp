// SPDX-License-Identifier: Apache-2.0
#pragma once
// Synthetic client reports whose truth is known, for the statistical tier.
//
// A real client report is the template; its percentiles are replaced by one
// run's draws from a spread model, and a B side's draws are an A side's
// multiplied by a known factor. So the true ratio B/A of the medians over
// runs is that factor at every percentile, whatever the model: the median of
// f X is f times the median of X. Coverage is then counted against the
// factor, and an A/A comparison (factor 1) has no difference to find.
//
// Concepts are those of stats/run_statistics.hpp; here also:
//   spread model  how a configuration's percentiles move from run to run:
//                 a typical run, each percentile's own log-normal spread,
//                 and a share of runs made on a busier machine, every
//                 percentile of which is larger by one factor (the runs
//                 then fall in two groups, as the manual's section 10.1
//                 shows of real runs).

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "compare/comparison.hpp"

namespace sctp_perf::statistical {

// Uniform and normal draws that are the same on every machine:
// std::normal_distribution is each standard library's own.
class draws {
  public:
    explicit draws(std::uint64_t seed) : generator_(seed) {}
    double uniform();  // in [0, 1)
    double normal();   // mean 0, deviation 1 (Box-Muller)

  private:
    std::mt19937_64 generator_;
};

struct spread_model {
    std::string name;
    compare::percentile_values_us typical_us;  // p50, p90, p99, p99.9, max of a typical run
    std::array<double, compare::compared_percentile_count> log_deviation;  // each one's own
    double busy_share = 0.0;   // of the runs, made on a busier machine ...
    double busy_factor = 1.0;  // ... with every percentile this many times larger
};

// The models the tier draws from, by the spread of p50 from run to run:
// "pinned" (about 3 %, both ends on one CPU), "loaded" (about 6 %, pinned
// on a machine with other work), "drifting" (pinned, but a quarter of the
// runs 25 % slower, as when other work comes and goes) and "unpinned"
// (about 15 %, where the scheduler places the ends).
const std::vector<spread_model>& spread_models();
const spread_model& spread_model_named(const std::string& name);

// One run's values, p50 to max, each at least the one below it, rounded
// to the nanosecond as a report's are.
compare::percentile_values_us draw_run(const spread_model& model, draws& random);

// `values_us` times `factor`, rounded to the nanosecond.
compare::percentile_values_us scaled(const compare::percentile_values_us& values_us, double factor);

// The template as the report of one run with `values_us` as its
// percentiles: the percentiles the template states beyond those compared
// (p99.99 ...) are set to the maximum, the summary's extremes to match; its
// hdr_histogram, runs and aggregate are taken out, since they would not
// give the new values; "synthetic" says what made it, `serial` making each
// report's content its own.
nlohmann::json synthetic_report(const nlohmann::json& template_doc,
                                const compare::percentile_values_us& values_us,
                                const std::string& model, std::uint64_t serial);

}  // namespace sctp_perf::statistical
