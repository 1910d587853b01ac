// SPDX-License-Identifier: Apache-2.0
// The interval collector: the main thread must be able to take every
// interval and see the run drain, whatever point a worker fails at. A
// worker that fails hands in its last part for the interval it was in,
// which the main thread may already have taken; before the collector
// moved such a part on, the run never drained and the client hung.

#include "client/load/interval_collector.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <vector>

using namespace sctp_perf;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

// A worker's sink holding `sent` messages of the current interval.
sample_sink part_of(std::uint64_t sent) {
    sample_sink sink;
    sink.interval_sent = sent;
    sink.interval_replies = sent;
    for (std::uint64_t i = 0; i < sent; ++i) {
        sink.corrected_interval.record(1000);
    }
    return sink;
}

void hand_in(interval_collector& collector, std::uint64_t index, std::uint64_t sent) {
    auto sink = part_of(sent);
    collector.hand_in(index, clock_type::time_point(std::chrono::seconds(index + 1)), sink);
    CHECK(sink.interval_sent == 0);  // cleared once handed in
}

void hand_in_last(interval_collector& collector, std::uint64_t index, std::uint64_t sent) {
    auto sink = part_of(sent);
    collector.hand_in_last(index, clock_type::time_point(std::chrono::seconds(index + 1)), sink);
}

// Takes what is complete, as the main thread does, in a bounded number of
// steps (a run that cannot drain ends the test instead of hanging it).
std::vector<std::uint64_t> take_ready(interval_collector& collector) {
    std::vector<std::uint64_t> sent;
    for (int step = 0; step < 20 && !collector.drained(); ++step) {
        if (auto slot = collector.next(0ms)) {
            CHECK(slot->corrected.count() == slot->sent);
            sent.push_back(slot->sent);
        }
    }
    return sent;
}

}  // namespace

TEST_CASE("intervals: two workers that run to the end", "[load][intervals]") {
    interval_collector collector(2);
    hand_in(collector, 0, 10);
    hand_in(collector, 0, 20);
    hand_in(collector, 1, 1);
    hand_in_last(collector, 1, 2);
    hand_in_last(collector, 2, 5);  // its last, shorter part
    // 10 + 20, then 1 + 2, then 5 alone: the first worker is done by then.
    CHECK(take_ready(collector) == std::vector<std::uint64_t>{30, 3, 5});
    CHECK(collector.drained());
}

TEST_CASE("intervals: a worker that fails before any interval ends", "[load][intervals]") {
    interval_collector collector(2);
    hand_in_last(collector, 0, 3);
    hand_in(collector, 0, 10);
    hand_in_last(collector, 1, 4);
    CHECK(take_ready(collector) == std::vector<std::uint64_t>{13, 4});
    CHECK(collector.drained());
}

TEST_CASE("intervals: a worker that fails in an interval already taken", "[load][intervals]") {
    interval_collector collector(2);
    hand_in(collector, 0, 10);
    hand_in(collector, 0, 20);
    REQUIRE(take_ready(collector) == std::vector<std::uint64_t>{30});
    // The first worker fails and hands in for interval 0 again (what it
    // last passed): its part goes to interval 1, the oldest not taken.
    hand_in_last(collector, 0, 3);
    CHECK_FALSE(collector.drained());
    hand_in_last(collector, 1, 4);
    CHECK(take_ready(collector) == std::vector<std::uint64_t>{7});
    CHECK(collector.drained());
}

TEST_CASE("intervals: a worker that fails after interval N", "[load][intervals]") {
    interval_collector collector(2);
    for (std::uint64_t i = 0; i < 5; ++i) {
        hand_in(collector, i, 1);
        hand_in(collector, i, 2);
    }
    REQUIRE(take_ready(collector).size() == 5);
    hand_in_last(collector, 5, 7);  // fails in interval 5
    hand_in(collector, 5, 2);
    hand_in(collector, 6, 2);
    hand_in_last(collector, 7, 1);
    CHECK(take_ready(collector) == std::vector<std::uint64_t>{9, 2, 1});
    CHECK(collector.drained());
}

TEST_CASE("intervals: every worker fails", "[load][intervals]") {
    interval_collector collector(3);
    for (int w = 0; w < 3; ++w) {
        hand_in(collector, 0, 1);
    }
    REQUIRE(take_ready(collector) == std::vector<std::uint64_t>{3});
    // All three fail after interval 0 was taken, two of them still naming it.
    hand_in_last(collector, 0, 1);
    hand_in_last(collector, 1, 2);
    hand_in_last(collector, 0, 4);
    CHECK(take_ready(collector) == std::vector<std::uint64_t>{7});
    CHECK(collector.drained());
}

TEST_CASE("intervals: an empty run drains at once", "[load][intervals]") {
    interval_collector collector(1);
    hand_in_last(collector, 0, 0);
    CHECK(take_ready(collector) == std::vector<std::uint64_t>{0});
    CHECK(collector.drained());
}
