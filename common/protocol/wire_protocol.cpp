// SPDX-License-Identifier: Apache-2.0
#include "protocol/wire_protocol.hpp"

#include <algorithm>

namespace sctp_perf::protocol {
namespace {

void put_be(std::span<std::byte> out, std::size_t at, std::uint64_t v, std::size_t width) noexcept {
    for (std::size_t i = 0; i < width; ++i) {
        out[at + i] = std::byte(v >> (8 * (width - 1 - i)));
    }
}

std::uint64_t get_be(std::span<const std::byte> in, std::size_t at, std::size_t width) noexcept {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i) {
        v = v << 8 | std::to_integer<std::uint64_t>(in[at + i]);
    }
    return v;
}

constexpr std::uint16_t mode_mask = 0x3;
constexpr std::uint16_t known_header_flags =
    mode_mask | flag_server_timestamps | flag_server_receive_stamps | flag_server_transmit_stamps;

}  // namespace

std::string_view name_of(test_mode mode) noexcept {
    switch (mode) {
        case test_mode::ping_pong:
        case test_mode::framed_ping_pong:
            return "ping-pong";
        case test_mode::rate:
            return "rate";
        case test_mode::throughput:
            return "throughput";
    }
    return "unknown";
}

std::string_view describe(status s) noexcept {
    switch (s) {
        case status::accepted:
            return "accepted";
        case status::bad_magic:
            return "not an sctp-perf test header (wrong magic number)";
        case status::unsupported_version:
            return "unsupported protocol version (client and server come from different releases)";
        case status::bad_payload_size:
            return "payload size outside 1..65536 bytes";
        case status::bad_iteration_count:
            return "iteration count above 1000000100";
        case status::server_busy:
            return "server is serving its maximum number of clients; try again later";
        case status::bad_flags:
            return "unknown flags or mode in the test header (client is newer than the server: "
                   "--timestamps with --one-way asks for the server's receive stamps, and over TCP "
                   "its transmit stamps, which older servers lack); upgrade the server to the "
                   "client's release";
        case status::payload_too_small_for_mode:
            return "payload below 16 bytes in a framed mode (its message header needs 16)";
        case status::bad_reply_size:
            return "reply size outside the mode's minimum (2 bytes in ping-pong, 16 in a framed "
                   "mode, each 16 more with server timestamps) to 65536 bytes";
        case status::unsupported_feature:
            return "the test asks for a feature this server does not offer (server timestamps); "
                   "upgrade the server to the client's release";
    }
    return "unknown refusal reason";
}

std::uint32_t min_reply_bytes(test_mode mode, bool server_timestamps, bool server_receive_stamps,
                              bool server_transmit_stamps) noexcept {
    const auto own = mode == test_mode::ping_pong ? reply_size : load_reply_size;
    const auto stamps = server_timestamps
                            ? server_stamps_size +
                                  (server_receive_stamps ? server_receive_stamp_size : 0) +
                                  (server_transmit_stamps ? server_transmit_stamp_size : 0)
                            : 0;
    return static_cast<std::uint32_t>(own + stamps);
}

std::uint32_t reply_size_of(const test_header& header) noexcept {
    return header.reply_bytes != 0
               ? header.reply_bytes
               : min_reply_bytes(header.mode, header.server_timestamps,
                                 header.server_receive_stamps, header.server_transmit_stamps);
}

std::size_t server_stamps_offset(test_mode mode) noexcept {
    // Ping-pong: after the first check byte; framed: after the message header.
    return mode == test_mode::ping_pong ? 1 : message_header_size;
}

void encode_server_stamp(std::uint64_t ns, std::span<std::byte> out) noexcept {
    put_be(out, 0, ns, 8);
}

server_stamps decode_server_stamps(test_mode mode, std::span<const std::byte> reply,
                                   bool with_receive_stamp, bool with_transmit_stamp) noexcept {
    const auto at = server_stamps_offset(mode);
    return {get_be(reply, at, 8), get_be(reply, at + 8, 8),
            with_receive_stamp ? get_be(reply, at + 16, 8) : 0,
            with_receive_stamp && with_transmit_stamp ? get_be(reply, at + 24, 8) : 0};
}

header_bytes encode_header(const test_header& header) noexcept {
    header_bytes out{};
    const auto flags = static_cast<std::uint16_t>(
        static_cast<std::uint16_t>(header.mode) |
        (header.server_timestamps ? flag_server_timestamps : std::uint16_t{0}) |
        (header.server_receive_stamps ? flag_server_receive_stamps : std::uint16_t{0}) |
        (header.server_transmit_stamps ? flag_server_transmit_stamps : std::uint16_t{0}));
    put_be(out, 0, magic, 4);
    put_be(out, 4, version, 2);
    put_be(out, 6, flags, 2);
    put_be(out, 8, header.payload_bytes, 4);
    put_be(out, 12, header.iterations, 4);
    put_be(out, 16, header.reply_bytes, 4);
    put_be(out, 20, header.max_gap_ms, 4);
    return out;
}

decoded_header decode_header_start(const header_start_bytes& bytes) noexcept {
    decoded_header result;
    result.peer_version = static_cast<std::uint16_t>(get_be(bytes, 4, 2));
    if (get_be(bytes, 0, 4) != magic) {
        result.verdict = status::bad_magic;
    } else if (result.peer_version != version) {
        result.verdict = status::unsupported_version;
    }
    return result;
}

decoded_header decode_header(const header_bytes& bytes) noexcept {
    header_start_bytes start{};
    std::copy_n(bytes.begin(), start.size(), start.begin());
    decoded_header result = decode_header_start(start);
    const auto flags = static_cast<std::uint16_t>(get_be(bytes, 6, 2));
    auto& header = result.header;
    header.payload_bytes = static_cast<std::uint32_t>(get_be(bytes, 8, 4));
    header.iterations = static_cast<std::uint32_t>(get_be(bytes, 12, 4));
    header.mode = static_cast<test_mode>(flags & mode_mask);
    header.server_timestamps = (flags & flag_server_timestamps) != 0;
    header.server_receive_stamps = (flags & flag_server_receive_stamps) != 0;
    header.server_transmit_stamps = (flags & flag_server_transmit_stamps) != 0;
    header.reply_bytes = static_cast<std::uint32_t>(get_be(bytes, 16, 4));
    header.max_gap_ms = static_cast<std::uint32_t>(get_be(bytes, 20, 4));
    if (result.verdict != status::accepted) {
        return result;
    }
    if ((flags & ~known_header_flags) != 0 ||
        (header.server_receive_stamps && !header.server_timestamps) ||
        (header.server_transmit_stamps && !header.server_receive_stamps)) {
        result.verdict = status::bad_flags;
    } else if (header.payload_bytes < 1 || header.payload_bytes > max_payload_bytes) {
        result.verdict = status::bad_payload_size;
    } else if (header.mode != test_mode::ping_pong &&
               header.payload_bytes < min_load_payload_bytes) {
        result.verdict = status::payload_too_small_for_mode;
    } else if (header.iterations > max_iterations) {
        result.verdict = status::bad_iteration_count;
    } else if (header.reply_bytes != 0 &&
               (header.reply_bytes < min_reply_bytes(header.mode, header.server_timestamps,
                                                     header.server_receive_stamps,
                                                     header.server_transmit_stamps) ||
                header.reply_bytes > max_reply_bytes)) {
        result.verdict = status::bad_reply_size;
    }
    return result;
}

verdict_bytes encode_verdict(status s) noexcept {
    verdict_bytes out{};
    put_be(out, 0, magic, 4);
    put_be(out, 4, static_cast<std::uint16_t>(s), 2);
    put_be(out, 6, version, 2);
    return out;
}

decoded_verdict decode_verdict(const verdict_bytes& bytes) noexcept {
    return {get_be(bytes, 0, 4) == magic, static_cast<std::uint16_t>(get_be(bytes, 4, 2)),
            static_cast<std::uint16_t>(get_be(bytes, 6, 2))};
}

void fill_payload(std::span<std::byte> request) noexcept {
    for (std::size_t k = 0; k < request.size(); ++k) {
        request[k] = static_cast<std::byte>(k & 0xff);
    }
}

reply_bytes pingpong_reply(std::span<const std::byte> request) noexcept {
    return {request.front(), request.back()};
}

void fill_pingpong_reply(std::span<const std::byte> request, std::span<std::byte> reply) noexcept {
    reply.front() = request.front();
    reply.back() = request.back();
}

void encode_message_header(const message_header& header, std::span<std::byte> out) noexcept {
    put_be(out, 0, header.sequence, 8);
    put_be(out, 8, header.token, 4);
    put_be(out, 12, header.flags, 2);
    put_be(out, 14, 0, 2);
}

std::optional<message_header> decode_message_header(std::span<const std::byte> in) noexcept {
    if (in.size() < message_header_size) {
        return std::nullopt;
    }
    message_header header;
    header.sequence = get_be(in, 0, 8);
    header.token = static_cast<std::uint32_t>(get_be(in, 8, 4));
    header.flags = static_cast<std::uint16_t>(get_be(in, 12, 2));
    if ((header.flags & ~known_message_flags) != 0 || get_be(in, 14, 2) != 0) {
        return std::nullopt;
    }
    return header;
}

blob_length_bytes encode_blob_length(std::uint32_t length) noexcept {
    blob_length_bytes out{};
    put_be(out, 0, length, 4);
    return out;
}

std::optional<std::uint32_t> decode_blob_length(const blob_length_bytes& bytes) noexcept {
    const auto length = static_cast<std::uint32_t>(get_be(bytes, 0, 4));
    if (length == 0 || length > max_blob_bytes) {
        return std::nullopt;
    }
    return length;
}

}  // namespace sctp_perf::protocol
