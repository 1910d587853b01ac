#include "protocol/wire_protocol.hpp"

namespace sctp_perf::protocol {
namespace {

template <std::size_t N>
void put_u32(std::array<std::byte, N>& out, std::size_t at, std::uint32_t v) noexcept {
    out[at] = std::byte(v >> 24);
    out[at + 1] = std::byte(v >> 16);
    out[at + 2] = std::byte(v >> 8);
    out[at + 3] = std::byte(v);
}

template <std::size_t N>
void put_u16(std::array<std::byte, N>& out, std::size_t at, std::uint16_t v) noexcept {
    out[at] = std::byte(v >> 8);
    out[at + 1] = std::byte(v);
}

template <std::size_t N>
std::uint32_t get_u32(const std::array<std::byte, N>& in, std::size_t at) noexcept {
    return std::to_integer<std::uint32_t>(in[at]) << 24 |
           std::to_integer<std::uint32_t>(in[at + 1]) << 16 |
           std::to_integer<std::uint32_t>(in[at + 2]) << 8 |
           std::to_integer<std::uint32_t>(in[at + 3]);
}

template <std::size_t N>
std::uint16_t get_u16(const std::array<std::byte, N>& in, std::size_t at) noexcept {
    return static_cast<std::uint16_t>(std::to_integer<unsigned>(in[at]) << 8 |
                                      std::to_integer<unsigned>(in[at + 1]));
}

}  // namespace

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
            return "iteration count outside 1..1000000100";
        case status::server_busy:
            return "server is serving its maximum number of clients; try again later";
        case status::bad_flags:
            return "unknown flags in the test header (client is newer than the server)";
    }
    return "unknown refusal reason";
}

header_bytes encode_header(const test_header& header) noexcept {
    header_bytes out{};
    put_u32(out, 0, magic);
    put_u16(out, 4, version);
    put_u16(out, 6, 0);
    put_u32(out, 8, header.payload_bytes);
    put_u32(out, 12, header.iterations);
    return out;
}

decoded_header decode_header(const header_bytes& bytes) noexcept {
    decoded_header result;
    if (get_u32(bytes, 0) != magic) {
        result.verdict = status::bad_magic;
    } else if (get_u16(bytes, 4) != version) {
        result.verdict = status::unsupported_version;
    } else if (get_u16(bytes, 6) != 0) {
        result.verdict = status::bad_flags;
    } else {
        result.header.payload_bytes = get_u32(bytes, 8);
        result.header.iterations = get_u32(bytes, 12);
        if (result.header.payload_bytes < 1 || result.header.payload_bytes > max_payload_bytes) {
            result.verdict = status::bad_payload_size;
        } else if (result.header.iterations < 1 || result.header.iterations > max_iterations) {
            result.verdict = status::bad_iteration_count;
        }
    }
    return result;
}

verdict_bytes encode_verdict(status s) noexcept {
    verdict_bytes out{};
    put_u32(out, 0, magic);
    put_u16(out, 4, static_cast<std::uint16_t>(s));
    put_u16(out, 6, 0);
    return out;
}

decoded_verdict decode_verdict(const verdict_bytes& bytes) noexcept {
    return {get_u32(bytes, 0) == magic, get_u16(bytes, 4)};
}

reply_bytes encode_reply(std::uint64_t iteration) noexcept {
    reply_bytes out{};
    put_u16(out, 0, static_cast<std::uint16_t>(iteration & 0xffff));
    return out;
}

bool reply_matches(const reply_bytes& reply, std::uint64_t iteration) noexcept {
    return get_u16(reply, 0) == static_cast<std::uint16_t>(iteration & 0xffff);
}

}  // namespace sctp_perf::protocol
