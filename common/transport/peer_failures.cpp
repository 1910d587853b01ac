// SPDX-License-Identifier: Apache-2.0
#include "transport/peer_failures.hpp"

#include <fmt/format.h>
#include <sys/socket.h>

#include <cerrno>
#include <system_error>

#include "errors.hpp"
#include "transport/peer_gone.hpp"

namespace sctp_perf {

std::string peer_went_silent() {
    return "receive timed out: the peer went silent";
}

std::string message_of_wrong_size(std::size_t received, std::size_t expected) {
    return fmt::format("a message of {} bytes where {} were expected", received, expected);
}

std::string message_too_long(std::size_t expected) {
    return fmt::format("a message longer than the {} bytes expected", expected);
}

bool send_again(int error, int flags, std::string_view peer_link) {
    switch (error) {
        case EINTR:
            return true;  // interrupted before anything was queued
        case EAGAIN:
#if EWOULDBLOCK != EAGAIN
        case EWOULDBLOCK:
#endif
            if ((flags & MSG_DONTWAIT) != 0) {
                return false;
            }
            throw peer_error("send timed out: the peer stopped reading");
        case EPIPE:
        case ECONNRESET:
        // An SCTP association that ended reports these rather than EPIPE.
        case ENOTCONN:
        case ESHUTDOWN:
            throw peer_gone(fmt::format("the peer closed the {}", peer_link));
        default:
            throw std::system_error(error, std::generic_category(), "send failed");
    }
}

}  // namespace sctp_perf
