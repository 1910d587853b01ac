// SPDX-License-Identifier: Apache-2.0
// --reconnect's waits between attempts: doubling from 10 ms up to the
// longest wait, each drawn from the upper half of its value.
#include <catch2/catch.hpp>
#include <chrono>

#include "client/load/flow_reconnector.hpp"

using namespace sctp_perf;
using namespace std::chrono_literals;

TEST_CASE("reconnect wait: doubles from 10 ms up to the longest, from half of it to all") {
    // draw 0 gives half of the wait, draw 1 (never drawn, the limit) all of it.
    // After 0 failures: 10 ms, so 5..10 ms; after 3: 80 ms, 40..80 ms; after
    // 5: 320 ms, cut to the longest (200 ms), so 100..200 ms.
    CHECK(reconnect_wait(0, 200ms, 0.0) == 5ms);
    CHECK(reconnect_wait(0, 200ms, 1.0) == 10ms);
    CHECK(reconnect_wait(3, 200ms, 0.0) == 40ms);
    CHECK(reconnect_wait(3, 200ms, 0.5) == 60ms);
    CHECK(reconnect_wait(5, 200ms, 0.0) == 100ms);
    CHECK(reconnect_wait(5, 200ms, 1.0) == 200ms);
    // A longest wait below the first: 4 ms is 2..4 ms from the start.
    CHECK(reconnect_wait(0, 4ms, 0.0) == 2ms);
    // Past 13 doublings nothing overflows: 60 s is the most there is.
    CHECK(reconnect_wait(13, 60'000ms, 1.0) == 60'000ms);
    CHECK(reconnect_wait(4'000'000'000U, 60'000ms, 1.0) == 60'000ms);
    // A draw out of 0..1 is held to it.
    CHECK(reconnect_wait(0, 200ms, -3.0) == 5ms);
    CHECK(reconnect_wait(0, 200ms, 7.0) == 10ms);
}
