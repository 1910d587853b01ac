// SPDX-License-Identifier: Apache-2.0
#pragma once
// Percentiles of round-trip times in constant memory.
//
// A log-linear histogram over integer nanoseconds, in the manner of
// HdrHistogram: values below 2048 ns get one exact bucket each; above that,
// every power-of-two range [2^k, 2^(k+1)) is split into 1024 equal buckets, so
// a bucket is never wider than 1/1024 of its lower edge.
//
// Concepts:
//  - highest equivalent value (HdrHistogram's term): the largest value that
//    lands in the same bucket, bucket_low(i) + bucket_width(i) - 1.
//  - percentile: nearest rank, reported as the highest equivalent value of
//    the bucket that holds it, clamped to the exact minimum and maximum; see
//    percentile_ns() for what that guarantees.
//  - beyond range: a value above highest_trackable_ns() (2^44 - 1 ns, about
//    4.9 hours). It is saturated into the last bucket, where it cannot be told
//    apart from the values that bucket holds, and counted in
//    beyond_range_count() so that a report can say so. The maximum (p100) is
//    tracked separately and stays exact.
//
// Memory is fixed (about 300 KiB) whatever the number of samples.
//
// `record` is on the hot path of the load modes (up to two records per
// message), so it is inline and branch-free: one bit_width for the bucket,
// conditional moves for saturation, minimum and maximum, and integer sums
// for the mean, deviation and beyond-range count.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "stats/log_linear_layout.hpp"

namespace sctp_perf {

class log_linear_histogram {
  public:
    log_linear_histogram();

    // Counts one sample of `value_ns` nanoseconds. Every value is legal and
    // counted in count(), min_ns(), max_ns(), mean_ns() and stddev_ns(). A
    // value up to highest_trackable_ns() goes to its own bucket; a larger one
    // is saturated into the last bucket and also counted in
    // beyond_range_count(). Returns true when the value was within the
    // trackable range, false when it was saturated (it is counted either way).
    bool record(std::uint64_t value_ns) noexcept {
        ++buckets_[bucket_index(value_ns)];
        ++count_;
        min_ns_ = std::min(min_ns_, value_ns);
        max_ns_ = std::max(max_ns_, value_ns);
        sum_ns_ += value_ns;
        sum_squares_ns2_ += wide_sum{value_ns} * value_ns;
        const bool beyond = value_ns > highest_bucketed_ns;
        beyond_range_ += beyond;
        return !beyond;
    }

    // Adds every sample of `other`, as if each had been recorded here.
    void merge(const log_linear_histogram& other) noexcept;

    // Counts `count` samples known only by their bucket, `index` (below
    // counts().size()), as a decoded HdrHistogram gives them. Their values
    // are unknown within the bucket, so they count as HdrHistogram counts
    // them: towards min_ns() as the bucket's lowest value, towards max_ns()
    // as its highest equivalent value (so that percentile_ns() stays an upper
    // bound), and towards the mean and deviation as its middle. Returns false,
    // counting nothing, when `index` is out of range or the count would
    // overflow count().
    bool record_bucket(std::size_t index, std::uint64_t count) noexcept;

    // Puts back the exact extremes of samples counted by record_bucket, from
    // a source that kept them (a client's report): each must lie in the
    // bucket of the extreme it replaces, min_ns <= max_ns. Returns false,
    // changing nothing, when they do not or the histogram is empty.
    bool restore_extremes(std::uint64_t min_ns, std::uint64_t max_ns) noexcept;
    // Forgets every sample, keeping the memory.
    void reset() noexcept;

    std::uint64_t count() const noexcept { return count_; }
    // How many recorded values exceeded highest_trackable_ns().
    std::uint64_t beyond_range_count() const noexcept { return beyond_range_; }
    // The largest value with a bucket of its own, 2^44 - 1 ns (about 4.9
    // hours): HdrHistogram's highest trackable value for this layout. Larger
    // values are counted, but in the last bucket, [2^44 - 2^33, 2^44 - 1].
    static constexpr std::uint64_t highest_trackable_ns() noexcept { return highest_bucketed_ns; }
    std::uint64_t min_ns() const noexcept { return min_ns_; }  // UINT64_MAX when empty
    std::uint64_t max_ns() const noexcept { return max_ns_; }  // 0 when empty
    // Mean and standard deviation (n - 1) of the recorded values, exact but
    // for the final rounding to double: they come from integer sums, so no
    // digits cancel however large the values and however small their spread.
    // 0 when there are too few samples (none for the mean, one for the
    // deviation). Valid while the sum of all values stays below 2^64 ns, 584
    // years of round trips.
    double mean_ns() const noexcept;
    double stddev_ns() const noexcept;

    // One count per bucket, in the order of HdrHistogram's counts array for
    // lowest trackable value 1 and 3 significant digits: index i holds values
    // in [bucket_low(i), bucket_low(i) + bucket_width(i)).
    std::span<const std::uint64_t> counts() const noexcept { return buckets_; }
    // How many buckets there are, 35840: the size of counts().
    static constexpr std::size_t counts_size() noexcept { return bucket_total; }

    // The percentile `parts_per_million` / 10^6, in nanoseconds. Its true
    // value is the nearest rank: the sample of rank r = ceil(count() * ppm /
    // 10^6) (at least 1) in sorted order, i.e. the smallest recorded v with at
    // least ppm / 10^6 of all samples <= v. What is returned is the highest
    // equivalent value of the bucket that holds rank r, clamped to
    // [min_ns(), max_ns()]; rank count() (p100) returns max_ns() exactly. So
    // the reported value R and the true value T satisfy
    //  - T <= R <= max_ns(): an upper bound, never above the largest sample;
    //  - R - T < T / 1024 (about 0.1 %), and R == T below 2048 ns;
    //  - one sample, or samples all equal, give that value at every
    //    percentile.
    // When rank r falls in the last bucket and beyond_range_count() > 0, the
    // answer is max_ns(): still an upper bound, no longer within 1/1024.
    // Requires count() > 0 and parts_per_million in 1..10^6.
    double percentile_ns(std::uint32_t parts_per_million) const noexcept;

    // Bucket geometry, public for tests of the accuracy bound.
    static constexpr std::size_t bucket_index(std::uint64_t value_ns) noexcept {
        return layout::bucket_index(value_ns);
    }
    static constexpr std::uint64_t bucket_low(std::size_t index) noexcept {
        return layout::bucket_low(index);
    }
    static constexpr std::uint64_t bucket_width(std::size_t index) noexcept {
        return layout::bucket_width(index);
    }

  private:
    // Sums of squares of nanosecond values need 128 bits: never more than
    // (sum of values)^2, so they cannot overflow before sum_ns_ does.
    __extension__ using wide_sum = unsigned __int128;

    using layout = log_linear_layout<10>;  // 1024 buckets per octave
    static constexpr std::uint64_t exact_limit = layout::exact_limit;
    static constexpr std::uint64_t highest_bucketed_ns = layout::highest_bucketed_ns;
    static constexpr std::size_t bucket_total = layout::bucket_total;

    std::vector<std::uint64_t> buckets_;
    std::uint64_t count_ = 0;
    std::uint64_t min_ns_ = UINT64_MAX;
    std::uint64_t max_ns_ = 0;
    std::uint64_t beyond_range_ = 0;
    std::uint64_t sum_ns_ = 0;
    wide_sum sum_squares_ns2_ = 0;
};

}  // namespace sctp_perf
