// SPDX-License-Identifier: Apache-2.0
#include "stats/compact_histogram.hpp"

#include <algorithm>
#include <utility>

namespace sctp_perf {

compact_histogram::compact_histogram() = default;

void compact_histogram::cover(std::size_t index) noexcept {
    if (index - first_ < buckets_.size()) {
        return;  // kept already (merge asks for both ends of the other's range)
    }
    const std::size_t low = index / group * group;
    const std::size_t high = low + group;  // one past the group's last bucket
    if (buckets_.empty()) {
        buckets_.assign(high - low, 0);
        first_ = low;
        return;
    }
    const std::size_t new_first = std::min(first_, low);
    const std::size_t new_end = std::max(first_ + buckets_.size(), high);
    std::vector<std::uint64_t> wider(new_end - new_first, 0);
    std::copy(buckets_.begin(), buckets_.end(),
              wider.begin() + static_cast<std::ptrdiff_t>(first_ - new_first));
    buckets_ = std::move(wider);
    first_ = new_first;
}

void compact_histogram::merge(const compact_histogram& other) noexcept {
    if (!other.buckets_.empty()) {
        cover(other.first_);
        cover(other.first_ + other.buckets_.size() - 1);
        for (std::size_t i = 0; i < other.buckets_.size(); ++i) {
            buckets_[other.first_ + i - first_] += other.buckets_[i];
        }
    }
    count_ += other.count_;
    beyond_range_ += other.beyond_range_;
    min_ns_ = std::min(min_ns_, other.min_ns_);
    max_ns_ = std::max(max_ns_, other.max_ns_);
}

double compact_histogram::percentile_ns(std::uint32_t parts_per_million) const noexcept {
    return layout::percentile_ns(buckets_, first_, count_, min_ns_, max_ns_, parts_per_million);
}

}  // namespace sctp_perf
