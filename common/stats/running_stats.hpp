// SPDX-License-Identifier: Apache-2.0
#pragma once
// Count, minimum, maximum, mean and sample variance of a stream of values,
// in constant memory.
//
// Welford's update is used instead of the sum-of-squares formula: with
// microsecond round trips around 10^4 and a million samples, sum(x^2) - n*mean^2
// cancels catastrophically, while Welford's running deviation stays exact enough.

#include <algorithm>
#include <cstdint>
#include <limits>

namespace sctp_perf {

class running_stats {
  public:
    // Adds one value, in whatever unit the caller uses throughout (the
    // latency_recorder uses microseconds); the summaries come back in that
    // unit, the variance in its square. Any finite value is legal and none is
    // out of range; a NaN or infinity makes the mean and variance meaningless.
    // Returns nothing: every value is counted.
    void add(double value) noexcept {
        ++count_;
        const double delta = value - mean_;
        mean_ += delta / static_cast<double>(count_);
        sum_squared_deviation_ += delta * (value - mean_);
        min_ = std::min(min_, value);
        max_ = std::max(max_, value);
    }

    // Adds every value `other` was given, as if each had been added here:
    // Chan, Golub and LeVeque's pairwise update, exact but for rounding. With
    // n_a and n_b values, means m_a and m_b and delta = m_b - m_a, the mean
    // becomes m_a + delta n_b / n and the squared deviations add up to
    // M_a + M_b + delta^2 n_a n_b / n (n = n_a + n_b). Example: {1, 3} and
    // {5}: delta = 5 - 2 = 3, mean 2 + 3 / 3 = 3, M = 2 + 0 + 9 * 2 / 3 = 8,
    // which are {1, 3, 5}'s mean and squared deviations.
    void merge(const running_stats& other) noexcept {
        if (other.count_ == 0) {
            return;
        }
        if (count_ == 0) {
            *this = other;
            return;
        }
        const auto n_a = static_cast<double>(count_);
        const auto n_b = static_cast<double>(other.count_);
        const double n = n_a + n_b;
        const double delta = other.mean_ - mean_;
        mean_ += delta * n_b / n;
        sum_squared_deviation_ += other.sum_squared_deviation_ + delta * delta * n_a * n_b / n;
        count_ += other.count_;
        min_ = std::min(min_, other.min_);
        max_ = std::max(max_, other.max_);
    }

    std::uint64_t count() const noexcept { return count_; }
    // Undefined (NaN) when no value was added.
    double min() const noexcept { return count_ ? min_ : std::numeric_limits<double>::quiet_NaN(); }
    double max() const noexcept { return count_ ? max_ : std::numeric_limits<double>::quiet_NaN(); }
    double mean() const noexcept {
        return count_ ? mean_ : std::numeric_limits<double>::quiet_NaN();
    }
    // Sample variance (divides by n - 1). One value has no spread: 0, not NaN.
    double sample_variance() const noexcept {
        return count_ < 2 ? 0.0 : sum_squared_deviation_ / static_cast<double>(count_ - 1);
    }

  private:
    std::uint64_t count_ = 0;
    double mean_ = 0.0;
    double sum_squared_deviation_ = 0.0;
    double min_ = std::numeric_limits<double>::infinity();
    double max_ = -std::numeric_limits<double>::infinity();
};

}  // namespace sctp_perf
