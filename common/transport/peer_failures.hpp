// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a peer did wrong, said once for every reader of the wire: the
// sentences that end a connection or an association when a message has the
// wrong size or the peer goes silent, and what a failed send() means. Both
// channels (message_channel.hpp), the server's sessions and the client's
// set-up speak these words, so a script that matches them sees the same
// sentence whichever path failed.

#include <sys/socket.h>
#include <sys/types.h>

#include <cerrno>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "transport/sctp_delivery.hpp"

namespace sctp_perf {

// "receive timed out: the peer went silent": the wait for a message's first
// bytes outlasted the socket's receive timeout.
std::string peer_went_silent();

// A message that ended after `received` bytes where `expected` were agreed.
std::string message_of_wrong_size(std::size_t received, std::size_t expected);

// A message that went on past the `expected` bytes agreed.
std::string message_too_long(std::size_t expected);

// What a failed send's errno `error` means, for a send with `flags`.
// Returns true to send again (a signal came first), false when a
// MSG_DONTWAIT send found no room; throws peer_error when the send timed out
// or the peer is gone ("the peer closed the <peer_link>"),
// std::system_error for the rest.
bool send_again(int error, int flags, std::string_view peer_link);

// One send() of `bytes` (sendmsg() with `delivery` when it is not the
// default) with `flags` and MSG_NOSIGNAL, retried when a signal interrupts
// it. Returns the bytes the kernel took, nullopt when a MSG_DONTWAIT send
// found no room. Throws peer_error when the send timed out or the peer is
// gone ("the peer closed the <peer_link>": "connection" or "association"),
// std::system_error for anything else. Inline: it lies on every message's
// path, where a call of its own cost a tenth of what a throughput message
// spends outside the kernel; the failures stay out of line in send_again.
inline std::optional<std::size_t> send_once(int fd, std::span<const std::byte> bytes, int flags,
                                            const sctp_delivery& delivery,
                                            std::string_view peer_link) {
    for (;;) {
        // MSG_NOSIGNAL: a vanished peer is an error to report, not a SIGPIPE.
        const ssize_t n = delivery.is_default()
                              ? ::send(fd, bytes.data(), bytes.size(), flags | MSG_NOSIGNAL)
                              : send_with_delivery(fd, bytes, delivery, flags);
        if (n >= 0) {
            return static_cast<std::size_t>(n);
        }
        if (!send_again(errno, flags, peer_link)) {
            return std::nullopt;
        }
    }
}

}  // namespace sctp_perf
