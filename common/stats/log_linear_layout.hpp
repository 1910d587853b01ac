// SPDX-License-Identifier: Apache-2.0
#pragma once
// The bucket geometry that log_linear_histogram and compact_histogram share,
// as HdrHistogram_c lays out its counts: with S sub-bucket bits, octave 0
// holds 0..2^(S+1)-1 one value per bucket, and octave k >= 1 holds
// [2^(k+S), 2^(k+S+1)) in 2^S buckets of 2^k each, so a bucket is at most
// 2^-S of its values wide. Values of 2^44 ns (about 4.9 hours) and above
// share the last bucket. Pure: no state, no I/O.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace sctp_perf {

template <unsigned SubBucketBits>
struct log_linear_layout {
    static constexpr unsigned sub_bucket_bits = SubBucketBits;
    static constexpr std::uint64_t sub_bucket_count = std::uint64_t{1} << sub_bucket_bits;
    static constexpr std::uint64_t exact_limit = 2 * sub_bucket_count;  // one bucket per ns below
    static constexpr unsigned highest_bit = 44;  // values >= 2^44 ns share the top bucket
    static constexpr std::uint64_t highest_bucketed_ns = (std::uint64_t{1} << highest_bit) - 1;
    static constexpr std::size_t bucket_total =
        exact_limit + (highest_bit - (sub_bucket_bits + 1)) * sub_bucket_count;

    // HdrHistogram_c's counts_index: both octave cases reduce to the same
    // shift and add. Saturating first makes every value >= 2^44 land in the
    // last bucket without a branch.
    static constexpr std::size_t bucket_index(std::uint64_t value_ns) noexcept {
        const std::uint64_t bucketed_ns = std::min(value_ns, highest_bucketed_ns);
        const unsigned octave =
            static_cast<unsigned>(std::bit_width(bucketed_ns | (exact_limit - 1))) -
            (sub_bucket_bits + 1);
        return (std::size_t{octave} << sub_bucket_bits) +
               static_cast<std::size_t>(bucketed_ns >> octave);
    }

    static constexpr std::uint64_t bucket_low(std::size_t index) noexcept {
        if (index < exact_limit) {
            return index;
        }
        const std::uint64_t above = index - exact_limit;
        const unsigned shift = static_cast<unsigned>(above / sub_bucket_count) + 1;
        const std::uint64_t sub = above % sub_bucket_count + sub_bucket_count;
        return sub << shift;
    }

    static constexpr std::uint64_t bucket_width(std::size_t index) noexcept {
        if (index < exact_limit) {
            return 1;
        }
        return std::uint64_t{1} << ((index - exact_limit) / sub_bucket_count + 1);
    }

    // The nearest-rank percentile of the values counted in `buckets`
    // (`count` of them, within [min_ns, max_ns]): the sample of rank
    // r = ceil(count * ppm / 10^6) is reported as its bucket's highest
    // equivalent value (HdrHistogram's), so never below the true value and
    // above it by at most the bucket's width, clamped to [min, max]. Rank
    // count (p100) is max_ns exactly. Requires count > 0, ppm in 1..10^6.
    // `buckets` are the counters of buckets first, first + 1, ...: a
    // histogram may keep only the range its samples reached.
    static double percentile_ns(std::span<const std::uint64_t> buckets, std::size_t first,
                                std::uint64_t count, std::uint64_t min_ns, std::uint64_t max_ns,
                                std::uint32_t parts_per_million) noexcept {
        // In integers, so that p99.9 of 1000 samples is exactly rank 999, not
        // 1000 through a rounding accident; count = whole * 10^6 + rest so
        // that no product overflows.
        constexpr std::uint64_t million = 1'000'000;
        const std::uint64_t whole = count / million;
        const std::uint64_t rest = count % million;
        const std::uint64_t rank = std::max<std::uint64_t>(
            1, whole * parts_per_million + (rest * parts_per_million + million - 1) / million);
        if (rank >= count) {
            return static_cast<double>(max_ns);  // the largest sample is known exactly
        }
        std::uint64_t seen = 0;
        for (std::size_t i = first; i < first + buckets.size(); ++i) {
            seen += buckets[i - first];
            if (seen >= rank) {
                if (i == bucket_total - 1) {
                    // Saturated values share the last bucket, so it has no
                    // highest equivalent value; the maximum is the tightest bound.
                    return static_cast<double>(max_ns);
                }
                const std::uint64_t highest_equivalent_ns = bucket_low(i) + bucket_width(i) - 1;
                return static_cast<double>(std::clamp(highest_equivalent_ns, min_ns, max_ns));
            }
        }
        return static_cast<double>(max_ns);
    }
};

}  // namespace sctp_perf
