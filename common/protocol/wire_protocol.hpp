#pragma once
// The wire protocol between a client and a server. All integers are in network
// byte order (big-endian).
//
//   client -> server  test header, 16 bytes:
//       magic u32 = 0x53505246 ("SPRF")   version u16 = 1   flags u16 = 0
//       payload_bytes u32 (1..65536)      iterations u32 (primer included, 1..max_iterations)
//   server -> client  verdict, 8 bytes:
//       magic u32   status u16 (0 = accepted, else a refusal reason)   reserved u16 = 0
//   then `iterations` times:
//       client -> server  request: exactly payload_bytes bytes
//       server -> client  reply, 2 bytes: the low 16 bits of the iteration
//                         number (from 0, primer included), so the client can
//                         tell a reply from a stale or foreign one.
//
// The verdict arrives before any timing starts, so a refused client can say why.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sctp_perf::protocol {

inline constexpr std::uint32_t magic = 0x53505246;
inline constexpr std::uint16_t version = 1;
inline constexpr std::size_t header_size = 16;
inline constexpr std::size_t verdict_size = 8;
inline constexpr std::size_t reply_size = 2;
inline constexpr std::uint32_t max_payload_bytes = 65536;  // 2^16
inline constexpr std::uint32_t primer_iterations = 100;
inline constexpr std::uint32_t max_measured_iterations = 1'000'000'000;
inline constexpr std::uint32_t max_iterations = max_measured_iterations + primer_iterations;

enum class status : std::uint16_t {
    accepted = 0,
    bad_magic = 1,
    unsupported_version = 2,
    bad_payload_size = 3,
    bad_iteration_count = 4,
    server_busy = 5,
    bad_flags = 6,
};

// A human sentence for a status, for logs and the client's error message.
std::string_view describe(status s) noexcept;

struct test_header {
    std::uint32_t payload_bytes = 0;
    std::uint32_t iterations = 0;  // primer included
};

using header_bytes = std::array<std::byte, header_size>;
using verdict_bytes = std::array<std::byte, verdict_size>;
using reply_bytes = std::array<std::byte, reply_size>;

header_bytes encode_header(const test_header& header) noexcept;

struct decoded_header {
    status verdict = status::accepted;  // accepted, or why the header is refused
    test_header header;                 // meaningful only when accepted
};
decoded_header decode_header(const header_bytes& bytes) noexcept;

verdict_bytes encode_verdict(status s) noexcept;

struct decoded_verdict {
    bool well_formed = false;  // false: not an sctp-perf server (wrong magic)
    std::uint16_t raw_status = 0;
};
decoded_verdict decode_verdict(const verdict_bytes& bytes) noexcept;

reply_bytes encode_reply(std::uint64_t iteration) noexcept;
bool reply_matches(const reply_bytes& reply, std::uint64_t iteration) noexcept;

}  // namespace sctp_perf::protocol
