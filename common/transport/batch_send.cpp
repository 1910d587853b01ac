// SPDX-License-Identifier: Apache-2.0
#include "transport/batch_send.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <system_error>

#include "transport/peer_failures.hpp"

namespace sctp_perf {

std::optional<std::size_t> batch_sender::gather(int fd, std::span<const outgoing_message> messages,
                                                int flags, std::string_view peer_link) {
    parts_.resize(messages.size());
    for (std::size_t i = 0; i < messages.size(); ++i) {
        parts_[i] = {const_cast<std::byte*>(messages[i].bytes.data()), messages[i].bytes.size()};
    }
    msghdr header{};
    header.msg_iov = parts_.data();
    header.msg_iovlen = parts_.size();
    for (;;) {
        const ssize_t n = ::sendmsg(fd, &header, flags | MSG_NOSIGNAL);
        if (n >= 0) {
            return static_cast<std::size_t>(n);
        }
        if (!send_again(errno, flags, peer_link)) {
            return std::nullopt;
        }
    }
}

std::optional<std::size_t> batch_sender::each(int fd, std::span<const outgoing_message> messages,
                                              int flags, sctp_assoc_t assoc_id,
                                              std::string_view peer_link) {
    parts_.resize(messages.size());
    headers_.resize(messages.size());
    controls_.resize(messages.size());
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const auto& message = messages[i];
        parts_[i] = {const_cast<std::byte*>(message.bytes.data()), message.bytes.size()};
        headers_[i] = {};
        msghdr& header = headers_[i].msg_hdr;
        header.msg_iov = &parts_[i];
        header.msg_iovlen = 1;
        // A plain message takes no ancillary data, as a plain send() sends it.
        if (!message.delivery.is_default() || assoc_id != 0) {
            attach_delivery(header, controls_[i], message.delivery, assoc_id);
        }
    }
    for (;;) {
        const int sent = ::sendmmsg(fd, headers_.data(), static_cast<unsigned>(headers_.size()),
                                    flags | MSG_NOSIGNAL);
        if (sent < 0) {
            if (send_again(errno, flags, peer_link)) {
                continue;
            }
            return std::nullopt;
        }
        std::size_t bytes = 0;
        for (std::size_t i = 0; i < static_cast<std::size_t>(sent); ++i) {
            if (headers_[i].msg_len != messages[i].bytes.size()) {
                // SCTP takes a message whole or not at all; anything else
                // would break the one-message-per-request rule.
                throw std::system_error(EMSGSIZE, std::generic_category(),
                                        fmt::format("the kernel took {} of a {}-byte message",
                                                    headers_[i].msg_len, messages[i].bytes.size()));
            }
            bytes += headers_[i].msg_len;
        }
        return bytes;
    }
}

}  // namespace sctp_perf
