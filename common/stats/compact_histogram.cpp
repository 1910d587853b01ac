#include "stats/compact_histogram.hpp"

#include <algorithm>

namespace sctp_perf {

compact_histogram::compact_histogram() : buckets_(bucket_total, 0) {}

void compact_histogram::merge(const compact_histogram& other) noexcept {
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
        buckets_[i] += other.buckets_[i];
    }
    count_ += other.count_;
    beyond_range_ += other.beyond_range_;
    min_ns_ = std::min(min_ns_, other.min_ns_);
    max_ns_ = std::max(max_ns_, other.max_ns_);
}

double compact_histogram::percentile_ns(std::uint32_t parts_per_million) const noexcept {
    // The rank as log_linear_histogram computes it: ceil(count * ppm / 10^6)
    // in integers, count split so that no product overflows.
    constexpr std::uint64_t million = 1'000'000;
    const std::uint64_t whole = count_ / million;
    const std::uint64_t rest = count_ % million;
    const std::uint64_t rank = std::max<std::uint64_t>(
        1, whole * parts_per_million + (rest * parts_per_million + million - 1) / million);
    if (rank >= count_) {
        return static_cast<double>(max_ns_);
    }
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
        seen += buckets_[i];
        if (seen >= rank) {
            if (i == buckets_.size() - 1) {
                // Saturated values share the last bucket: only the maximum
                // still bounds them.
                return static_cast<double>(max_ns_);
            }
            const std::uint64_t highest_equivalent_ns = bucket_low(i) + bucket_width(i) - 1;
            return static_cast<double>(std::clamp(highest_equivalent_ns, min_ns_, max_ns_));
        }
    }
    return static_cast<double>(max_ns_);
}

}  // namespace sctp_perf
