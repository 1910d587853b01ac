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
//
// With the server's transmit stamps under load (TCP), so is the kernel's
// stamp of the reply before: the kernel stamps a send call once, at its
// last byte, so the reply that opens a call carries the stamp of the call
// before, which ended with its predecessor, and a reply whose predecessor
// goes in the same call keeps the 0 it was pushed with. Each call's stamp is
// read right after the call (on loopback the kernel makes it inside the
// send): a stamp left waiting on the error queue would wake the session for
// it alone (epoll reports the queue as EPOLLERR).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "transport/kernel_timestamps.hpp"
#include "transport/message_channel.hpp"
#include "transport/sctp_delivery.hpp"

namespace sctp_perf {

// What a reply_queue keeps of the kernel's transmit stamps. Outside the
// class: clang cannot construct a nested class with default member
// initializers inside a std::optional member of the class that encloses it.
struct reply_transmit_stamps {
    int fd = -1;
    std::size_t previous_at = 0;  // a reply's stamp of the one before, after its departure stamp
    // A kernel stamp (CLOCK_REALTIME) moved onto the steady clock, where it
    // must lie from `not_before` to `not_after`; 0 when it cannot be.
    std::function<std::uint64_t(std::int64_t stamp, std::uint64_t not_before,
                                std::uint64_t not_after)>
        to_steady;
    transmit_stamp_match last_call;  // the stamp of the last send call
    std::uint64_t last_call_ns = 0;  // the steady clock before it; 0: none yet
};

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

    using stamp_converter = decltype(reply_transmit_stamps::to_steady);
    // Turns the kernel's transmit stamps on for `fd`, a TCP socket with
    // nothing unacknowledged (the kernel keys the stamps by the stream's
    // bytes from there), and from the next send call on writes the stamp of
    // the call before into the reply that opens a call, `previous_at` bytes
    // after its departure stamp, moved by `to_steady`. Throws
    // std::system_error when the kernel refuses.
    void start_transmit_stamps(int fd, std::size_t previous_at, stamp_converter to_steady);
    // Takes every transmit stamp waiting on the error queue (a
    // retransmission's, a call's that came late), so that it does not wake
    // the session again; nothing without transmit stamps. For a wake-up
    // that brought no data.
    void drain_transmit_stamps();
    bool transmit_stamped() const noexcept { return transmit_.has_value(); }

    bool empty() const noexcept { return segments_.empty(); }
    // Bytes queued and not yet sent.
    std::size_t pending_bytes() const noexcept { return bytes_.size() - sent_; }

  private:
    // Writes the clock into the stamps of the bytes from sent_ to `end`
    // (`call_ns`, the clock read before the call, or read here when 0),
    // and into the reply that opens the call the stamp of the call before.
    void stamp_departures(std::size_t end, std::uint64_t call_ns);
    // After a send call of `bytes`, begun at `call_ns`: its stamp awaited.
    void note_call(std::size_t bytes, std::uint64_t call_ns);
    // Reads the error queue: all of it, or until the last call's stamp came.
    void take_transmit_stamps(bool all);
    // The last call's stamp on the steady clock, 0 when none came; `now_ns`
    // bounds it.
    std::uint64_t previous_call_departure(std::uint64_t now_ns);

    // A departure stamp's offset in bytes_, and that of its reply's first byte.
    struct stamp_slot {
        std::size_t at = 0;
        std::size_t reply_start = 0;
    };

    struct segment {
        std::size_t length = 0;
        sctp_delivery delivery;
    };

    bool byte_stream_;
    std::vector<std::byte> bytes_;   // every queued message, back to back
    std::size_t sent_ = 0;           // bytes_ before this offset are sent
    std::deque<segment> segments_;   // the messages in bytes_ from sent_ on
    std::size_t front_sent_ = 0;     // of segments_.front(), on a byte stream
    std::deque<stamp_slot> stamps_;  // the departure stamps not yet sent
    std::optional<reply_transmit_stamps> transmit_;
};

}  // namespace sctp_perf
