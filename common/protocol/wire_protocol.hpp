// SPDX-License-Identifier: Apache-2.0
#pragma once
// The wire protocol between a client and a server, version 3. All integers
// are in network byte order (big-endian). README.SCTP_PERF_TEST section 12
// draws every message; this header is the one place that builds and checks
// them.
//
//   client -> server  test header, 24 bytes:
//       magic u32 = 0x53505246 ("SPRF")   version u16 = 3
//       flags u16: bits 0-1 the mode (0 ping-pong, 1 rate, 2 throughput,
//                  3 framed ping-pong); bit 2 server timestamps (see
//                  flag_server_timestamps and below); bit 3, only with
//                  bit 2, the server's kernel receive stamps too (see
//                  flag_server_receive_stamps); bit 4, only with bit 3,
//                  the server's kernel transmit stamps too (see
//                  flag_server_transmit_stamps); others 0
//       payload_bytes u32 (1..65536; a load mode needs at least 16)
//       iterations u32: messages the client will send, primer included
//                       (1..max_iterations), or 0: until the client ends the test
//       reply_bytes u32: 0, each reply of the mode's own size (16 bytes more
//                        with server timestamps, 24 with its receive
//                        stamps too, 32 with its transmit stamps as
//                        well); else the size asked for
//                        each reply (see min_reply_bytes)
//       max_gap_ms u32: the longest gap, in milliseconds rounded up, that the
//                       client's schedule leaves between two requests of
//                       this connection; 0 without a schedule (a closed loop)
//   The first 16 bytes are laid out alike in versions 1 to 3, and a header of
//   version 1 or 2 has only those: the server reads them first, and answers
//   a client of another version from them alone (header_start_size).
//   server -> client  verdict, 8 bytes:
//       magic u32   status u16 (0 = accepted, else a refusal reason)
//       version u16: the server's protocol version (a version 1 server sent 0)
//   after an accepted verdict, server -> client: the server's settings, a blob
//   then, ping-pong, per iteration i (primer included):
//       client -> server  request: payload_bytes bytes; bytes 0 and
//                         payload_bytes - 1 carry check bytes the client
//                         draws at random for each request, every other byte
//                         k holds k mod 256
//       server -> client  reply, reply_size_of(header) bytes (2 unless
//                         reply_bytes asks for more): its first byte is
//                         request[0], its last request[payload_bytes - 1],
//                         every other byte k holds k mod 256; so a reply of
//                         payload_bytes bytes is the request itself (an echo)
//   or, in a load mode or framed ping-pong, per message:
//       client -> server  request: payload_bytes bytes opening with a
//                         16-byte message header (below), then k mod 256
//       server -> client  only for a request that asks for one: a reply of
//                         reply_size_of(header) bytes (16 unless reply_bytes
//                         asks for more): a copy of the request's message
//                         header, then byte k = k mod 256; so a reply of
//                         payload_bytes bytes is the request itself (an echo)
//   and the last request carries the end flag: the server replies to it, then
//   sends its own account of the test as a blob.
//
//   server stamps, with flag_server_timestamps only: 16 bytes in every reply,
//   right after the mode's own part (bytes 1..16 of a ping-pong reply, whose
//   last byte stays the request's last check byte; bytes 16..31 of a framed
//   reply): arrival u64, then departure u64, nanoseconds of the server's
//   CLOCK_MONOTONIC. Arrival is when the server's read of the request
//   completed, departure is read just before the reply is handed to send().
//   Without the flag no reply carries them, and every byte is as before.
//   With flag_server_receive_stamps too, 8 bytes more follow: kernel arrival
//   u64, when the server's kernel stamped the request's arrival (its
//   software receive stamp of the read that completed the request), moved
//   onto the server's CLOCK_MONOTONIC; 0 when that read carried no stamp.
//   With flag_server_transmit_stamps as well, 8 bytes more: previous
//   departure from the device u64, when the server's kernel handed the
//   previous reply of this connection to its device (its software transmit
//   stamp, SCM_TSTAMP_SND), moved onto the server's CLOCK_MONOTONIC; 0 in
//   the first reply, and when that reply's stamp had not come. A reply's
//   own stamp is known only once it has left, so it travels one reply
//   later: in plain ping-pong the client that asks sends one round trip
//   more than it measures, whose reply brings the last measured one's; in
//   the framed modes the end-of-test reply brings the last one's. The
//   kernel stamps a send call once, at its last byte: so under load only a
//   reply that opens a send call carries its predecessor's stamp (the call
//   before ended with that reply), and one whose predecessor went in the
//   same call carries 0.
//
//   message header, 16 bytes: sequence u64 (per connection, from 0, primer
//   included), token u32 (drawn at random per message; the reply must carry
//   it back), flags u16 (bit 0 reply wanted, bit 1 end of test, bit 2 primer:
//   its reply is never given up under PR-SCTP), reserved u16 = 0.
//
//   blob: a length u32 (1..max_blob_bytes), then that many bytes of a JSON
//   object. On SOCK_SEQPACK the length and the text are one SCTP message each,
//   like every other message.
//
// The random check bytes and tokens prove that the server read each request:
// a peer that answers without reading, or replays an old session, cannot know
// them. The verdict arrives before any timing starts, so a refused client can
// say why.
//
// Version 3 reserved the server timestamps flag from its start, and its
// first servers refused it with unsupported_feature: a client that asks for
// them from such a server hears why, and this server serves them with no
// change to the version or to the bytes of a test that does not ask.
// Replies of another size (reply_bytes) are served.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace sctp_perf::protocol {

inline constexpr std::uint32_t magic = 0x53505246;
inline constexpr std::uint16_t version = 3;
inline constexpr std::size_t header_size = 24;
// The start of a test header, laid out alike in every version (magic,
// version, then fields that version 3 still has), and the whole header of
// versions 1 and 2.
inline constexpr std::size_t header_start_size = 16;
inline constexpr std::size_t verdict_size = 8;
inline constexpr std::size_t reply_size = 2;  // ping-pong
inline constexpr std::size_t message_header_size = 16;
inline constexpr std::size_t load_reply_size = message_header_size;
// Server timestamps: arrival u64, departure u64 (see the top of this file).
inline constexpr std::size_t server_stamps_size = 16;
// With the server's receive stamps too: kernel arrival u64 after them.
inline constexpr std::size_t server_receive_stamp_size = 8;
// With its transmit stamps as well: the previous reply's departure from the
// device u64 after that.
inline constexpr std::size_t server_transmit_stamp_size = 8;
inline constexpr std::uint32_t max_payload_bytes = 65536;                     // 2^16
inline constexpr std::uint32_t min_load_payload_bytes = message_header_size;  // 2^4
inline constexpr std::uint32_t max_measured_iterations = 1'000'000'000;
// The most iterations a test header may ask for, primer included: the most
// measured ones after ACE's 100 primer iterations. The number of primers is
// the client's to choose (--primer); the server only counts what it is sent.
inline constexpr std::uint32_t max_iterations = max_measured_iterations + 100;
inline constexpr std::uint32_t blob_length_size = 4;
inline constexpr std::uint32_t max_blob_bytes = 65536;
// reply_bytes, when not 0: at least the mode's own reply (reply_size in
// ping-pong, load_reply_size in the framed modes, each server_stamps_size
// more with server timestamps), at most this.
inline constexpr std::uint32_t max_reply_bytes = 65536;  // 2^16

// Framed ping-pong is a closed loop (one request in flight) carried in the
// load modes' framing, so that it can run over many flows with the load
// modes' interval outputs; plain ping-pong keeps the leanest loop.
enum class test_mode : std::uint8_t {
    ping_pong = 0,
    rate = 1,
    throughput = 2,
    framed_ping_pong = 3
};
// "ping-pong" (both kinds), "rate", "throughput"
std::string_view name_of(test_mode mode) noexcept;

enum class status : std::uint16_t {
    accepted = 0,
    bad_magic = 1,
    unsupported_version = 2,
    bad_payload_size = 3,
    bad_iteration_count = 4,
    server_busy = 5,
    bad_flags = 6,
    payload_too_small_for_mode = 7,
    bad_reply_size = 8,
    unsupported_feature = 9,
};

// A human sentence for a status, for logs and the client's error message.
std::string_view describe(status s) noexcept;

// Flag bit 2: the server is to stamp each request's arrival and its reply's
// departure into the reply, for one-way latency (see the top of this file).
// A server of version 3 that predates them refuses it (unsupported_feature).
inline constexpr std::uint16_t flag_server_timestamps = 1U << 2;
// Flag bit 3, only with bit 2: each reply also carries when the server's
// kernel stamped the request's arrival, so that the client's --timestamps
// can tell the server's wake-up from the network. A server that predates
// it refuses the header's flags (bad_flags); one given bit 3 without bit 2
// does too.
inline constexpr std::uint16_t flag_server_receive_stamps = 1U << 3;
// Flag bit 4, only with bit 3: each reply also carries when the server's
// kernel handed the previous reply to its device, so that the client's
// --timestamps can tell the server's send stack from the network (a TCP
// server only: the kernel's SCTP makes no transmit stamp, and such a
// server sends 0). A server that predates it refuses the header's flags
// (bad_flags), as it does for the bit without bit 3; one of the release
// before this refused it outside plain ping-pong.
inline constexpr std::uint16_t flag_server_transmit_stamps = 1U << 4;

struct test_header {
    std::uint32_t payload_bytes = 0;
    std::uint32_t iterations = 0;  // primer included; 0: until the client ends the test
    test_mode mode = test_mode::ping_pong;
    bool server_timestamps = false;       // flag_server_timestamps
    bool server_receive_stamps = false;   // flag_server_receive_stamps
    bool server_transmit_stamps = false;  // flag_server_transmit_stamps
    std::uint32_t reply_bytes = 0;        // 0: the mode's own reply size
    std::uint32_t max_gap_ms = 0;         // 0: no schedule
};

// The smallest reply a mode can carry: what its replies must return, and
// the server's stamps when asked for.
std::uint32_t min_reply_bytes(test_mode mode, bool server_timestamps = false,
                              bool server_receive_stamps = false,
                              bool server_transmit_stamps = false) noexcept;
// The size of every reply of a test: reply_bytes, or the mode's own when 0.
std::uint32_t reply_size_of(const test_header& header) noexcept;

using header_bytes = std::array<std::byte, header_size>;
using header_start_bytes = std::array<std::byte, header_start_size>;
using verdict_bytes = std::array<std::byte, verdict_size>;
using reply_bytes = std::array<std::byte, reply_size>;
using message_header_bytes = std::array<std::byte, message_header_size>;
using blob_length_bytes = std::array<std::byte, blob_length_size>;

header_bytes encode_header(const test_header& header) noexcept;

struct decoded_header {
    status verdict = status::accepted;  // accepted, or why the header is refused
    test_header header;                 // meaningful only when accepted
    std::uint16_t peer_version = 0;     // the version the client announced
};
// The first header_start_size bytes of a header: whether the rest is worth
// reading. The verdict is bad_magic, unsupported_version (a client of
// version 1 or 2 has sent its whole header by then), or accepted: a header
// of this version, whose whole header_size bytes decode_header() then judges.
decoded_header decode_header_start(const header_start_bytes& bytes) noexcept;
// The whole header: the verdict names the first broken rule, in the order
// magic, version, flags, payload size, iteration count, reply size (with
// server timestamps, at least the mode's own reply and the stamps).
// unsupported_feature is never given by this server, which serves every
// flag it knows; a client still reads it from a server that predates one.
decoded_header decode_header(const header_bytes& bytes) noexcept;

verdict_bytes encode_verdict(status s) noexcept;

struct decoded_verdict {
    bool well_formed = false;  // false: not an sctp-perf server (wrong magic)
    std::uint16_t raw_status = 0;
    std::uint16_t server_version = 0;  // 0: a version 1 server
};
decoded_verdict decode_verdict(const verdict_bytes& bytes) noexcept;

// Fills a request with its defined filler, byte k = k mod 256, so that the
// bytes on the wire are defined and a capture is recognisable; the check
// bytes or the message header are written over it per request.
void fill_payload(std::span<std::byte> request) noexcept;

// Ping-pong: the reply a server sends to `request` (non-empty).
reply_bytes pingpong_reply(std::span<const std::byte> request) noexcept;
// Ping-pong, a reply of any size (at least reply_size bytes): writes the
// request's check bytes into its first and last bytes. The bytes between
// are the filler that fill_payload() wrote once into `reply`.
void fill_pingpong_reply(std::span<const std::byte> request, std::span<std::byte> reply) noexcept;

// Server timestamps: where they sit in a reply of `mode` (the departure
// stamp 8 bytes further on).
std::size_t server_stamps_offset(test_mode mode) noexcept;

// The server's two stamps of one request, in nanoseconds of its
// CLOCK_MONOTONIC.
struct server_stamps {
    std::uint64_t arrival_ns = 0;
    std::uint64_t departure_ns = 0;
    // The kernel's, with flag_server_receive_stamps only; 0 otherwise.
    std::uint64_t kernel_arrival_ns = 0;
    // The kernel's, of the previous reply, with flag_server_transmit_stamps
    // only; 0 otherwise, in the first reply, and when it had not come.
    std::uint64_t previous_kernel_departure_ns = 0;
    friend bool operator==(const server_stamps&, const server_stamps&) = default;
};
// Writes one 8-byte stamp at out[0..8).
void encode_server_stamp(std::uint64_t ns, std::span<std::byte> out) noexcept;
// The stamps, from a reply of `mode` that has room for them: the kernel's
// arrival too when `with_receive_stamp`, and its departure of the previous
// reply when `with_transmit_stamp` as well.
server_stamps decode_server_stamps(test_mode mode, std::span<const std::byte> reply,
                                   bool with_receive_stamp = false,
                                   bool with_transmit_stamp = false) noexcept;

// Load modes: the message header that opens every request and makes up every reply.
inline constexpr std::uint16_t flag_reply_wanted = 1;
inline constexpr std::uint16_t flag_end_of_test = 2;
// A primer request: the server sends its reply fully reliable whatever
// PR-SCTP policy the test uses, since the client waits for every primer
// reply before it starts measuring. Set by the client, so that the number
// of primers is the client's to choose.
inline constexpr std::uint16_t flag_primer = 4;
inline constexpr std::uint16_t known_message_flags =
    flag_reply_wanted | flag_end_of_test | flag_primer;

struct message_header {
    std::uint64_t sequence = 0;
    std::uint32_t token = 0;
    std::uint16_t flags = 0;

    bool reply_wanted() const noexcept { return (flags & flag_reply_wanted) != 0; }
    bool primer() const noexcept { return (flags & flag_primer) != 0; }
    bool end_of_test() const noexcept { return (flags & flag_end_of_test) != 0; }
    friend bool operator==(const message_header&, const message_header&) = default;
};

// Writes the header into the first message_header_size bytes of `out`.
void encode_message_header(const message_header& header, std::span<std::byte> out) noexcept;
// nullopt when `in` is shorter than a header, or sets unknown flags or reserved bits.
std::optional<message_header> decode_message_header(std::span<const std::byte> in) noexcept;

// Blob lengths: nullopt for 0 or more than max_blob_bytes.
blob_length_bytes encode_blob_length(std::uint32_t length) noexcept;
std::optional<std::uint32_t> decode_blob_length(const blob_length_bytes& bytes) noexcept;

}  // namespace sctp_perf::protocol
