// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a session has to send and its socket has not taken yet: the verdict,
// the settings and account blobs, and the replies.
//
// An event-driven session never waits for room in the socket: it queues,
// sends what the kernel takes at once, and sends the rest when the socket
// is writable again. Each entry is one message with its own SCTP delivery
// (the stream and ordering of the request it answers). On a byte stream an
// entry is joined to the one before it when both travel alike, so that the
// replies to one read leave in one send, as a blocking server sends them;
// on SOCK_SEQPACKET every entry stays one SCTP message.

#include <cstddef>
#include <deque>
#include <span>
#include <vector>

#include "transport/message_channel.hpp"
#include "transport/sctp_delivery.hpp"

namespace sctp_perf {

class reply_queue {
  public:
    explicit reply_queue(bool byte_stream) noexcept : byte_stream_(byte_stream) {}

    void push(std::span<const std::byte> message, const sctp_delivery& delivery);
    // Sends what `channel` takes without waiting; true when anything went.
    // Throws what the channel's send_ready throws.
    bool flush(message_channel& channel);

    bool empty() const noexcept { return segments_.empty(); }
    // Bytes queued and not yet sent.
    std::size_t pending_bytes() const noexcept { return bytes_.size() - sent_; }

  private:
    struct segment {
        std::size_t length = 0;
        sctp_delivery delivery;
    };

    bool byte_stream_;
    std::vector<std::byte> bytes_;  // every queued message, back to back
    std::size_t sent_ = 0;          // bytes_ before this offset are sent
    std::deque<segment> segments_;  // the messages in bytes_ from sent_ on
    std::size_t front_sent_ = 0;    // of segments_.front(), on a byte stream
};

}  // namespace sctp_perf
