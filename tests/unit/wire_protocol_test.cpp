#include "protocol/wire_protocol.hpp"

#include <catch2/catch.hpp>

namespace protocol = sctp_perf::protocol;
using protocol::status;

TEST_CASE("wire: header round-trips and is big-endian") {
    const auto bytes = protocol::encode_header({128, 1100});
    // magic "SPRF", version 1, flags 0, 128 = 0x80, 1100 = 0x044c
    const unsigned char expected[16] = {'S', 'P', 'R', 'F',  0, 1, 0,    0,
                                        0,   0,   0,   0x80, 0, 0, 0x04, 0x4c};
    for (int i = 0; i < 16; ++i) {
        CHECK(std::to_integer<unsigned>(bytes[i]) == expected[i]);
    }
    const auto decoded = protocol::decode_header(bytes);
    CHECK(decoded.verdict == status::accepted);
    CHECK(decoded.header.payload_bytes == 128);
    CHECK(decoded.header.iterations == 1100);
}

TEST_CASE("wire: bad magic, version, flags, size and count are refused") {
    auto bytes = protocol::encode_header({128, 1100});
    SECTION("magic") {
        bytes[0] = std::byte{'X'};
        CHECK(protocol::decode_header(bytes).verdict == status::bad_magic);
    }
    SECTION("version") {
        bytes[5] = std::byte{2};
        CHECK(protocol::decode_header(bytes).verdict == status::unsupported_version);
    }
    SECTION("flags") {
        bytes[7] = std::byte{1};
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
    SECTION("iteration count 0 and absurd") {
        CHECK(protocol::decode_header(protocol::encode_header({1, 0})).verdict ==
              status::bad_iteration_count);
        CHECK(protocol::decode_header(protocol::encode_header({1, 0xffffffffu})).verdict ==
              status::bad_iteration_count);
        CHECK(protocol::decode_header(protocol::encode_header({1, protocol::max_iterations}))
                  .verdict == status::accepted);
    }
}

TEST_CASE("wire: verdicts carry a status and reject foreign answers") {
    const auto ok = protocol::decode_verdict(protocol::encode_verdict(status::accepted));
    CHECK(ok.well_formed);
    CHECK(ok.raw_status == 0);
    const auto busy = protocol::decode_verdict(protocol::encode_verdict(status::server_busy));
    CHECK(busy.raw_status == static_cast<std::uint16_t>(status::server_busy));
    protocol::verdict_bytes garbage{};
    CHECK_FALSE(protocol::decode_verdict(garbage).well_formed);
    CHECK(protocol::describe(status::bad_payload_size).find("65536") != std::string_view::npos);
}

TEST_CASE("wire: replies echo the low 16 bits of the iteration") {
    const auto reply = protocol::encode_reply(65536 + 7);
    CHECK(std::to_integer<unsigned>(reply[0]) == 0);
    CHECK(std::to_integer<unsigned>(reply[1]) == 7);
    CHECK(protocol::reply_matches(reply, 7));
    CHECK_FALSE(protocol::reply_matches(reply, 8));
}
