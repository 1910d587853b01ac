// SPDX-License-Identifier: Apache-2.0
#include "transport/association_channel.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "errors.hpp"
#include "transport/sctp_notification.hpp"

using sctp_perf::association_channel;
using sctp_perf::peer_closed;
using sctp_perf::peer_error;
using sctp_perf::sctp_delivery;

namespace {

std::vector<std::byte> bytes_from(unsigned first, std::size_t count) {
    std::vector<std::byte> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        out[i] = static_cast<std::byte>((first + i) & 0xff);
    }
    return out;
}

}  // namespace

TEST_CASE("association_channel: a delivered message is read whole, with how it travelled") {
    association_channel channel(-1, 7);
    CHECK(channel.association_id() == 7);
    CHECK(channel.keeps_message_boundaries());
    std::vector<std::byte> buffer(64);
    CHECK(channel.receive_part(buffer, true, false).bytes == 0);  // nothing yet

    const auto message = bytes_from(1, 24);
    channel.deliver(message, true, sctp_delivery{5, true, {}});
    CHECK(channel.queued_bytes() == 24);
    const auto part = channel.receive_part(buffer, true, false);
    CHECK(part.bytes == 24);
    CHECK(part.message_end);
    CHECK(part.delivery.stream == 5);
    CHECK(part.delivery.unordered);
    CHECK(std::equal(message.begin(), message.end(), buffer.begin()));
    CHECK(channel.queued_bytes() == 0);
}

TEST_CASE("association_channel: a read shorter than the message leaves its end for the next") {
    // A 24-byte message read 16 bytes at a time: 16 without the end mark,
    // then 8 with it, as recvmsg() cuts a message longer than its buffer.
    association_channel channel(-1, 1);
    channel.deliver(bytes_from(0, 24), true, {});
    std::vector<std::byte> buffer(16);
    const auto first = channel.receive_part(buffer, false, false);
    CHECK(first.bytes == 16);
    CHECK_FALSE(first.message_end);
    CHECK(buffer[15] == std::byte{15});
    const auto second = channel.receive_part(buffer, false, false);
    CHECK(second.bytes == 8);
    CHECK(second.message_end);
    CHECK(buffer[0] == std::byte{16});
}

TEST_CASE("association_channel: parts of a long message keep their order and their marks") {
    // Partial delivery: 3 parts of one message, then a message of its own.
    association_channel channel(-1, 1);
    channel.deliver(bytes_from(0, 10), false, {});
    channel.deliver(bytes_from(10, 10), false, {});
    channel.deliver(bytes_from(20, 5), true, {});
    channel.deliver(bytes_from(100, 3), true, {});
    CHECK(channel.queued_bytes() == 28);
    std::vector<std::byte> buffer(64);
    std::vector<std::size_t> sizes;
    std::vector<bool> ends;
    std::vector<std::byte> all;
    for (auto part = channel.receive_part(buffer, false, false); part.bytes != 0;
         part = channel.receive_part(buffer, false, false)) {
        sizes.push_back(part.bytes);
        ends.push_back(part.message_end);
        all.insert(all.end(), buffer.begin(), buffer.begin() + static_cast<long>(part.bytes));
    }
    CHECK(sizes == std::vector<std::size_t>{10, 10, 5, 3});
    CHECK(ends == std::vector<bool>{false, false, true, true});
    CHECK(all[24] == std::byte{24});
    CHECK(all[25] == std::byte{100});
}

TEST_CASE("association_channel: the end comes after what was delivered before it") {
    association_channel channel(-1, 1);
    channel.deliver(bytes_from(0, 4), true, {});
    channel.end(true, "the peer closed the association");
    CHECK(channel.ended());
    std::vector<std::byte> buffer(8);
    CHECK(channel.receive_part(buffer, false, false).bytes == 4);
    CHECK_THROWS_AS(channel.receive_part(buffer, false, false), peer_closed);

    association_channel lost(-1, 2);
    lost.end(false, "the association was lost");
    lost.end(true, "a later shutdown does not change the first reason");
    try {
        lost.receive_part(buffer, false, false);
        FAIL("no error");
    } catch (const peer_closed&) {
        FAIL("a lost association is not a clean close");
    } catch (const peer_error& e) {
        CHECK(std::string(e.what()) == "the association was lost");
    }
}

TEST_CASE("association_channel: a long queue is read in order across its buffer's compaction") {
    // 10,000 messages of 16 bytes (160,000 bytes, past the 64 KiB at which
    // the taken front of the buffer is dropped), delivered and read in
    // lockstep with a lag of 100: every byte comes back in order.
    association_channel channel(-1, 1);
    std::vector<std::byte> buffer(16);
    unsigned next_read = 0;
    for (unsigned m = 0; m < 10'000; ++m) {
        channel.deliver(bytes_from(m, 16), true, {});
        if (m >= 100) {
            REQUIRE(channel.receive_part(buffer, false, false).bytes == 16);
            REQUIRE(buffer[0] == static_cast<std::byte>(next_read & 0xff));
            ++next_read;
        }
    }
    CHECK(channel.queued_bytes() == 100 * 16);
}

TEST_CASE("decode_sctp_notification: too short to say is dropped, unknown types are other") {
    CHECK_FALSE(sctp_perf::decode_sctp_notification({}).has_value());
    std::vector<std::byte> shutdown(sizeof(sctp_shutdown_event));
    sctp_shutdown_event event{};
    event.sse_type = SCTP_SHUTDOWN_EVENT;
    event.sse_assoc_id = 42;
    std::memcpy(shutdown.data(), &event, sizeof event);
    const auto decoded = sctp_perf::decode_sctp_notification(shutdown);
    REQUIRE(decoded.has_value());
    CHECK(decoded->event == sctp_perf::association_event::shutdown);
    CHECK(decoded->assoc_id == 42);
    CHECK_FALSE(sctp_perf::decode_sctp_notification(std::span(shutdown).first(6)).has_value());

    for (const auto& [state, expected] :
         {std::pair{SCTP_COMM_UP, sctp_perf::association_event::up},
          std::pair{SCTP_COMM_LOST, sctp_perf::association_event::lost},
          std::pair{SCTP_CANT_STR_ASSOC, sctp_perf::association_event::lost},
          std::pair{SCTP_SHUTDOWN_COMP, sctp_perf::association_event::shutdown},
          std::pair{SCTP_RESTART, sctp_perf::association_event::restart}}) {
        sctp_assoc_change change{};
        change.sac_type = SCTP_ASSOC_CHANGE;
        change.sac_state = static_cast<std::uint16_t>(state);
        change.sac_assoc_id = 9;
        std::vector<std::byte> bytes(sizeof change);
        std::memcpy(bytes.data(), &change, sizeof change);
        const auto got = sctp_perf::decode_sctp_notification(bytes);
        REQUIRE(got.has_value());
        CHECK(got->event == expected);
        CHECK(got->assoc_id == 9);
    }
    sctp_paddr_change other{};
    other.spc_type = SCTP_PEER_ADDR_CHANGE;
    std::vector<std::byte> bytes(sizeof other);
    std::memcpy(bytes.data(), &other, sizeof other);
    const auto got = sctp_perf::decode_sctp_notification(bytes);
    REQUIRE(got.has_value());
    CHECK(got->event == sctp_perf::association_event::other);
}
