// SPDX-License-Identifier: Apache-2.0
// The cheap read of the steady clock a lone ping-pong session times its
// client's silence with: on the steady clock's timeline, never more than two
// ticks of the kernel's coarse clock after an exact read that follows it.

#include "runtime/coarse_clock.hpp"

#include <time.h>

#include <catch2/catch.hpp>
#include <thread>

using namespace sctp_perf;
using namespace std::chrono_literals;

TEST_CASE("coarse clock: on the steady clock, at most two ticks ahead", "[runtime]") {
    timespec resolution{};
    REQUIRE(::clock_getres(CLOCK_MONOTONIC_COARSE, &resolution) == 0);
    const auto two_ticks = 2 * (std::chrono::seconds(resolution.tv_sec) +
                                std::chrono::nanoseconds(resolution.tv_nsec));
    int not_early = 0;
    for (int i = 0; i < 50; ++i) {
        const auto before = std::chrono::steady_clock::now();
        const auto cheap = steady_now_not_before();
        const auto after = std::chrono::steady_clock::now();
        // The coarse clock is behind the exact one, by under a tick while
        // the kernel keeps its ticks: moved two ticks on, it reads no later
        // than an exact read after it plus those two ticks, and no earlier
        // than an exact read before it. A loaded virtual machine can run a
        // tick late, so that bound is held only by most reads, while a
        // coarse reading not moved on would hold it almost never, and one
        // of another clock (the wall clock) would break the first bound.
        CHECK(cheap <= after + two_ticks);
        CHECK(cheap >= before - 1s);
        not_early += cheap >= before ? 1 : 0;
        std::this_thread::sleep_for(1ms);
    }
    CHECK(not_early >= 25);
}
