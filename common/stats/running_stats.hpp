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
