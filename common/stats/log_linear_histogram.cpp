// SPDX-License-Identifier: Apache-2.0
#include "stats/log_linear_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace sctp_perf {

log_linear_histogram::log_linear_histogram() : buckets_(bucket_total, 0) {}

void log_linear_histogram::merge(const log_linear_histogram& other) noexcept {
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
        buckets_[i] += other.buckets_[i];
    }
    count_ += other.count_;
    beyond_range_ += other.beyond_range_;
    min_ns_ = std::min(min_ns_, other.min_ns_);
    max_ns_ = std::max(max_ns_, other.max_ns_);
    sum_ns_ += other.sum_ns_;
    sum_squares_ns2_ += other.sum_squares_ns2_;
}

bool log_linear_histogram::record_bucket(std::size_t index, std::uint64_t count) noexcept {
    if (index >= buckets_.size() || count > UINT64_MAX - count_) {
        return false;
    }
    if (count == 0) {
        return true;
    }
    const std::uint64_t low_ns = bucket_low(index);
    const std::uint64_t width_ns = bucket_width(index);
    const std::uint64_t middle_ns = low_ns + width_ns / 2;
    buckets_[index] += count;
    count_ += count;
    min_ns_ = std::min(min_ns_, low_ns);
    max_ns_ = std::max(max_ns_, low_ns + width_ns - 1);
    sum_ns_ += count * middle_ns;
    sum_squares_ns2_ += wide_sum{count} * middle_ns * middle_ns;
    return true;
}

bool log_linear_histogram::restore_extremes(std::uint64_t min_ns, std::uint64_t max_ns) noexcept {
    if (count_ == 0 || min_ns > max_ns || bucket_index(min_ns) != bucket_index(min_ns_) ||
        bucket_index(max_ns) != bucket_index(max_ns_)) {
        return false;
    }
    min_ns_ = min_ns;
    max_ns_ = max_ns;
    return true;
}

void log_linear_histogram::reset() noexcept {
    std::fill(buckets_.begin(), buckets_.end(), 0);
    count_ = 0;
    min_ns_ = UINT64_MAX;
    max_ns_ = 0;
    beyond_range_ = 0;
    sum_ns_ = 0;
    sum_squares_ns2_ = 0;
}

double log_linear_histogram::mean_ns() const noexcept {
    return count_ == 0 ? 0.0 : static_cast<double>(sum_ns_) / static_cast<double>(count_);
}

double log_linear_histogram::stddev_ns() const noexcept {
    if (count_ < 2) {
        return 0.0;
    }
    // The sum of squared deviations is Q - S^2/n (S the sum, Q the sum of
    // squares). Rounded to double that difference would lose everything for
    // round trips of 20 ms +- 10 ns, so it is taken in integers. With
    // S = q*n + r (0 <= r < n), S^2/n = q^2*n + 2*q*r + r^2/n, and
    // r^2 = a*n + b (0 <= b < n), the deviations sum to
    // (Q - q^2*n - 2*q*r - a) - b/n. The integer part is exact; no term
    // exceeds Q (as S^2/n <= Q), so none overflows; only b/n < 1 is
    // fractional. Example: 1 and 2 ns give n = 2, S = 3, Q = 5, q = 1, r = 1,
    // a = 0, b = 1: (5 - 2 - 2 - 0) - 1/2 = 0.5.
    const wide_sum n = count_;
    const wide_sum q = sum_ns_ / count_;
    const wide_sum r = sum_ns_ % count_;
    const wide_sum r_squared = r * r;
    const wide_sum whole_deviation = sum_squares_ns2_ - q * q * n - 2 * q * r - r_squared / n;
    const double squared_deviation_ns2 =
        static_cast<double>(whole_deviation) -
        static_cast<double>(r_squared % n) / static_cast<double>(count_);
    return std::sqrt(squared_deviation_ns2 / static_cast<double>(count_ - 1));
}

double log_linear_histogram::percentile_ns(std::uint32_t parts_per_million) const noexcept {
    return layout::percentile_ns(buckets_, 0, count_, min_ns_, max_ns_, parts_per_million);
}

}  // namespace sctp_perf
