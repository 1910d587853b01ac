// SPDX-License-Identifier: Apache-2.0
#pragma once
// Several messages in one system call (the load modes' --batch).
//
// On TCP the messages are bytes of one stream: one gathering sendmsg() (an
// iovec per message, as writev() takes them; sendmsg() because the socket
// stays blocking and only a flag, MSG_DONTWAIT, makes one call not wait),
// of which the kernel may take any part. Over SCTP, of either socket style,
// every request must stay one SCTP message, so a gathering write (which
// would make one SCTP message of them all on SOCK_STREAM) will not do:
// sendmmsg() sends one SCTP message per message, each with its own stream
// and PR-SCTP policy, and the kernel takes each whole or not at all.

#include <netinet/in.h>
#include <netinet/sctp.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "transport/sctp_delivery.hpp"

namespace sctp_perf {

// The most messages one call takes: IOV_MAX iovecs for a gathering write,
// and as many SCTP messages, the most sendmmsg() takes (UIO_MAXIOV).
inline constexpr std::size_t max_batch_messages = 1024;

// One message of a batch: its bytes (on a byte stream, the first message
// may be what is left of one begun by an earlier call) and, over SCTP, how
// it travels.
struct outgoing_message {
    std::span<const std::byte> bytes;
    sctp_delivery delivery;
};

// Keeps the iovecs, headers and ancillary data of a batch between calls, so
// that a send allocates nothing. Both calls take MSG_NOSIGNAL, are retried
// when a signal interrupts them, and throw as send_once() does
// (peer_failures.hpp). At most max_batch_messages messages.
class batch_sender {
  public:
    // One sendmsg() of every message's bytes in turn, with `flags`, on a
    // byte stream; deliveries are not looked at (TCP has none). Returns the
    // bytes the kernel took, nullopt when a MSG_DONTWAIT send found no room.
    std::optional<std::size_t> gather(int fd, std::span<const outgoing_message> messages, int flags,
                                      std::string_view peer_link);
    // One sendmmsg(): each message one SCTP message with its delivery, on
    // association `assoc_id` (0 on a socket that holds one). Returns the
    // bytes of the messages the kernel took, a leading run of whole ones;
    // nullopt when a MSG_DONTWAIT send found no room for the first.
    std::optional<std::size_t> each(int fd, std::span<const outgoing_message> messages, int flags,
                                    sctp_assoc_t assoc_id, std::string_view peer_link);

  private:
    std::vector<iovec> parts_;
    std::vector<mmsghdr> headers_;
    std::vector<delivery_control> controls_;
};

}  // namespace sctp_perf
