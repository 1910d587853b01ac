// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fixed-bin histogram of the ACE report.
//
// Concepts:
//  - bin: one of `bin_count` equal slices of [min_us, max_us); bin i holds
//    samples v with bin_low(i) <= v < bin_high(i), where bin_low(i) is
//    min + (max - min) * i / bin_count in doubles. The edges the report
//    prints are the ones `record` compares with, so they never disagree.
//  - below / above: samples v < min_us, and v >= max_us.
//  - outlier: a sample outside [min_us, max_us). All are counted; the
//    `max_outliers` farthest from the range are kept with their iteration
//    number, so the report shows the worst round trips, not merely the first.
//
// A pure value: no I/O. Recording never fails and never allocates after
// construction.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sctp_perf {

struct bin_layout {
    double min_us = 0.0;      // lower edge of the first bin, microseconds
    double max_us = 10000.0;  // upper edge of the last bin (exclusive), microseconds
    std::size_t bin_count = 1000;
    std::size_t max_outliers = 100;  // how many out-of-range samples to keep
};

struct outlier {
    double value_us;
    std::uint64_t iteration;  // measured iteration number, counted from 0
};

class binned_histogram {
  public:
    // Requires min_us < max_us and bin_count >= 1 (validated by the options layer).
    explicit binned_histogram(const bin_layout& layout);

    // Counts one sample of `value_us` microseconds; `iteration` is kept with
    // it if it is an outlier worth keeping. Any value but NaN is legal
    // (infinities included). A value in [min_us, max_us) is counted in the bin
    // i with bin_low(i) <= value_us < bin_high(i), compared as the doubles
    // those functions return, so a sample on a printed edge is counted in the
    // bin that starts there. A value below min_us is counted in below(), one
    // at or above max_us (max_us itself included) in above(); either is then
    // offered to the kept outliers. total() counts every call.
    // Returns true when the value fell into a bin, false for an outlier.
    bool record(double value_us, std::uint64_t iteration) noexcept;

    // Adds every sample of `other`, which must have the same layout, as if
    // each had been recorded here after this histogram's own, its iteration
    // number increased by `iteration_offset`: the runs of a repeated test
    // number their samples on, one run after another. The kept outliers are
    // the most extreme of both; where two are equally far from the range,
    // this histogram's is kept, as record() keeps the earlier sample.
    void merge(const binned_histogram& other, std::uint64_t iteration_offset = 0);

    const bin_layout& layout() const noexcept { return layout_; }
    std::uint64_t bin(std::size_t index) const noexcept { return bins_[index]; }
    // The edges of bin `index` in microseconds, as the reports print them:
    // bin_low(i) = min_us + (max_us - min_us) * i / bin_count, rounded as
    // written, except that bin_low(bin_count) is exactly max_us; bin_high(i)
    // is bin_low(i + 1). `index` in 0..bin_count - 1 (bin_low also takes
    // bin_count).
    double bin_low(std::size_t index) const noexcept;
    double bin_high(std::size_t index) const noexcept;
    std::uint64_t below() const noexcept { return below_; }
    std::uint64_t above() const noexcept { return above_; }
    std::uint64_t total() const noexcept { return total_; }

    // The kept outliers, largest value first.
    std::vector<outlier> outliers() const;

  private:
    double distance_outside(double value_us) const noexcept;
    void keep_outlier(double value_us, std::uint64_t iteration) noexcept;

    bin_layout layout_;
    double range_us_;
    std::vector<std::uint64_t> bins_;
    std::uint64_t below_ = 0;
    std::uint64_t above_ = 0;
    std::uint64_t total_ = 0;
    // A min-heap on distance from the range: its top is the least extreme kept
    // outlier, the one a more extreme newcomer replaces.
    std::vector<outlier> kept_;
};

}  // namespace sctp_perf
