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

TEST_CASE("wire: header round-trips and is big-endian") {
    const auto bytes = protocol::encode_header({128, 1100, test_mode::rate});
    // magic "SPRF", version 2, flags 1 (rate mode), 128 = 0x80, 1100 = 0x044c
    const unsigned char expected[16] = {'S', 'P', 'R', 'F',  0, 2, 0,    1,
                                        0,   0,   0,   0x80, 0, 0, 0x04, 0x4c};
    for (std::size_t i = 0; i < 16; ++i) {
        CHECK(byte_at(bytes, i) == expected[i]);
    }
    const auto decoded = protocol::decode_header(bytes);
    CHECK(decoded.verdict == status::accepted);
    CHECK(decoded.header.payload_bytes == 128);
    CHECK(decoded.header.iterations == 1100);
    CHECK(decoded.header.mode == test_mode::rate);
    CHECK(decoded.peer_version == 2);
}

TEST_CASE("wire: bad magic, version, flags, size and count are refused") {
    auto bytes = protocol::encode_header({128, 1100});
    SECTION("magic") {
        bytes[0] = std::byte{'X'};
        CHECK(protocol::decode_header(bytes).verdict == status::bad_magic);
    }
    SECTION("version 1 (the previous release) is refused and named") {
        bytes[5] = std::byte{1};
        const auto decoded = protocol::decode_header(bytes);
        CHECK(decoded.verdict == status::unsupported_version);
        CHECK(decoded.peer_version == 1);
    }
    SECTION("unknown flag bits") {
        bytes[7] = std::byte{4};
        CHECK(protocol::decode_header(bytes).verdict == status::bad_flags);
        bytes[7] = std::byte{3};  // mode 3, framed ping-pong
        CHECK(protocol::decode_header(bytes).verdict == status::accepted);
        CHECK(protocol::decode_header(bytes).header.mode == test_mode::framed_ping_pong);
        bytes[6] = std::byte{0x80};
        bytes[7] = std::byte{0};
        CHECK(protocol::decode_header(bytes).verdict == status::bad_flags);
    }
    SECTION("payload size 0 and 2^16 + 1") {
        CHECK(protocol::decode_header(protocol::encode_header({0, 10})).verdict ==
              status::bad_payload_size);
        CHECK(protocol::decode_header(protocol::encode_header({65537, 10})).verdict ==
              status::bad_payload_size);
        CHECK(protocol::decode_header(protocol::encode_header({65536, 10})).verdict ==
              status::accepted);
    }
    SECTION("load modes need room for the 16-byte message header") {
        CHECK(protocol::decode_header(protocol::encode_header({15, 0, test_mode::throughput}))
                  .verdict == status::payload_too_small_for_mode);
        CHECK(protocol::decode_header(protocol::encode_header({16, 0, test_mode::throughput}))
                  .verdict == status::accepted);
        CHECK(protocol::decode_header(protocol::encode_header({1, 10, test_mode::ping_pong}))
                  .verdict == status::accepted);
        CHECK(protocol::decode_header(protocol::encode_header({8, 10, test_mode::framed_ping_pong}))
                  .verdict == status::payload_too_small_for_mode);
    }
    SECTION("iteration count 0 means until the client ends; above the maximum is refused") {
        CHECK(protocol::decode_header(protocol::encode_header({1, 0})).verdict == status::accepted);
        CHECK(protocol::decode_header(protocol::encode_header({1, 0xffffffffu})).verdict ==
              status::bad_iteration_count);
        CHECK(protocol::decode_header(protocol::encode_header({1, protocol::max_iterations}))
                  .verdict == status::accepted);
    }
}

TEST_CASE("wire: verdicts carry a status and the server's version") {
    const auto ok = protocol::decode_verdict(protocol::encode_verdict(status::accepted));
    CHECK(ok.well_formed);
    CHECK(ok.raw_status == 0);
    CHECK(ok.server_version == 2);
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

    SECTION("unknown flag") {
        request[13] = std::byte{4};
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
