// SPDX-License-Identifier: Apache-2.0
#include "stats/clock_offset.hpp"

namespace sctp_perf {

clock_offset_estimate estimate_of(const round_trip_times& t) noexcept {
    const std::int64_t sum = (t.t2_ns - t.t1_ns) + (t.t3_ns - t.t4_ns);
    // Halved toward minus infinity, so that a negative offset rounds as a
    // positive one does.
    const std::int64_t offset = sum >= 0 ? sum / 2 : -((-sum + 1) / 2);
    return {offset, (t.t4_ns - t.t1_ns) - (t.t3_ns - t.t2_ns)};
}

void clock_offset_estimator::add(const round_trip_times& times) noexcept {
    const auto estimate = estimate_of(times);
    if (!best_ || estimate.delay_ns < best_->delay_ns) {
        best_ = estimate;
    }
}

}  // namespace sctp_perf
