// SPDX-License-Identifier: Apache-2.0
// --timestamps under load: a flow's transmit stamps matched to its timed
// requests by the offset of their last byte, and its replies' arrival
// stamps taken only when a read brought the reply alone
// (client/load/flow_stamps.hpp).

#include "client/load/flow_stamps.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>

#include "runtime/clock_relation.hpp"

using namespace sctp_perf;

namespace {

using steady = std::chrono::steady_clock;
using std::chrono::microseconds;

// A stamp of the device's handing over at `at`, keyed by the offset of the
// last byte of the send it stamps.
transmit_stamp stamp_handed_at(std::uint32_t key, std::int64_t at_ns) {
    return {key, transmit_stamp::point::handed_to_device, at_ns};
}

// Moments of one made-up round trip, the application's on the steady
// clock and the kernel's on CLOCK_REALTIME, `sent` the send call's.
struct made_up_round_trip {
    steady::time_point sent = steady::now();
    std::int64_t offset_ns = realtime_minus_monotonic_ns();
    std::int64_t real(steady::time_point t) const { return ns_since_epoch(t) + offset_ns; }
    std::int64_t real_after(microseconds us) const { return real(sent + us); }
};

// The split's one send stack (t2 - t0), in us: within the 1 us that the
// test's and the flow's reads of the clocks' offset may differ.
double split_send_stack_us(const round_trip_split& split) {
    return static_cast<double>(split.send_stack().max_ns()) / 1000.0;
}

}  // namespace

TEST_CASE("a timed request takes the stamp of the call that took its last byte",
          "[timestamps][load]") {
    const made_up_round_trip m;
    SECTION("two requests of one batch call take the call's stamp, the batch's last byte's") {
        // 20-byte requests 7 and 8 in one call: their last bytes are the
        // stream's 20th and 40th, keys 19 and 39; the call is stamped at 39.
        flow_stamps stamps(true);
        stamps.took(40);
        stamps.awaits(7, 20);
        stamps.awaits(8, 40);
        stamps.take(stamp_handed_at(39, m.real_after(microseconds(100))));
        round_trip_split split(true);
        stamps.reply(7, m.sent, m.sent + microseconds(300), m.real_after(microseconds(250)), false,
                     nullptr, true, split);
        stamps.reply(8, m.sent, m.sent + microseconds(300), m.real_after(microseconds(250)), false,
                     nullptr, true, split);
        CHECK(split.split_count() == 2);
        CHECK(split.missing_stamps() == 0);
        CHECK(split_send_stack_us(split) == Approx(100).margin(1.5));
    }
    SECTION("a request taken in two calls takes the second call's stamp, not the first's") {
        flow_stamps stamps(true);
        stamps.took(5);  // the first five of its ten bytes: stamped at key 4
        stamps.take(stamp_handed_at(4, m.real_after(microseconds(10))));
        stamps.took(5);
        stamps.awaits(1, 10);
        stamps.take(stamp_handed_at(9, m.real_after(microseconds(200))));
        round_trip_split split(true);
        stamps.reply(1, m.sent, m.sent + microseconds(400), m.real_after(microseconds(300)), false,
                     nullptr, true, split);
        CHECK(split.split_count() == 1);
        CHECK(split_send_stack_us(split) == Approx(200).margin(1.5));
    }
    SECTION("a stamp before every awaited byte (a call of untimed messages) is passed over") {
        flow_stamps stamps(true);
        stamps.took(16);  // untimed
        stamps.take(stamp_handed_at(15, m.real_after(microseconds(5))));
        stamps.took(16);
        stamps.awaits(2, 32);
        round_trip_split split(true);
        stamps.reply(2, m.sent, m.sent + microseconds(400), m.real_after(microseconds(300)), false,
                     nullptr, true, split);
        CHECK(split.split_count() == 0);
        CHECK(split.missing_by_stamp().client_transmit == 1);
    }
    SECTION("keys wrap at 2^32: a stamp just past the wrap reaches a byte just before it") {
        flow_stamps stamps(true);
        const std::uint64_t near_wrap = (std::uint64_t{1} << 32) - 8;
        stamps.took(near_wrap);
        stamps.took(16);
        stamps.awaits(3, near_wrap + 4);   // key 2^32 - 5
        stamps.awaits(4, near_wrap + 16);  // key 7, past the wrap
        stamps.take(stamp_handed_at(7, m.real_after(microseconds(50))));
        round_trip_split split(true);
        stamps.reply(3, m.sent, m.sent + microseconds(400), m.real_after(microseconds(300)), false,
                     nullptr, true, split);
        stamps.reply(4, m.sent, m.sent + microseconds(400), m.real_after(microseconds(300)), false,
                     nullptr, true, split);
        CHECK(split.split_count() == 2);
        CHECK(split_send_stack_us(split) == Approx(50).margin(1.5));
    }
}

TEST_CASE("a reply forgets its request's stamp and those of requests never answered",
          "[timestamps][load]") {
    const made_up_round_trip m;
    flow_stamps stamps(true);
    stamps.took(30);
    stamps.awaits(1, 10);
    stamps.awaits(2, 20);
    stamps.awaits(3, 30);
    stamps.take(stamp_handed_at(29, m.real_after(microseconds(20))));
    CHECK(stamps.kept() == 3);
    round_trip_split split(true);
    // Request 2's reply never comes: 3's drops it with 1's.
    stamps.reply(1, m.sent, m.sent + microseconds(100), m.real_after(microseconds(90)), false,
                 nullptr, true, split);
    stamps.reply(3, m.sent, m.sent + microseconds(100), m.real_after(microseconds(90)), false,
                 nullptr, true, split);
    CHECK(stamps.kept() == 0);
    CHECK(split.split_count() == 2);
    // A later stamp (a retransmission's) finds nothing awaiting it.
    stamps.take(stamp_handed_at(29, m.real_after(microseconds(40))));
    CHECK(stamps.kept() == 0);
}

TEST_CASE("a reply read with more than itself is counted missing its arrival stamp, said apart",
          "[timestamps][load]") {
    const made_up_round_trip m;
    flow_stamps stamps(false);  // SCTP: no transmit stamps awaited
    stamps.awaits(1, 16);
    CHECK(stamps.kept() == 0);
    round_trip_split split(false);
    stamps.reply(1, m.sent, m.sent + microseconds(100), 0, true, nullptr, true, split);
    stamps.reply(2, m.sent, m.sent + microseconds(100), m.real_after(microseconds(80)), false,
                 nullptr, true, split);
    // A warm-up reply is matched but not recorded.
    stamps.reply(3, m.sent, m.sent + microseconds(100), 0, true, nullptr, false, split);
    CHECK(split.split_count() == 1);
    CHECK(split.missing_stamps() == 1);
    CHECK(split.missing_by_stamp().client_arrival == 1);
    CHECK(split.shared_reads == 1);
    CHECK(split.send_stack_and_beyond().count() == 1);
}

TEST_CASE("with the server's transmit stamps a round trip waits for the flow's next reply",
          "[timestamps][load]") {
    const made_up_round_trip m;
    // The server's stamps are its own steady clock's nanoseconds; only
    // their differences count. Reply 1: t3 4,990 us, t4 5,000, t5 5,020; it
    // left the server's device at 5,030 us, which reply 2 brings.
    const auto us = [](std::uint64_t n) { return n * 1000; };
    const protocol::server_stamps first{us(5000), us(5020), us(4990), 0};
    const protocol::server_stamps second{us(6000), us(6020), us(5990), us(5030)};
    flow_stamps stamps(true, true);
    round_trip_split split(true, true, true);
    stamps.took(20);
    stamps.awaits(1, 20);
    stamps.take(stamp_handed_at(19, m.real_after(microseconds(10))));
    // Request 1: t0 = sent, t2 = t0 + 10 us, t7 = t0 + 90, t8 = t0 + 100.
    stamps.reply(1, m.sent, m.sent + microseconds(100), m.real_after(microseconds(90)), false,
                 &first, true, split);
    CHECK(split.split_count() == 0);  // it waits for reply 2
    CHECK(split.missing_stamps() == 0);
    stamps.took(20);
    stamps.awaits(2, 40);
    stamps.take(stamp_handed_at(39, m.real_after(microseconds(10))));
    stamps.reply(2, m.sent, m.sent + microseconds(100), m.real_after(microseconds(90)), false,
                 &second, true, split);
    // Round trip 1, split: client send stack 10; server residence t6 - t3 =
    // 40 (wake-up 10, application 20, send stack t6 - t5 = 10); network
    // (t7 - t2) - 40 = 80 - 40 = 40; client receive stack 10: 100 in all.
    REQUIRE(split.split_count() == 1);
    CHECK(split.server_send_stack().max_ns() == Approx(10000).margin(100));
    CHECK(split.server_wake_up().max_ns() == Approx(10000).margin(100));
    CHECK(static_cast<double>(split.beyond_client().max_ns()) == Approx(40000).margin(1500));
    SECTION("the end-of-test reply brings the last one's; a 0 counts that stamp missing") {
        // Reply 2's predecessor went in the same send call of the server: 0.
        const protocol::server_stamps end{us(7000), us(7020), us(6990), 0};
        stamps.end_reply(&end);
        CHECK(split.split_count() == 1);
        CHECK(split.missing_stamps() == 1);
        CHECK(split.missing_by_stamp().server_transmit == 1);
        CHECK(split.missing_by_stamp().client_transmit == 0);
        stamps.end_reply(&end);  // nothing waits any more
        CHECK(split.missing_stamps() == 1);
    }
    SECTION("a connection that ends early leaves the last one missing that stamp") {
        stamps.abandon();
        CHECK(split.missing_by_stamp().server_transmit == 1);
    }
    SECTION("a warm-up reply after it still brings its stamp, and is not recorded") {
        const protocol::server_stamps third{us(7000), us(7020), us(6990), us(6031)};
        stamps.reply(3, m.sent, m.sent + microseconds(100), m.real_after(microseconds(90)), false,
                     &third, false, split);
        CHECK(split.split_count() == 2);
        CHECK(split.missing_stamps() == 0);
        CHECK(split.server_send_stack().max_ns() == Approx(11000).margin(100));
    }
}
