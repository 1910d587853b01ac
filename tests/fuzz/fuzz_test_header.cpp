// SPDX-License-Identifier: Apache-2.0
// The server's decoder of the test header, fed what a client may send: the
// 16-byte start alone (all that a client of version 1 or 2 sends) or the
// whole 24-byte header. What an accepted header promises is checked too: the
// limits of wire_protocol.hpp, and that it encodes back to the very bytes
// received.

#include <algorithm>

#include "protocol/wire_protocol.hpp"
#include "replay_channel.hpp"

using namespace sctp_perf;

namespace {

void check_start(const protocol::header_start_bytes& start) {
    const auto decoded = protocol::decode_header_start(start);
    if (protocol::describe(decoded.verdict).empty()) {
        fuzz::broken("every verdict has a sentence");
    }
    if (decoded.verdict != protocol::status::accepted &&
        decoded.verdict != protocol::status::bad_magic &&
        decoded.verdict != protocol::status::unsupported_version) {
        fuzz::broken("a header's start is refused for its magic or its version only");
    }
    if (decoded.verdict == protocol::status::accepted &&
        decoded.peer_version != protocol::version) {
        fuzz::broken("a start is read on only for this version");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size != protocol::header_start_size && size != protocol::header_size) {
        return -1;  // the server reads the start, then the rest; other sizes teach nothing
    }
    const auto input = fuzz::as_bytes(data, size);
    protocol::header_start_bytes start{};
    std::copy_n(input.begin(), start.size(), start.begin());
    check_start(start);
    if (size == protocol::header_start_size) {
        return 0;
    }
    protocol::header_bytes bytes{};
    std::copy_n(input.begin(), bytes.size(), bytes.begin());
    const auto decoded = protocol::decode_header(bytes);
    const auto from_start = protocol::decode_header_start(start);
    if (from_start.verdict != protocol::status::accepted &&
        (decoded.verdict != from_start.verdict ||
         decoded.peer_version != from_start.peer_version)) {
        fuzz::broken("a header refused from its start is refused alike when whole");
    }
    if (protocol::describe(decoded.verdict).empty()) {
        fuzz::broken("every verdict has a sentence");
    }
    if (decoded.verdict != protocol::status::accepted) {
        return 0;
    }
    const auto& header = decoded.header;
    if (header.payload_bytes < 1 || header.payload_bytes > protocol::max_payload_bytes) {
        fuzz::broken("an accepted header asks for 1..65536 bytes");
    }
    if (header.mode != protocol::test_mode::ping_pong &&
        header.payload_bytes < protocol::min_load_payload_bytes) {
        fuzz::broken("an accepted framed mode has room for its message header");
    }
    if (header.iterations > protocol::max_iterations) {
        fuzz::broken("an accepted header asks for at most max_iterations");
    }
    // With server timestamps (--one-way) a reply also holds the server's two
    // stamps, server_stamps_size bytes more than the mode's own, with its
    // receive stamps a third, and with its transmit stamps a fourth.
    if (header.server_receive_stamps && !header.server_timestamps) {
        fuzz::broken("an accepted header asks for receive stamps only with server timestamps");
    }
    if (header.server_transmit_stamps && !header.server_receive_stamps) {
        fuzz::broken("an accepted header asks for transmit stamps only with receive stamps");
    }
    const auto smallest =
        protocol::min_reply_bytes(header.mode, header.server_timestamps,
                                  header.server_receive_stamps, header.server_transmit_stamps);
    if (header.reply_bytes != 0 &&
        (header.reply_bytes < smallest || header.reply_bytes > protocol::max_reply_bytes)) {
        fuzz::broken(
            "an accepted reply size holds the mode's own reply, and the stamps when asked for, "
            "and is at most 64 KiB");
    }
    if (protocol::reply_size_of(header) < smallest) {
        fuzz::broken("every accepted test's replies hold the mode's own reply and any stamps");
    }
    if (decoded.peer_version != protocol::version || protocol::encode_header(header) != bytes) {
        fuzz::broken("an accepted header is exactly what encode_header makes of it");
    }
    return 0;
}
