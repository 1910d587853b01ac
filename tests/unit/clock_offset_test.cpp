// SPDX-License-Identifier: Apache-2.0
// The clock-offset estimate (NTP's), the one-way split and the client's
// taking of the server's stamps, on hand-made timestamps whose arithmetic is in the comments.

#include "stats/clock_offset.hpp"

#include <catch2/catch.hpp>
#include <vector>

#include "client/one_way_timing.hpp"
#include "errors.hpp"
#include "stats/one_way_split.hpp"

using namespace sctp_perf;

TEST_CASE("clock offset: theta and delta of one round trip") {
    // The server's clock is 1000 ns ahead; 30 ns up, 5 ns in the server, 50 ns down.
    //   t1 = 0, t2 = 0 + 30 + 1000 = 1030, t3 = 1035, t4 = 30 + 5 + 50 = 85
    //   theta = ((1030 - 0) + (1035 - 85)) / 2 = (1030 + 950) / 2 = 990
    //   delta = (85 - 0) - (1035 - 1030) = 80
    // The true offset, 1000, is within theta +- delta / 2 = 990 +- 40.
    const auto e = estimate_of({0, 1030, 1035, 85});
    CHECK(e.offset_ns == 990);
    CHECK(e.delay_ns == 80);
    CHECK(e.uncertainty_ns() == 40);
    // Symmetric paths (40 up, 40 down) give the offset exactly:
    //   t2 = 1040, t3 = 1045, t4 = 85: theta = (1040 + 960) / 2 = 1000
    CHECK(estimate_of({0, 1040, 1045, 85}).offset_ns == 1000);
    // A server behind: -7 ns, 10 up, 0 in the server, 10 down:
    //   t2 = 3, t3 = 3, t4 = 20: theta = (3 + -17) / 2 = -7, delta = 20
    const auto behind = estimate_of({0, 3, 3, 20});
    CHECK(behind.offset_ns == -7);
    CHECK(behind.delay_ns == 20);
    // An odd sum rounds toward minus infinity: (3 + -18) / 2 = -7.5 -> -8;
    // an odd delta's uncertainty rounds up: 21 -> 11.
    const auto odd = estimate_of({0, 3, 3, 21});
    CHECK(odd.offset_ns == -8);
    CHECK(odd.uncertainty_ns() == 11);
}

TEST_CASE("clock offset: the round trip of least delay is kept") {
    clock_offset_estimator estimator;
    CHECK_FALSE(estimator.best().has_value());
    estimator.add({0, 1030, 1035, 85});     // delta 80, theta 990
    estimator.add({100, 1120, 1121, 150});  // delta 50 - 1 = 49, theta (1020 + 971) / 2 = 995
    estimator.add({200, 1300, 1301, 400});  // delta 199: not kept
    REQUIRE(estimator.best().has_value());
    CHECK(estimator.best()->delay_ns == 49);
    CHECK(estimator.best()->offset_ns == 995);
}

TEST_CASE("one-way split: the parts add up to the round trip") {
    SECTION("one host: one clock, no shift") {
        one_way_split split;
        server_clock_mapping one_host;
        split.note_clocks(one_host);
        // Sent at 1000, arrived 1030, left 1035, back at 1085: 30 + 5 + 50 = 85.
        split.record(1000, 1030, 1035, 1085, *one_host.server_to_client_ns());
        CHECK(split.client_to_server().max_ns() == 30);
        CHECK(split.turnaround().max_ns() == 5);
        CHECK(split.server_to_client().max_ns() == 50);
        CHECK(split.negative_parts() == 0);
    }
    SECTION("two hosts: the server's stamps moved by the gap and the offset") {
        // The server's realtime-minus-monotonic exceeds the client's by
        // 1'000'000; its realtime clock is 200 ahead of the client's. So a
        // server stamp s is at s + 1'000'000 - 200 on the client's clock.
        server_clock_mapping two_hosts;
        two_hosts.same_host = false;
        two_hosts.realtime_gap_ns = 1'000'000;
        CHECK_FALSE(two_hosts.server_to_client_ns().has_value());
        two_hosts.offset = clock_offset_estimate{200, 80};
        REQUIRE(two_hosts.server_to_client_ns() == 999'800);
        one_way_split split;
        split.note_clocks(two_hosts);
        // Client: sent 0, back 85. Server stamps: 30 - 999'800 and 35 - 999'800.
        split.record(0, 30 - 999'800, 35 - 999'800, 85, 999'800);
        CHECK(split.client_to_server().max_ns() == 30);
        CHECK(split.turnaround().max_ns() == 5);
        CHECK(split.server_to_client().max_ns() == 50);
        CHECK(split.clocks.offset->offset_ns == 200);
    }
    SECTION("a part below 0 is counted, and recorded as 0") {
        one_way_split split;
        // Arrival stamped 10 before the send: client->server -10.
        split.record(100, 90, 95, 150, 0);
        CHECK(split.negative_parts() == 1);
        CHECK(split.client_to_server().max_ns() == 0);
    }
    SECTION("merged runs keep the offset of the shortest round trip") {
        server_clock_mapping a;
        a.same_host = false;
        a.offset = clock_offset_estimate{100, 80};
        server_clock_mapping b = a;
        b.offset = clock_offset_estimate{120, 40};
        one_way_split first;
        first.note_clocks(a);
        one_way_split second;
        second.note_clocks(b);
        first.merge(second);
        CHECK(first.clocks.offset->delay_ns == 40);
        CHECK(first.clocks.offset->offset_ns == 120);
    }
}

TEST_CASE("one-way timing: two hosts, the offset fixed from the round trips before measuring") {
    using clock = one_way_timing::clock;
    using std::chrono::nanoseconds;
    // The server's realtime-minus-monotonic exceeds the client's by 5000 ns,
    // and its realtime clock is 1000 ns ahead of the client's: a server
    // monotonic stamp s is at s + 5000 - 1000 = s + 4000 on the client's
    // monotonic clock, so an event at client time c is stamped c - 4000.
    const one_way_clocks two_hosts{false, 5000};
    one_way_timing timing(protocol::test_mode::ping_pong, two_hosts);
    const auto reply_at = [](std::int64_t arrival_client_ns, std::int64_t departure_client_ns) {
        std::vector<std::byte> reply(
            protocol::min_reply_bytes(protocol::test_mode::ping_pong, true));
        protocol::encode_server_stamp(static_cast<std::uint64_t>(arrival_client_ns - 4000),
                                      std::span(reply).subspan(1, 8));
        protocol::encode_server_stamp(static_cast<std::uint64_t>(departure_client_ns - 4000),
                                      std::span(reply).subspan(9, 8));
        return reply;
    };
    const auto at = [](std::int64_t ns) { return clock::time_point(nanoseconds(ns)); };
    one_way_split split;
    // Primer: 50 up, 10 in the server, 50 down (symmetric: theta exact, 1000;
    // delta 100). Then a slower one, 300 up, 10, 100 down: delta 400, not kept.
    timing.take(at(10'000), at(10'110), reply_at(10'050, 10'060), false, &split);
    timing.take(at(20'000), at(20'410), reply_at(20'300, 20'310), false, &split);
    CHECK(split.turnaround().count() == 0);  // nothing recorded before measuring
    // Measured: 70 up, 20 in the server, 30 down. Split with theta 1000:
    // client->server 70, turnaround 20, server->client 30 (sum 120 = t4 - t1).
    timing.take(at(30'000), at(30'120), reply_at(30'070, 30'090), true, &split);
    CHECK(split.client_to_server().max_ns() == 70);
    CHECK(split.turnaround().max_ns() == 20);
    CHECK(split.server_to_client().max_ns() == 30);
    REQUIRE(split.clocks.offset.has_value());
    CHECK(split.clocks.offset->offset_ns == 1000);
    CHECK(split.clocks.offset->delay_ns == 100);
    CHECK_FALSE(split.clocks.same_host);
    // A reply stamped as leaving before its request arrived is the server's error.
    CHECK_THROWS_AS(timing.take(at(40'000), at(40'100), reply_at(40'050, 40'040), true, &split),
                    peer_error);
}
