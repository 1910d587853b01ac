// SPDX-License-Identifier: Apache-2.0
#include "protocol/wire_protocol.hpp"

#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <vector>

#include "transport/message_channel.hpp"

namespace protocol = sctp_perf::protocol;
using protocol::status;
using protocol::test_mode;

namespace {

unsigned byte_at(std::span<const std::byte> bytes, std::size_t i) {
    return std::to_integer<unsigned>(bytes[i]);
}

}  // namespace

// A header of this version with every field set.
protocol::test_header header_of(std::uint32_t payload_bytes, std::uint32_t iterations,
                                test_mode mode = test_mode::ping_pong,
                                std::uint32_t max_gap_ms = 0) {
    protocol::test_header header;
    header.payload_bytes = payload_bytes;
    header.iterations = iterations;
    header.mode = mode;
    header.max_gap_ms = max_gap_ms;
    return header;
}

status verdict_of(const protocol::test_header& header) {
    return protocol::decode_header(protocol::encode_header(header)).verdict;
}

TEST_CASE("wire: header round-trips and is big-endian") {
    auto header = header_of(128, 1100, test_mode::rate, 2000);
    const auto bytes = protocol::encode_header(header);
    // magic "SPRF", version 3, flags 1 (rate mode), payload 128 = 0x80,
    // iterations 1100 = 0x044c, reply_bytes 0 (the mode's own), max_gap_ms
    // 2000 = 0x07d0: 4 + 2 + 2 + 4 * 4 = 24 bytes.
    const unsigned char expected[24] = {'S', 'P', 'R', 'F',  0, 3, 0, 1,     //
                                        0,   0,   0,   0x80, 0, 0, 4, 0x4c,  //
                                        0,   0,   0,   0,    0, 0, 7, 0xd0};
    REQUIRE(bytes.size() == 24);
    for (std::size_t i = 0; i < 24; ++i) {
        CHECK(byte_at(bytes, i) == expected[i]);
    }
    const auto decoded = protocol::decode_header(bytes);
    CHECK(decoded.verdict == status::accepted);
    CHECK(decoded.header.payload_bytes == 128);
    CHECK(decoded.header.iterations == 1100);
    CHECK(decoded.header.mode == test_mode::rate);
    CHECK_FALSE(decoded.header.server_timestamps);
    CHECK(decoded.header.reply_bytes == 0);
    CHECK(decoded.header.max_gap_ms == 2000);
    CHECK(decoded.peer_version == 3);

    SECTION("the optional fields have their own bytes") {
        header.server_timestamps = true;
        header.reply_bytes = 0x01020304;
        header.max_gap_ms = 0xffffffff;  // the most: 49.7 days
        const auto all = protocol::encode_header(header);
        CHECK(byte_at(all, 7) == (4 | 1));  // bit 2 server timestamps, mode 1
        const unsigned tail[8] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff};
        for (std::size_t i = 0; i < 8; ++i) {
            CHECK(byte_at(all, 16 + i) == tail[i]);
        }
        const auto back = protocol::decode_header(all);
        CHECK(back.header.server_timestamps);
        CHECK(back.header.reply_bytes == 0x01020304);
        CHECK(back.header.max_gap_ms == 0xffffffff);
    }
}

TEST_CASE("wire: a header's start says whether the rest is worth reading") {
    const auto bytes = protocol::encode_header(header_of(128, 1100));
    protocol::header_start_bytes start{};
    std::copy_n(bytes.begin(), start.size(), start.begin());
    CHECK(protocol::decode_header_start(start).verdict == status::accepted);
    CHECK(protocol::decode_header_start(start).peer_version == 3);

    SECTION("a version 2 client's whole header, 16 bytes, is refused by version") {
        // magic "SPRF", version 2, flags 0 (ping-pong), payload 128, iterations 1100
        const protocol::header_start_bytes v2{
            std::byte{'S'}, std::byte{'P'}, std::byte{'R'}, std::byte{'F'},
            std::byte{0},   std::byte{2},   std::byte{0},   std::byte{0},
            std::byte{0},   std::byte{0},   std::byte{0},   std::byte{0x80},
            std::byte{0},   std::byte{0},   std::byte{4},   std::byte{0x4c}};
        const auto decoded = protocol::decode_header_start(v2);
        CHECK(decoded.verdict == status::unsupported_version);
        CHECK(decoded.peer_version == 2);
    }
    SECTION("not a test header") {
        start[0] = std::byte{'G'};
        CHECK(protocol::decode_header_start(start).verdict == status::bad_magic);
    }
}

TEST_CASE("wire: bad magic, version, flags, size and count are refused") {
    auto bytes = protocol::encode_header(header_of(128, 1100));
    SECTION("magic") {
        bytes[0] = std::byte{'X'};
        CHECK(protocol::decode_header(bytes).verdict == status::bad_magic);
    }
    SECTION("versions 1 and 2 (earlier releases) are refused and named") {
        for (const unsigned old : {1U, 2U}) {
            bytes[5] = std::byte(old);
            const auto decoded = protocol::decode_header(bytes);
            CHECK(decoded.verdict == status::unsupported_version);
            CHECK(decoded.peer_version == old);
        }
    }
    SECTION("unknown flag bits") {
        bytes[7] = std::byte{8};
        CHECK(protocol::decode_header(bytes).verdict == status::bad_flags);
        bytes[7] = std::byte{3};  // mode 3, framed ping-pong
        CHECK(protocol::decode_header(bytes).verdict == status::accepted);
        CHECK(protocol::decode_header(bytes).header.mode == test_mode::framed_ping_pong);
        bytes[6] = std::byte{0x80};
        bytes[7] = std::byte{0};
        CHECK(protocol::decode_header(bytes).verdict == status::bad_flags);
    }
    SECTION("payload size 0 and 2^16 + 1") {
        CHECK(verdict_of(header_of(0, 10)) == status::bad_payload_size);
        CHECK(verdict_of(header_of(65537, 10)) == status::bad_payload_size);
        CHECK(verdict_of(header_of(65536, 10)) == status::accepted);
    }
    SECTION("load modes need room for the 16-byte message header") {
        CHECK(verdict_of(header_of(15, 0, test_mode::throughput)) ==
              status::payload_too_small_for_mode);
        CHECK(verdict_of(header_of(16, 0, test_mode::throughput)) == status::accepted);
        CHECK(verdict_of(header_of(1, 10, test_mode::ping_pong)) == status::accepted);
        CHECK(verdict_of(header_of(8, 10, test_mode::framed_ping_pong)) ==
              status::payload_too_small_for_mode);
    }
    SECTION("iteration count 0 means until the client ends; above the maximum is refused") {
        CHECK(verdict_of(header_of(1, 0)) == status::accepted);
        CHECK(verdict_of(header_of(1, 0xffffffffu)) == status::bad_iteration_count);
        CHECK(verdict_of(header_of(1, protocol::max_iterations)) == status::accepted);
    }
    SECTION("any gap is accepted, 0 (no schedule) to 2^32 - 1 ms") {
        CHECK(verdict_of(header_of(16, 0, test_mode::rate, 0)) == status::accepted);
        CHECK(verdict_of(header_of(16, 0, test_mode::rate, 0xffffffffu)) == status::accepted);
    }
}

TEST_CASE("wire: server timestamps are served, other reply sizes checked and served") {
    SECTION("server timestamps: accepted in every mode, the flag on the wire as bit 2") {
        for (const auto mode : {test_mode::ping_pong, test_mode::rate, test_mode::throughput,
                                test_mode::framed_ping_pong}) {
            auto header = header_of(128, 1100, mode);
            header.server_timestamps = true;
            CHECK(verdict_of(header) == status::accepted);
            const auto bytes = protocol::encode_header(header);
            CHECK(std::to_integer<unsigned>(bytes[7]) == (static_cast<unsigned>(mode) | 4U));
            CHECK(protocol::decode_header(bytes).header.server_timestamps);
        }
        // A broken rule is still named.
        auto header = header_of(0, 1100, test_mode::rate);
        header.server_timestamps = true;
        CHECK(verdict_of(header) == status::bad_payload_size);
    }
    SECTION("without the flag a header's bytes are those of the previous release") {
        // flags = mode only: 0x0001 for rate.
        const auto bytes = protocol::encode_header(header_of(128, 1100, test_mode::rate));
        CHECK(std::to_integer<unsigned>(bytes[6]) == 0);
        CHECK(std::to_integer<unsigned>(bytes[7]) == 1);
    }
    SECTION("with server timestamps, each reply is 16 bytes larger, and smaller is refused") {
        // Ping-pong: check byte, 16 bytes of stamps, check byte = 18.
        // A framed mode: 16-byte message header + 16 bytes of stamps = 32.
        for (const auto& [mode, smallest] :
             {std::pair{test_mode::ping_pong, 18U}, std::pair{test_mode::rate, 32U},
              std::pair{test_mode::throughput, 32U}, std::pair{test_mode::framed_ping_pong, 32U}}) {
            auto header = header_of(128, 0, mode);
            header.server_timestamps = true;
            CHECK(protocol::min_reply_bytes(mode, true) == smallest);
            CHECK(protocol::reply_size_of(header) == smallest);  // reply_bytes 0
            header.reply_bytes = smallest - 1;
            CHECK(verdict_of(header) == status::bad_reply_size);
            header.reply_bytes = smallest;
            CHECK(verdict_of(header) == status::accepted);
            CHECK(protocol::reply_size_of(header) == smallest);
        }
    }
    SECTION("the server's receive stamps: bit 3, only with bit 2, 8 bytes more a reply") {
        for (const auto& [mode, smallest] :
             {std::pair{test_mode::ping_pong, 26U}, std::pair{test_mode::rate, 40U}}) {
            auto header = header_of(128, 0, mode);
            header.server_timestamps = true;
            header.server_receive_stamps = true;
            const auto bytes = protocol::encode_header(header);
            CHECK((std::to_integer<unsigned>(bytes[7]) & 0x0c) == 0x0c);
            CHECK(protocol::decode_header(bytes).header.server_receive_stamps);
            CHECK(protocol::min_reply_bytes(mode, true, true) == smallest);
            CHECK(protocol::reply_size_of(header) == smallest);
            header.reply_bytes = smallest - 1;
            CHECK(verdict_of(header) == status::bad_reply_size);
            header.reply_bytes = smallest;
            CHECK(verdict_of(header) == status::accepted);
            // Without the server's stamps they mean nothing: refused.
            header.server_timestamps = false;
            CHECK(verdict_of(header) == status::bad_flags);
        }
        CHECK(protocol::min_reply_bytes(test_mode::ping_pong, false, true) == 2);
    }
    SECTION("the server's transmit stamps: bit 4, only with bit 3, in every mode, 8 more") {
        auto header = header_of(128, 0, test_mode::ping_pong);
        header.server_timestamps = true;
        header.server_receive_stamps = true;
        header.server_transmit_stamps = true;
        const auto bytes = protocol::encode_header(header);
        CHECK((std::to_integer<unsigned>(bytes[7]) & 0x1c) == 0x1c);
        CHECK(protocol::decode_header(bytes).header.server_transmit_stamps);
        CHECK(protocol::min_reply_bytes(test_mode::ping_pong, true, true, true) == 34);
        CHECK(protocol::reply_size_of(header) == 34);
        header.reply_bytes = 33;
        CHECK(verdict_of(header) == status::bad_reply_size);
        header.reply_bytes = 34;
        CHECK(verdict_of(header) == status::accepted);
        // Without the receive stamps: refused.
        header.server_receive_stamps = false;
        CHECK(verdict_of(header) == status::bad_flags);
        header.server_receive_stamps = true;
        // The framed modes: the message header, then the four stamps, 48.
        header.reply_bytes = 0;
        for (const auto mode :
             {test_mode::framed_ping_pong, test_mode::rate, test_mode::throughput}) {
            header.mode = mode;
            CHECK(verdict_of(header) == status::accepted);
            CHECK(protocol::reply_size_of(header) == 48);
        }
        header.reply_bytes = 47;
        CHECK(verdict_of(header) == status::bad_reply_size);
        header.reply_bytes = 0;
        // Without the bit, the bytes of a header are as before it.
        header.mode = test_mode::ping_pong;
        header.server_transmit_stamps = false;
        CHECK((std::to_integer<unsigned>(protocol::encode_header(header)[7]) & 0x10) == 0);
    }
    SECTION("a reply size below the mode's own reply or above 64 KiB") {
        // Ping-pong's reply is 2 bytes, a framed mode's the 16-byte message header.
        for (const auto& [mode, smallest] :
             {std::pair{test_mode::ping_pong, 2U}, std::pair{test_mode::rate, 16U},
              std::pair{test_mode::throughput, 16U}, std::pair{test_mode::framed_ping_pong, 16U}}) {
            auto header = header_of(128, 0, mode);
            CHECK(protocol::min_reply_bytes(mode) == smallest);
            header.reply_bytes = smallest - 1;
            CHECK(verdict_of(header) == status::bad_reply_size);
            header.reply_bytes = 65537;
            CHECK(verdict_of(header) == status::bad_reply_size);
            // Valid, and served: any size from the mode's own to 64 KiB.
            for (const std::uint32_t valid : {smallest, 100U, 128U, 65536U}) {
                header.reply_bytes = valid;
                CHECK(verdict_of(header) == status::accepted);
                CHECK(protocol::reply_size_of(header) == valid);
            }
            header.reply_bytes = 0;  // the mode's own
            CHECK(verdict_of(header) == status::accepted);
            CHECK(protocol::reply_size_of(header) == smallest);
        }
    }
    CHECK(protocol::describe(status::bad_reply_size).find("65536") != std::string_view::npos);
    CHECK(protocol::describe(status::unsupported_feature).find("upgrade the server") !=
          std::string_view::npos);
}

TEST_CASE("wire: verdicts carry a status and the server's version") {
    const auto ok = protocol::decode_verdict(protocol::encode_verdict(status::accepted));
    CHECK(ok.well_formed);
    CHECK(ok.raw_status == 0);
    CHECK(ok.server_version == 3);
    const auto busy = protocol::decode_verdict(protocol::encode_verdict(status::server_busy));
    CHECK(busy.raw_status == static_cast<std::uint16_t>(status::server_busy));
    // A version 1 server's refusal: "SPRF", status 2, reserved 0.
    const protocol::verdict_bytes old{std::byte{'S'}, std::byte{'P'}, std::byte{'R'},
                                      std::byte{'F'}, std::byte{0},   std::byte{2},
                                      std::byte{0},   std::byte{0}};
    CHECK(protocol::decode_verdict(old).server_version == 0);
    protocol::verdict_bytes garbage{};
    CHECK_FALSE(protocol::decode_verdict(garbage).well_formed);
    CHECK(protocol::describe(status::bad_payload_size).find("65536") != std::string_view::npos);
}

TEST_CASE("wire: a ping-pong reply is the request's first and last byte") {
    std::vector<std::byte> request{std::byte{0xa1}, std::byte{1}, std::byte{2}, std::byte{0x7f}};
    const auto reply = protocol::pingpong_reply(request);
    CHECK(byte_at(reply, 0) == 0xa1);
    CHECK(byte_at(reply, 1) == 0x7f);
    std::vector<std::byte> one{std::byte{0x33}};
    CHECK(protocol::pingpong_reply(one) == protocol::reply_bytes{std::byte{0x33}, std::byte{0x33}});
}

TEST_CASE("wire: a longer ping-pong reply keeps the check bytes at its ends") {
    // A 5-byte request whose check bytes are 0xa1 and 0x7f; a 4-byte reply
    // filled once as 0 1 2 3 becomes a1 01 02 7f.
    std::vector<std::byte> request(5);
    protocol::fill_payload(request);
    request.front() = std::byte{0xa1};
    request.back() = std::byte{0x7f};
    std::vector<std::byte> reply(4);
    protocol::fill_payload(reply);
    protocol::fill_pingpong_reply(request, reply);
    CHECK(reply == std::vector{std::byte{0xa1}, std::byte{1}, std::byte{2}, std::byte{0x7f}});
    // A reply of the request's size is the request itself: an echo.
    std::vector<std::byte> echo(request.size());
    protocol::fill_payload(echo);
    protocol::fill_pingpong_reply(request, echo);
    CHECK(echo == request);
}

TEST_CASE("wire: message headers round-trip and refuse unknown bits") {
    std::vector<std::byte> request(32, std::byte{0xee});
    const protocol::message_header header{0x0102030405060708ULL, 0xdeadbeef,
                                          protocol::flag_reply_wanted};
    protocol::encode_message_header(header, request);
    // sequence 8 bytes, token 4, flags 0x0001, reserved 0x0000; the rest untouched
    const unsigned expected[16] = {1, 2, 3, 4, 5, 6, 7, 8, 0xde, 0xad, 0xbe, 0xef, 0, 1, 0, 0};
    for (std::size_t i = 0; i < 16; ++i) {
        CHECK(byte_at(request, i) == expected[i]);
    }
    CHECK(byte_at(request, 16) == 0xee);
    const auto decoded = protocol::decode_message_header(request);
    REQUIRE(decoded);
    CHECK(*decoded == header);
    CHECK(decoded->reply_wanted());
    CHECK_FALSE(decoded->end_of_test());

    CHECK_FALSE(decoded->primer());
    SECTION("primer flag, 0x0005: a primer that wants its reply") {
        request[13] = std::byte{5};
        const auto primer = protocol::decode_message_header(request);
        REQUIRE(primer);
        CHECK(primer->primer());
        CHECK(primer->reply_wanted());
    }
    SECTION("unknown flag") {
        request[13] = std::byte{8};
        CHECK_FALSE(protocol::decode_message_header(request));
    }
    SECTION("reserved bits") {
        request[15] = std::byte{1};
        CHECK_FALSE(protocol::decode_message_header(request));
    }
    SECTION("too short") {
        CHECK_FALSE(protocol::decode_message_header(std::span(request).first(15)));
    }
}

TEST_CASE("wire: blob lengths are bounded") {
    CHECK(protocol::decode_blob_length(protocol::encode_blob_length(1)) == 1u);
    CHECK(protocol::decode_blob_length(protocol::encode_blob_length(65536)) == 65536u);
    CHECK_FALSE(protocol::decode_blob_length(protocol::encode_blob_length(0)));
    CHECK_FALSE(protocol::decode_blob_length(protocol::encode_blob_length(65537)));
}

TEST_CASE("wire: a blob is read whole whatever part of it was read before") {
    // "{}" framed: length 00 00 00 02, then '{' '}': 6 bytes. Split at every
    // point: the reader gets the first `taken` bytes in hand, the rest from
    // the socket.
    for (std::size_t taken = 0; taken <= 6; ++taken) {
        int fds[2];
        REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
        sctp_perf::stream_channel writer{sctp_perf::unique_fd(fds[0])};
        sctp_perf::stream_channel reader{sctp_perf::unique_fd(fds[1])};
        sctp_perf::send_blob(writer, "{}");
        std::vector<std::byte> in_hand(taken);
        if (taken > 0) {
            reader.receive_message(in_hand);
        }
        CHECK(sctp_perf::receive_blob(reader, in_hand) == "{}");
    }
}

TEST_CASE("wire: server stamps sit after the mode's own part, big-endian") {
    // arrival 0x0102030405060708 ns, departure 0x1112131415161718 ns.
    const protocol::server_stamps stamps{0x0102030405060708ULL, 0x1112131415161718ULL};
    SECTION("ping-pong: bytes 1..8 arrival, 9..16 departure, check bytes around them") {
        std::vector<std::byte> request(64);
        protocol::fill_payload(request);
        request.front() = std::byte{0xaa};
        request.back() = std::byte{0xbb};
        std::vector<std::byte> reply(protocol::min_reply_bytes(test_mode::ping_pong, true));
        protocol::fill_payload(reply);
        protocol::fill_pingpong_reply(request, reply);
        const auto at = protocol::server_stamps_offset(test_mode::ping_pong);
        CHECK(at == 1);
        protocol::encode_server_stamp(stamps.arrival_ns, std::span(reply).subspan(at, 8));
        protocol::encode_server_stamp(stamps.departure_ns, std::span(reply).subspan(at + 8, 8));
        CHECK(reply.size() == 18);
        CHECK(reply[0] == std::byte{0xaa});
        CHECK(reply[1] == std::byte{0x01});
        CHECK(reply[8] == std::byte{0x08});
        CHECK(reply[9] == std::byte{0x11});
        CHECK(reply[16] == std::byte{0x18});
        CHECK(reply[17] == std::byte{0xbb});
        CHECK(protocol::decode_server_stamps(test_mode::ping_pong, reply) == stamps);
    }
    SECTION("with the kernel's arrival too: the third stamp, bytes 17..24 of a ping-pong reply") {
        std::vector<std::byte> reply(protocol::min_reply_bytes(test_mode::ping_pong, true, true));
        CHECK(reply.size() == 26);
        const protocol::server_stamps all{stamps.arrival_ns, stamps.departure_ns,
                                          0x2122232425262728ULL};
        const auto at = protocol::server_stamps_offset(test_mode::ping_pong);
        protocol::encode_server_stamp(all.arrival_ns, std::span(reply).subspan(at, 8));
        protocol::encode_server_stamp(all.departure_ns, std::span(reply).subspan(at + 8, 8));
        protocol::encode_server_stamp(all.kernel_arrival_ns, std::span(reply).subspan(at + 16, 8));
        CHECK(reply[17] == std::byte{0x21});
        CHECK(reply[24] == std::byte{0x28});
        CHECK(protocol::decode_server_stamps(test_mode::ping_pong, reply, true) == all);
        CHECK(protocol::decode_server_stamps(test_mode::ping_pong, reply) == stamps);
    }
    SECTION("with the previous reply's departure from the device: the fourth, bytes 25..32") {
        std::vector<std::byte> reply(
            protocol::min_reply_bytes(test_mode::ping_pong, true, true, true));
        CHECK(reply.size() == 34);
        const protocol::server_stamps all{stamps.arrival_ns, stamps.departure_ns,
                                          0x2122232425262728ULL, 0x3132333435363738ULL};
        const auto at = protocol::server_stamps_offset(test_mode::ping_pong);
        protocol::encode_server_stamp(all.arrival_ns, std::span(reply).subspan(at, 8));
        protocol::encode_server_stamp(all.departure_ns, std::span(reply).subspan(at + 8, 8));
        protocol::encode_server_stamp(all.kernel_arrival_ns, std::span(reply).subspan(at + 16, 8));
        protocol::encode_server_stamp(all.previous_kernel_departure_ns,
                                      std::span(reply).subspan(at + 24, 8));
        CHECK(reply[25] == std::byte{0x31});
        CHECK(reply[32] == std::byte{0x38});
        CHECK(protocol::decode_server_stamps(test_mode::ping_pong, reply, true, true) == all);
        auto without = all;
        without.previous_kernel_departure_ns = 0;
        CHECK(protocol::decode_server_stamps(test_mode::ping_pong, reply, true) == without);
    }
    SECTION("a framed mode: bytes 16..23 arrival, 24..31 departure") {
        std::vector<std::byte> reply(protocol::min_reply_bytes(test_mode::rate, true));
        CHECK(reply.size() == 32);
        const auto at = protocol::server_stamps_offset(test_mode::rate);
        CHECK(at == 16);
        protocol::encode_server_stamp(stamps.arrival_ns, std::span(reply).subspan(at, 8));
        protocol::encode_server_stamp(stamps.departure_ns, std::span(reply).subspan(at + 8, 8));
        CHECK(reply[16] == std::byte{0x01});
        CHECK(reply[31] == std::byte{0x18});
        CHECK(protocol::decode_server_stamps(test_mode::framed_ping_pong, reply) == stamps);
    }
}
