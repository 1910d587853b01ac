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
//
// With server timestamps, a reply's departure stamp is written here, from a
// clock read just before the send() that offers its first byte: a reply that
// waits in this queue for room is stamped when it goes, not when it was made.

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

    // Where departure stamps go in a pushed message: 8 bytes at `first_at`,
    // and again every `every` bytes (every reply of one read; 0: one stamp).
    struct departure_stamps {
        std::size_t first_at = 0;
        std::size_t every = 0;
    };

    void push(std::span<const std::byte> message, const sctp_delivery& delivery);
    void push(std::span<const std::byte> message, const sctp_delivery& delivery,
              const departure_stamps& stamps);
    // Sends what `channel` takes without waiting; true when anything went.
    // Throws what the channel's send_ready throws.
    bool flush(message_channel& channel);

    bool empty() const noexcept { return segments_.empty(); }
    // Bytes queued and not yet sent.
    std::size_t pending_bytes() const noexcept { return bytes_.size() - sent_; }

  private:
    // Writes the clock into the stamps of the bytes from sent_ to `end`.
    void stamp_departures(std::size_t end);

    struct segment {
        std::size_t length = 0;
        sctp_delivery delivery;
    };

    bool byte_stream_;
    std::vector<std::byte> bytes_;    // every queued message, back to back
    std::size_t sent_ = 0;            // bytes_ before this offset are sent
    std::deque<segment> segments_;    // the messages in bytes_ from sent_ on
    std::size_t front_sent_ = 0;      // of segments_.front(), on a byte stream
    std::deque<std::size_t> stamps_;  // offsets in bytes_ of departure stamps not yet sent
};

}  // namespace sctp_perf
