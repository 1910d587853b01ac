#include "transport/message_channel.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <string>
#include <system_error>

#include "errors.hpp"

namespace sctp_perf {

void stream_channel::send_message(std::span<const std::byte> message) {
    std::size_t sent = 0;
    while (sent < message.size()) {
        // MSG_NOSIGNAL: a vanished peer is an error to report, not a SIGPIPE.
        const ssize_t n =
            ::send(socket_.get(), message.data() + sent, message.size() - sent, MSG_NOSIGNAL);
        if (n >= 0) {
            sent += static_cast<std::size_t>(n);
            continue;
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            throw peer_error("send timed out: the peer stopped reading");
        }
        if (errno == EPIPE || errno == ECONNRESET) {
            throw peer_error("the peer closed the connection");
        }
        throw std::system_error(errno, std::generic_category(), "send failed");
    }
}

void stream_channel::receive_message(std::span<std::byte> message) {
    std::size_t received = 0;
    while (received < message.size()) {
        const ssize_t n =
            ::recv(socket_.get(), message.data() + received, message.size() - received, 0);
        if (n > 0) {
            received += static_cast<std::size_t>(n);
            continue;
        }
        if (n == 0) {
            throw peer_error(received == 0 ? "the peer closed the connection"
                                           : "the peer closed the connection after " +
                                                 std::to_string(received) + " of " +
                                                 std::to_string(message.size()) + " bytes");
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            throw peer_error("receive timed out: the peer went silent");
        }
        if (errno == ECONNRESET) {
            throw peer_error("the peer reset the connection");
        }
        throw std::system_error(errno, std::generic_category(), "receive failed");
    }
}

}  // namespace sctp_perf
