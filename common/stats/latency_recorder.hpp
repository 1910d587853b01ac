// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything the client keeps about its measured round trips.
//
// Concepts:
//  - sample: one measured round trip, from just before the request is sent to
//    just after the whole reply has arrived, in nanoseconds of a monotonic
//    clock. It is the full round trip: never halved.
//  - primer iteration: a round trip made before measuring starts, to warm
//    caches, connections and congestion windows; it is never recorded.
//
// Three views are fed from each sample: exact summary statistics, the ACE
// fixed-bin histogram, and a log-linear histogram for percentiles. All use
// constant memory, so a billion iterations cost what ten do.

#include <chrono>
#include <cstdint>

#include "stats/binned_histogram.hpp"
#include "stats/log_linear_histogram.hpp"
#include "stats/running_stats.hpp"

namespace sctp_perf {

class latency_recorder {
  public:
    explicit latency_recorder(const bin_layout& layout) : bins_(layout) {}

    // Feeds one sample, `rtt` (a duration; kept as integer nanoseconds), to
    // all three views; `iteration` is the measured iteration number, counted
    // from 0 after the primer, kept with the sample if it is a bin outlier. Any
    // duration is legal: a negative one (which a monotonic clock never gives)
    // counts as 0. Nothing is rejected, so nothing is returned: a sample
    // outside the bin layout is counted in bins().below() or bins().above(),
    // one above log_linear_histogram::highest_trackable_ns() in
    // percentiles().beyond_range_count(), and both are in summary().
    void record(std::chrono::nanoseconds rtt, std::uint64_t iteration) noexcept {
        const auto rtt_ns = static_cast<std::uint64_t>(rtt.count() < 0 ? 0 : rtt.count());
        const double rtt_us = static_cast<double>(rtt_ns) / 1000.0;
        summary_.add(rtt_us);
        bins_.record(rtt_us, iteration);
        percentiles_.record(rtt_ns);
    }

    // Adds every sample of `other`, which must have the same bin layout, to
    // all three views, as if each had been recorded here after this one's
    // own, its iteration number increased by `iteration_offset` (see
    // binned_histogram::merge): the pooled samples of a repeated test.
    void merge(const latency_recorder& other, std::uint64_t iteration_offset) {
        summary_.merge(other.summary_);
        bins_.merge(other.bins_, iteration_offset);
        percentiles_.merge(other.percentiles_);
    }

    // Count, min, max, mean and sample variance, in microseconds (variance in
    // us^2), of the same ns values divided by 1000.
    const running_stats& summary() const noexcept { return summary_; }
    // The ACE fixed-bin histogram, in microseconds, with its outliers.
    const binned_histogram& bins() const noexcept { return bins_; }
    // Percentiles in nanoseconds (see log_linear_histogram::percentile_ns for
    // what a reported percentile means), and beyond_range_count(): samples too
    // long for a bucket of their own, which a report should show.
    const log_linear_histogram& percentiles() const noexcept { return percentiles_; }

  private:
    running_stats summary_;
    binned_histogram bins_;
    log_linear_histogram percentiles_;
};

// The percentiles every report shows, in parts per million, with their labels.
struct percentile_point {
    const char* label;
    std::uint32_t parts_per_million;
};
inline constexpr percentile_point reported_percentiles[] = {
    {"p50", 500'000},    {"p90", 900'000},     {"p99", 990'000},      {"p99.9", 999'000},
    {"p99.99", 999'900}, {"p99.999", 999'990}, {"p99.9999", 999'999},
};

}  // namespace sctp_perf
