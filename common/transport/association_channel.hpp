// SPDX-License-Identifier: Apache-2.0
#pragma once
// One SCTP association served on a one-to-many socket that it shares with
// every other association (SOCK_SEQPACKET, not peeled off), seen as a
// message channel, so that the server's session state machine
// (server/session.hpp) serves it exactly as it serves a socket of its own.
//
// A shared socket cannot be read for one association alone: one reader
// (server/one_to_many_worker.hpp) takes each message off it with its
// association id (SCTP_RCVINFO) and hands it to that association's channel
// (deliver), whose receive_part then gives it to the session. Sends name
// the association and the request's stream, ordering and PR-SCTP policy
// (SCTP_SNDINFO, SCTP_PRINFO) and never wait: a full send buffer is
// reported as 0 bytes sent, as on any channel an event loop drives.
//
// Only the non-blocking calls exist: the blocking ones (send_message,
// receive_message, receive_ready) would have to read the shared socket and
// throw std::logic_error.

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "transport/message_channel.hpp"

namespace sctp_perf {

class association_channel final : public message_channel {
  public:
    // `socket` is the shared one-to-many socket; the channel does not own it.
    association_channel(int socket, sctp_assoc_t assoc_id) noexcept
        : socket_(socket), assoc_id_(assoc_id) {}

    // From the reader of the shared socket: `bytes` arrived for this
    // association, the whole of a message or (partial delivery) a part of
    // it, the last part with `message_end`. `arrival_ns` is the kernel's
    // receive stamp of the read that brought it (0 when none came): the
    // session's last_arrival_ns() once it has read this part, when it takes
    // arrival stamps.
    void deliver(std::span<const std::byte> bytes, bool message_end, const sctp_delivery& how,
                 std::int64_t arrival_ns = 0);
    // From the reader: the association ended. What the session reads after
    // the messages already delivered: peer_closed for a shutdown, else
    // peer_error with `why`.
    void end(bool shut_down_by_peer, std::string why);

    // Bytes delivered and not yet read by the session.
    std::size_t queued_bytes() const noexcept { return queued_bytes_; }
    // Whether the association has ended (end() was called).
    bool ended() const noexcept { return ending_.has_value(); }

    using message_channel::receive_message;
    using message_channel::receive_ready;
    using message_channel::send_message;
    using message_channel::send_ready;
    void send_message(std::span<const std::byte> message, const sctp_delivery& delivery) override;
    void receive_message(std::span<std::byte> message, sctp_delivery* delivery) override;
    std::size_t receive_ready(std::span<std::byte> buffer, std::size_t message_size,
                              sctp_delivery* delivery) override;
    // Sends one whole SCTP message on this association, or nothing (0).
    std::size_t send_ready(std::span<const std::byte> bytes,
                           const sctp_delivery& delivery) override;
    // What deliver() queued, a part at most buffer.size() long; never waits
    // (`wait` is ignored: only the shared socket's reader waits).
    received_part receive_part(std::span<std::byte> buffer, bool with_delivery, bool wait) override;

    int native_handle() const noexcept override { return socket_; }
    std::int32_t association_id() const noexcept override { return assoc_id_; }
    bool keeps_message_boundaries() const noexcept override { return true; }
    // Asks the kernel (SCTP_STATUS of this association); false when it
    // cannot say.
    bool send_waits_on_others() const noexcept override;

  private:
    struct part {
        std::size_t bytes = 0;
        bool message_end = false;
        sctp_delivery how;
        std::int64_t arrival_ns = 0;
    };
    struct ending {
        bool shut_down_by_peer = false;
        std::string why;
    };

    int socket_;
    sctp_assoc_t assoc_id_;
    // The bytes of the queued parts, front first: one buffer, reused, so
    // that a message costs no allocation once the queue has grown.
    std::vector<std::byte> bytes_;
    std::size_t read_at_ = 0;  // of bytes_: what the session has taken
    std::deque<part> parts_;
    std::size_t front_taken_ = 0;  // of parts_.front(): taken by a shorter read
    std::size_t queued_bytes_ = 0;
    std::optional<ending> ending_;
};

}  // namespace sctp_perf
