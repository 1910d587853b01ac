// SPDX-License-Identifier: Apache-2.0
#pragma once
// Messages over SCTP SOCK_SEQPACKET sockets: the test header, the verdict,
// each request and each reply is exactly one SCTP message, so the kernel keeps
// the boundaries and a message of the wrong size is seen as such (MSG_EOR
// marks where a message ends) instead of shifting every later one.
//
// The socket holds one association: one peeled off a one-to-many socket
// (sctp_peeloff), which sends and receives without naming the association.
// Same bounds as stream_channel: every call is limited by set_io_timeout.
//
// SCTP notifications that arrive on the socket are never taken for data.
// The ones saying the association ended (the peer shut it down, aborted it,
// stopped answering or restarted) end the receive at once with a
// peer_error: on a peeled-off socket nothing else wakes a receive when the
// peer goes away, so without them a vanished peer would cost a full I/O
// timeout.

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <chrono>
#include <optional>
#include <span>
#include <vector>

#include "transport/message_channel.hpp"

namespace sctp_perf {

// A message already read off the one-to-many socket before its association
// was peeled off, handed to the channel so that it is not lost.
struct pending_message {
    std::vector<std::byte> bytes;
    bool complete = true;  // MSG_EOR was seen: this is the whole message
};

class seqpacket_channel final : public message_channel {
  public:
    // The first receive_message delivers `first` (if any) before reading.
    explicit seqpacket_channel(unique_fd socket,
                               std::optional<pending_message> first = std::nullopt) noexcept
        : socket_(std::move(socket)), pending_(std::move(first)) {}

    using message_channel::receive_message;
    using message_channel::receive_ready;
    using message_channel::send_message;
    using message_channel::send_ready;
    // Sends `message` as one SCTP message.
    void send_message(std::span<const std::byte> message, const sctp_delivery& delivery) override;
    // Receives one SCTP message; throws peer_error unless it is exactly
    // message.size() bytes long.
    void receive_message(std::span<std::byte> message, sctp_delivery* delivery) override;
    int native_handle() const noexcept override { return socket_.get(); }
    bool keeps_message_boundaries() const noexcept override { return true; }
    std::size_t send_ready(std::span<const std::byte> bytes,
                           const sctp_delivery& delivery) override;
    // One sendmmsg(), each message one SCTP message.
    std::size_t send_batch_ready(std::span<const outgoing_message> messages) override;
    std::size_t receive_ready(std::span<std::byte> buffer, std::size_t message_size,
                              sctp_delivery* delivery) override;
    // Notifications are taken here and never returned: one saying the
    // association ended throws as receive_message does.
    received_part receive_part(std::span<std::byte> buffer, bool with_delivery, bool wait) override;

  private:
    // Completes a message of which `received` bytes are in `message` already.
    void receive_rest(std::span<std::byte> message, std::size_t received,
                      sctp_delivery* delivery = nullptr);
    // What receive_part hands over of a message read before the peel-off.
    received_part take_pending(std::span<std::byte> buffer);
    // One read of data into `buffer`; the notifications that come first are
    // taken (take_notification) and the read made again. Returns what the
    // read of data returned (errno as it left it), sets `message_end` to
    // its MSG_EOR and, with `delivery`, says how it travelled. `received`
    // of the `expected` bytes of the message are in already (for the
    // errors' sentences).
    ssize_t read_data(std::span<std::byte> buffer, int flags, sctp_delivery* delivery,
                      bool& message_end, std::size_t received, std::size_t expected);
    // Reads the rest of a notification that came in `first_part` and throws
    // as receive_message does if it says that the association ended.
    void take_notification(std::span<const std::byte> first_part, bool complete,
                           std::size_t received, std::size_t expected);

    unique_fd socket_;
    std::optional<pending_message> pending_;
    batch_sender batch_;
};

// Subscribes `fd` to the notifications a server needs to learn of new
// associations (SCTP_ASSOC_CHANGE) and a channel needs to notice a peer that
// left (SCTP_ASSOC_CHANGE, SCTP_SHUTDOWN_EVENT). Associations set up later,
// and sockets peeled off with them, keep the subscription. Throws
// std::system_error.
void subscribe_association_events(int fd);

// Moves association `assoc_id` off the one-to-many socket `fd` onto a socket
// of its own (SOCK_SEQPACKET, closed on exec), taking along whatever of it
// was queued but not yet read. Throws std::system_error.
unique_fd peel_off_association(int fd, sctp_assoc_t assoc_id);

}  // namespace sctp_perf
