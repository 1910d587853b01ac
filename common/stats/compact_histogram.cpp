// SPDX-License-Identifier: Apache-2.0
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
    return layout::percentile_ns(buckets_, count_, min_ns_, max_ns_, parts_per_million);
}

}  // namespace sctp_perf
