// SPDX-License-Identifier: Apache-2.0
// Which summary statistics a set of samples defines: the one rule every
// report format follows (the text lines, CSV, JSON). A statistic the samples
// do not define is written as no number at all: "-" in text, an empty field
// in CSV, null in JSON. With no sample, no latency figure is defined (minimum,
// mean, maximum, percentiles, deviation); with one, every figure is that
// sample but the standard deviation, which divides by n - 1 and so needs two.
//
// The statistics classes themselves return 0 for an undefined deviation, so
// that arithmetic on them stays simple; the reports ask here before writing
// one. (An interval log of HdrHistogram's format carries no deviation: an
// interval with no sample is written there as an empty histogram whose
// maximum is 0.000, as that format's readers expect.)
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

#include "stats/log_linear_histogram.hpp"
#include "stats/running_stats.hpp"

namespace sctp_perf {

// The sample standard deviation needs two samples.
constexpr bool defines_deviation(std::uint64_t samples) noexcept {
    return samples >= 2;
}

// The sample standard deviation of `h` in microseconds, when defined.
inline std::optional<double> defined_stddev_us(const log_linear_histogram& h) {
    if (!defines_deviation(h.count())) {
        return std::nullopt;
    }
    return h.stddev_ns() / 1000.0;
}

// The sample variance of `s`, in the square of the unit of its values, when defined.
inline std::optional<double> defined_variance(const running_stats& s) {
    if (!defines_deviation(s.count())) {
        return std::nullopt;
    }
    return s.sample_variance();
}

// The sample standard deviation of `s`, in the unit of its values, when defined.
inline std::optional<double> defined_stddev(const running_stats& s) {
    const auto variance = defined_variance(s);
    if (!variance) {
        return std::nullopt;
    }
    return std::sqrt(*variance);
}

}  // namespace sctp_perf
