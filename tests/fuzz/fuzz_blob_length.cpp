// SPDX-License-Identifier: Apache-2.0
// The blob length and receive_blob, which reads it and then the text: the
// settings after a verdict, and a load test's final account, whose first
// bytes a byte-stream reader may already hold when it calls (`already`).
//
// Input: byte 0 says how many of the following bytes came `already`; the
// rest of them arrive on the channel.

#include <optional>

#include "protocol/wire_protocol.hpp"
#include "replay_channel.hpp"

using namespace sctp_perf;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return -1;
    }
    const auto peer = fuzz::as_bytes(data + 1, size - 1);
    std::optional<std::uint32_t> length;
    if (peer.size() >= protocol::blob_length_size) {
        protocol::blob_length_bytes bytes{};
        std::copy_n(peer.begin(), bytes.size(), bytes.begin());
        length = protocol::decode_blob_length(bytes);
        const auto raw = std::uint32_t{data[1]} << 24 | std::uint32_t{data[2]} << 16 |
                         std::uint32_t{data[3]} << 8 | std::uint32_t{data[4]};
        if (length.has_value() != (raw >= 1 && raw <= protocol::max_blob_bytes)) {
            fuzz::broken("a blob length is accepted exactly when it is 1..max_blob_bytes");
        }
        if (length && protocol::encode_blob_length(*length) != bytes) {
            fuzz::broken("an accepted length is exactly what encode_blob_length makes of it");
        }
    }

    const auto already_size = std::min<std::size_t>(data[0], peer.size());
    fuzz::replay_channel channel(peer.subspan(already_size));
    try {
        const auto text = receive_blob(channel, peer.first(already_size));
        if (!length || text.size() != *length ||
            peer.size() < protocol::blob_length_size + text.size() ||
            !std::equal(text.begin(), text.end(),
                        reinterpret_cast<const char*>(peer.data()) + protocol::blob_length_size)) {
            fuzz::broken("a blob is the bytes after its length, as many as it says");
        }
    } catch (const peer_error&) {
        // A length out of range, or the peer closed before the end.
    }
    return 0;
}
