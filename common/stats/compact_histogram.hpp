// SPDX-License-Identifier: Apache-2.0
#pragma once
// Percentiles of one flow's latencies in about a KiB.
//
// The layout of log_linear_histogram (integer nanoseconds; every power of
// two split into equal buckets) with 16 buckets per power of two instead of
// 1024: values below 32 ns get one exact bucket each; above that, every
// range [2^k, 2^(k+1)) is split into 16 equal buckets, so a bucket is never
// wider than 1/16 (6.25 %) of its lower edge. The layout has 656 buckets,
// but only the powers of two from the smallest sample's to the largest's
// are kept, 128 bytes each: latencies from 20 us to 10 ms take 10 of them,
// 1,280 bytes, where the whole layout took 5,248 (280 KiB for the full
// histogram). So a client can keep one for each of 100,000 flows, and the
// full resolution only where there are few (per worker thread and for the
// whole run).
//
// Concepts, as in log_linear_histogram.hpp:
//  - highest equivalent value: the largest value that lands in the same
//    bucket, bucket_low(i) + bucket_width(i) - 1.
//  - percentile: nearest rank, reported as the highest equivalent value of
//    the bucket that holds it, within [min_ns(), max_ns()].
//  - beyond range: a value above highest_trackable_ns() (2^44 - 1 ns); it is
//    saturated into the last bucket and counted in beyond_range_count().
// Count, minimum and maximum are exact.
//
// Every bucket edge here is also a bucket edge of log_linear_histogram, so
// each of its buckets lies inside one of these: for the same samples a
// percentile here is never below the full histogram's.
//
// A pure value: no I/O, no clock. `record` is on the hot path of the load
// modes (once per timed reply and once per paced send), so it is inline; it
// allocates only when a sample falls outside the powers of two kept so far,
// a few times in a flow's life; being noexcept, it ends the program if that
// allocation fails, where a constructor that took the whole layout at once
// threw.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "stats/log_linear_layout.hpp"

namespace sctp_perf {

class compact_histogram {
  public:
    compact_histogram();

    // Counts one sample of `value_ns` nanoseconds. Every value is legal and
    // counted in count(), min_ns() and max_ns(). Returns true when it was
    // within highest_trackable_ns(), false when it was saturated into the
    // last bucket (and counted in beyond_range_count()).
    bool record(std::uint64_t value_ns) noexcept {
        const std::size_t index = bucket_index(value_ns);
        // Below first_ the difference wraps around to a huge value.
        if (index - first_ >= buckets_.size()) [[unlikely]] {
            cover(index);
        }
        ++buckets_[index - first_];
        ++count_;
        min_ns_ = std::min(min_ns_, value_ns);
        max_ns_ = std::max(max_ns_, value_ns);
        const bool beyond = value_ns > highest_bucketed_ns;
        beyond_range_ += beyond;
        return !beyond;
    }

    // Adds every sample of `other`, as if each had been recorded here.
    void merge(const compact_histogram& other) noexcept;

    std::uint64_t count() const noexcept { return count_; }
    std::uint64_t beyond_range_count() const noexcept { return beyond_range_; }
    std::uint64_t min_ns() const noexcept { return min_ns_; }  // UINT64_MAX when empty
    std::uint64_t max_ns() const noexcept { return max_ns_; }  // 0 when empty
    // 2^44 - 1 ns (about 4.9 hours), as for log_linear_histogram.
    static constexpr std::uint64_t highest_trackable_ns() noexcept { return highest_bucketed_ns; }

    // The most a reported percentile exceeds the true one, relative to the
    // true one: a bucket's width over its lower edge, 1/16.
    static constexpr double relative_error_bound = 1.0 / 16.0;

    // The percentile `parts_per_million` / 10^6, in nanoseconds. Its true
    // value T is the sample of rank r = ceil(count() * ppm / 10^6) (at least
    // 1) in sorted order; what is returned, R, is the highest equivalent
    // value of the bucket that holds rank r, within [min_ns(), max_ns()];
    // rank count() (p100) gives max_ns() exactly. So
    //  - T <= R <= max_ns(): an upper bound, never above the largest sample;
    //  - R - T < T / 16 (6.25 %), and R == T below 32 ns;
    //  - one sample, or samples all equal, give that value everywhere.
    // When rank r falls in the last bucket and beyond_range_count() > 0, the
    // answer is max_ns(). Requires count() > 0 and ppm in 1..10^6.
    double percentile_ns(std::uint32_t parts_per_million) const noexcept;

    // The counts of the buckets kept, from bucket first_index(): counts()[i]
    // holds [bucket_low(j), bucket_low(j) + bucket_width(j)) for j =
    // first_index() + i. Empty until a sample comes.
    std::span<const std::uint64_t> counts() const noexcept { return buckets_; }
    std::size_t first_index() const noexcept { return first_; }

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
    static constexpr std::size_t bucket_count() noexcept { return bucket_total; }

  private:
    using layout = log_linear_layout<4>;  // 16 buckets per octave
    static constexpr std::uint64_t exact_limit = layout::exact_limit;
    static constexpr std::uint64_t highest_bucketed_ns = layout::highest_bucketed_ns;
    static constexpr std::size_t bucket_total = layout::bucket_total;

    // The buckets come in groups of this many, a power of two each (the 32
    // exact ones below 32 ns are two groups).
    static constexpr std::size_t group = layout::sub_bucket_count;

    // Widens the buckets kept to the group that holds bucket `index`.
    void cover(std::size_t index) noexcept;

    std::vector<std::uint64_t> buckets_;  // buckets first_, first_ + 1, ...
    std::size_t first_ = 0;
    std::uint64_t count_ = 0;
    std::uint64_t min_ns_ = UINT64_MAX;
    std::uint64_t max_ns_ = 0;
    std::uint64_t beyond_range_ = 0;
};

}  // namespace sctp_perf
