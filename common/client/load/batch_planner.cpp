// SPDX-License-Identifier: Apache-2.0
#include "client/load/batch_planner.hpp"

#include <algorithm>
#include <cmath>

namespace sctp_perf {

tick_grid::clock::time_point tick_grid::tick_of(clock::time_point due) const noexcept {
    if (due <= t0_) {
        return due;
    }
    // Long double keeps whole nanoseconds exact for any tick a run reaches,
    // as in send_schedule.
    const auto offset_ns = static_cast<long double>((due - t0_).count());
    const long double start_ns = std::floor(offset_ns / period_ns_) * period_ns_;
    return t0_ + std::chrono::nanoseconds(static_cast<std::int64_t>(start_ns));
}

std::chrono::steady_clock::time_point next_send_due(const send_schedule& schedule,
                                                    const tick_grid* ticks) noexcept {
    const auto due = schedule.next_due();
    return ticks != nullptr ? ticks->tick_of(due) : due;
}

std::size_t plan_batch(send_schedule& schedule, const tick_grid* ticks,
                       std::chrono::steady_clock::time_point now, const batch_bounds& bounds,
                       std::vector<std::chrono::steady_clock::time_point>& dues) {
    const auto most = static_cast<std::size_t>(std::min<std::uint64_t>(bounds.most, bounds.left));
    std::size_t taken = 0;
    while (taken < most) {
        if (schedule.paced() && schedule.next_due() >= bounds.stop_at) {
            break;
        }
        const auto due = next_send_due(schedule, ticks);
        if (schedule.paced() && due > now) {
            break;
        }
        dues.push_back(due);
        schedule.advance();
        ++taken;
    }
    return taken;
}

}  // namespace sctp_perf
