// SPDX-License-Identifier: Apache-2.0
#pragma once
// Every recvmsg() on an SCTP socket goes through here: the channels', the
// one-to-many server's and its listener's. One read brings part or all of
// one message or one notification (MSG_NOTIFICATION), with MSG_EOR on the
// part that ends it, and, when asked, the SCTP_RCVINFO saying which stream
// and association it came on.

#include <netinet/in.h>
#include <netinet/sctp.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "transport/sctp_delivery.hpp"
#include "transport/sctp_notification.hpp"

namespace sctp_perf {

// One recvmsg() into `buffer` with `flags`. Returns what recvmsg() returned
// (errno as it left it) and sets `msg_flags` to its flags (MSG_EOR,
// MSG_NOTIFICATION). With `delivery` or `assoc_id` it also reads the
// SCTP_RCVINFO that enable_receive_info() asked for: `delivery` gets the
// stream and ordering of the message read (its PR-SCTP policy is the
// sender's business and is not told), `assoc_id` its association (a
// one-to-many socket's reader needs it). Neither is touched when no
// SCTP_RCVINFO came. With `source`, it also gets the address the message
// came from (msg_name: for data, Linux gives the source address of the
// packet that brought it, the peer address of the path it took), and
// `source_length` its length (0 when nothing was read). With `arrival_ns`
// (--timestamps, transport/kernel_timestamps.hpp) a read that brings
// anything sets it to the kernel's receive stamp, 0 when none came.
ssize_t receive_sctp(int fd, std::span<std::byte> buffer, int flags, int& msg_flags,
                     sctp_delivery* delivery = nullptr, sctp_assoc_t* assoc_id = nullptr,
                     sockaddr_storage* source = nullptr, socklen_t* source_length = nullptr,
                     std::int64_t* arrival_ns = nullptr);

class sctp_path_watch;

// One read of data on an SCTP socket subscribed to path events (a
// one-to-one socket, or one holding one association): as receive_sctp, but
// a notification that comes first is read whole (its head kept, the rest
// dropped), given to `watch` when it tells of a path, and the read made
// again with the same flags: a read that must not wait then finds nothing
// (EAGAIN), or the data behind it. With `last_path`, it becomes the path of
// the data read (sctp_path_watch::path_of); without, no source is asked
// for. Returns what the read of data returned (errno as it left it); 0
// also when the socket was shut down in the middle of a notification.
// `arrival_ns` as for receive_sctp.
ssize_t receive_sctp_data(int fd, std::span<std::byte> buffer, int flags, int& msg_flags,
                          sctp_delivery* delivery, sctp_path_watch& watch, std::uint16_t* last_path,
                          std::int64_t* arrival_ns = nullptr);

// The first bytes of a notification, the ones decode_sctp_notification
// reads, gathered across the parts it came in.
class notification_head {
  public:
    // `first_part`: what the read that brought MSG_NOTIFICATION gave.
    explicit notification_head(std::span<const std::byte> first_part) noexcept { add(first_part); }

    // Reads the rest of a notification that came without MSG_EOR from `fd`
    // with `flags`, keeping its head and dropping the rest (an abort's error
    // causes, say). Returns what the last recvmsg() returned: > 0 once the
    // notification is whole, 0 when the socket was shut down, < 0 with
    // errno for a failed read (EINTR is retried).
    ssize_t read_rest(int fd, int flags);

    std::span<const std::byte> bytes() const noexcept { return std::span(head_).first(length_); }

  private:
    void add(std::span<const std::byte> part) noexcept;

    std::array<std::byte, sctp_notification_head_size> head_{};
    std::size_t length_ = 0;
};

}  // namespace sctp_perf
