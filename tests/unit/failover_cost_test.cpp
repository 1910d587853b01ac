// SPDX-License-Identifier: Apache-2.0
// The failure's cost from replies small enough to check by hand.
#include "stats/failover_cost.hpp"

#include <catch2/catch.hpp>

using namespace sctp_perf;

namespace {

constexpr std::int64_t ms = 1'000'000;

// Path 1 until the fault at 10 ms, path 2 after, path 1 again after the
// undoing at 50 ms (start, arrival, path; in ms):
//   a 0 1 p1 (latency 1)   b 2 3 p1 (1)   c 4 6 p1 (2)   d 8 9 p1 (1)
//   e 10 30 p2 (20)        f 12 31 p2 (19) g 32 33 p2 (1) h 50 51 p2 (1)
//   i 52 60 p1 (8)
// Given out of order: the figures sort by arrival.
std::vector<reply_sample> replies() {
    return {{52 * ms, 60 * ms, 1}, {0, 1 * ms, 1},        {2 * ms, 3 * ms, 1},
            {4 * ms, 6 * ms, 1},   {8 * ms, 9 * ms, 1},   {10 * ms, 30 * ms, 2},
            {12 * ms, 31 * ms, 2}, {32 * ms, 33 * ms, 2}, {50 * ms, 51 * ms, 2}};
}

}  // namespace

TEST_CASE("measure_failover_cost: each figure of a fault given and undone") {
    const auto c = measure_failover_cost(replies(), {10 * ms, 50 * ms});
    CHECK(c.fault_ns == 10 * ms);
    CHECK_FALSE(c.fault_inferred);
    CHECK(c.fault_path == 1);  // d, the last reply before the fault, came on path 1
    // e, on path 2, arrived at 30: 20 ms after the fault.
    REQUIRE(c.other_path_reply_ns.has_value());
    CHECK(*c.other_path_reply_ns == 20 * ms);
    // i, on path 1 again, at 60: 10 ms after the undoing at 50.
    REQUIRE(c.back_on_path_ns.has_value());
    CHECK(*c.back_on_path_ns == 10 * ms);
    // Arrivals 1 3 6 9 30 31 33 51 60: gaps 2 3 3 21 1 2 18 9; the longest 9 -> 30.
    REQUIRE(c.longest_gap.has_value());
    CHECK(c.longest_gap->from_ns == 9 * ms);
    CHECK(c.longest_gap->to_ns == 30 * ms);
    // Before the fault: latencies 1 1 2 1; nearest rank ceil(0.999 * 4) = 4
    // of 1 1 1 2 is 2 ms.
    CHECK(c.unfaulted_replies == 4);
    REQUIRE(c.unfaulted_p999_ns.has_value());
    CHECK(*c.unfaulted_p999_ns == 2 * ms);
    // After: e 20, f 19, g 1, h 1, i 8: three above 2 ms.
    CHECK(c.later_replies == 5);
    CHECK(c.later_slower_than_p999 == 3);
    // Path 1: a b c d i; path 2: e f g h.
    CHECK(c.replies_per_path == std::vector<std::uint64_t>{0, 5, 4});
}

TEST_CASE("measure_failover_cost: without a fault, the first request left unanswered") {
    // The replies that came once the longest gap (9 -> 30) had ended began
    // at 10, 12, 32, 50 and 52: the fault is put at 10, as --at had it.
    const auto c = measure_failover_cost(replies(), {});
    CHECK(c.fault_inferred);
    CHECK(c.fault_ns == 10 * ms);
    CHECK(c.fault_path == 1);
    CHECK(c.later_slower_than_p999 == 3);
    CHECK_FALSE(c.back_on_path_ns.has_value());  // nothing was undone
}

TEST_CASE("measure_failover_cost: replies that never leave the faulted path") {
    // A fault that silenced the requests only: the replies stay on path 1.
    const std::vector<reply_sample> one_path = {
        {0, 1 * ms, 1}, {2 * ms, 3 * ms, 1}, {4 * ms, 40 * ms, 1}, {41 * ms, 42 * ms, 1}};
    const auto c = measure_failover_cost(one_path, {3 * ms, 20 * ms});
    CHECK(c.fault_path == 1);
    CHECK_FALSE(c.other_path_reply_ns.has_value());
    CHECK_FALSE(c.back_on_path_ns.has_value());  // it never left
    REQUIRE(c.longest_gap.has_value());
    CHECK(c.longest_gap->length_ns() == 37 * ms);  // 3 -> 40
}

TEST_CASE("measure_failover_cost: unknown paths (TCP) and no replies") {
    const std::vector<reply_sample> tcp = {{0, 1 * ms, 0}, {2 * ms, 9 * ms, 0}};
    const auto c = measure_failover_cost(tcp, {2 * ms, std::nullopt});
    CHECK(c.fault_path == 0);
    CHECK_FALSE(c.other_path_reply_ns.has_value());
    CHECK(c.unfaulted_replies == 1);
    CHECK(c.later_slower_than_p999 == 1);  // 7 ms against 1 ms

    const auto none = measure_failover_cost({}, {5 * ms, std::nullopt});
    CHECK(none.fault_ns == 5 * ms);
    CHECK_FALSE(none.longest_gap.has_value());
    CHECK_FALSE(none.unfaulted_p999_ns.has_value());
    CHECK(none.later_replies == 0);
}

TEST_CASE("measure_failover_cost: p99.9 by nearest rank over 2000 replies") {
    // Latencies 1..2000 us before the fault at 10 s: rank ceil(0.999 * 2000)
    // = 1998, so p99.9 is 1998 us and two of them (1999, 2000) lie above;
    // then one reply of 1999 us after the fault.
    std::vector<reply_sample> r;
    for (std::int64_t k = 1; k <= 2000; ++k) {
        r.push_back({k * ms, k * ms + k * 1000, 1});
    }
    r.push_back({11'000 * ms, 11'000 * ms + 1999 * 1000, 1});
    const auto c = measure_failover_cost(r, {10'000 * ms, std::nullopt});
    REQUIRE(c.unfaulted_p999_ns.has_value());
    CHECK(*c.unfaulted_p999_ns == 1998 * 1000);
    CHECK(c.later_replies == 1);
    CHECK(c.later_slower_than_p999 == 1);
}
