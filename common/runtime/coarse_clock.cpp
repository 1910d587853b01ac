// SPDX-License-Identifier: Apache-2.0
#include "runtime/coarse_clock.hpp"

#include <time.h>

#include <type_traits>

namespace sctp_perf {
namespace {

using clock = std::chrono::steady_clock;

// Two ticks of the coarse clock, or none when it cannot be read: read once.
std::chrono::nanoseconds coarse_lead() noexcept {
    timespec resolution{};
    if (::clock_getres(CLOCK_MONOTONIC_COARSE, &resolution) != 0) {
        return std::chrono::nanoseconds(-1);
    }
    return 2 *
           (std::chrono::seconds(resolution.tv_sec) + std::chrono::nanoseconds(resolution.tv_nsec));
}

}  // namespace

clock::time_point steady_now_not_before() noexcept {
    // libstdc++'s steady_clock is CLOCK_MONOTONIC, the coarse clock's timeline.
    static_assert(std::is_same_v<clock::duration, std::chrono::nanoseconds>);
    static const auto lead = coarse_lead();
    timespec now{};
    if (lead.count() < 0 || ::clock_gettime(CLOCK_MONOTONIC_COARSE, &now) != 0) {
        return clock::now();
    }
    return clock::time_point(std::chrono::seconds(now.tv_sec) +
                             std::chrono::nanoseconds(now.tv_nsec) + lead);
}

}  // namespace sctp_perf
