// SPDX-License-Identifier: Apache-2.0
#include "transport/seqpacket_channel.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/sctp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <system_error>

#include "errors.hpp"
#include "transport/peer_failures.hpp"
#include "transport/peer_gone.hpp"
#include "transport/sctp_notification.hpp"
#include "transport/sctp_path_events.hpp"
#include "transport/sctp_receive.hpp"

namespace sctp_perf {

namespace {

// A close between messages is a peer_closed, one inside a message a peer_error.
[[noreturn]] void throw_closed(std::size_t received, std::size_t expected) {
    if (received == 0) {
        throw peer_closed("the peer closed the association");
    }
    throw peer_error(
        fmt::format("the peer closed the association after {} of {} bytes", received, expected));
}

[[noreturn]] void throw_receive_failure(int error, std::size_t received, std::size_t expected) {
    switch (error) {
        case EAGAIN:
#if EWOULDBLOCK != EAGAIN
        case EWOULDBLOCK:
#endif
            throw peer_error(peer_went_silent());
        case ECONNRESET:
            throw peer_gone("the peer aborted the association");
        case ENOTCONN:
        case EPIPE:
            // The association is gone; the notification saying why was not
            // subscribed to or came too late.
            throw_closed(received, expected);
        default:
            throw std::system_error(error, std::generic_category(), "receive failed");
    }
}

bool nothing_came(int error) noexcept {
    return error == EAGAIN || error == EWOULDBLOCK;
}

// Sends one whole SCTP message; returns false when a MSG_DONTWAIT send found
// no room for it.
bool send_whole(int fd, std::span<const std::byte> message, int flags,
                const sctp_delivery& delivery) {
    const auto n = send_once(fd, message, flags, delivery, "association");
    if (!n) {
        return false;
    }
    if (*n != message.size()) {
        // SCTP takes a message whole or not at all; anything else would
        // break the one-message-per-request rule.
        throw std::system_error(
            EMSGSIZE, std::generic_category(),
            fmt::format("the kernel took {} of a {}-byte message", *n, message.size()));
    }
    return true;
}

}  // namespace

void seqpacket_channel::send_message(std::span<const std::byte> message,
                                     const sctp_delivery& delivery) {
    send_whole(socket_.get(), message, 0, delivery);
}

std::size_t seqpacket_channel::send_ready(std::span<const std::byte> bytes,
                                          const sctp_delivery& delivery) {
    return send_whole(socket_.get(), bytes, MSG_DONTWAIT, delivery) ? bytes.size() : 0;
}

std::size_t seqpacket_channel::send_batch_ready(std::span<const outgoing_message> messages) {
    return batch_.each(socket_.get(), messages, MSG_DONTWAIT, 0, "association").value_or(0);
}

std::size_t seqpacket_channel::receive_ready(std::span<std::byte> buffer, std::size_t message_size,
                                             sctp_delivery* delivery) {
    std::size_t filled = 0;
    // With `delivery` or each message's path watched, one message: the
    // caller learns how each one travelled.
    const std::size_t limit = delivery != nullptr || message_paths_
                                  ? std::min(buffer.size(), message_size)
                                  : buffer.size();
    while (filled + message_size <= limit) {
        const auto message = buffer.subspan(filled, message_size);
        if (pending_) {
            receive_message(message, delivery);
            filled += message_size;
            continue;
        }
        bool message_end = false;
        const ssize_t n = read_data(message, MSG_DONTWAIT, delivery, message_end, 0, message_size);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (nothing_came(errno)) {
                break;
            }
            throw_receive_failure(errno, 0, message_size);
        }
        if (n == 0) {
            throw peer_gone("the peer closed the association in the middle of the test");
        }
        const auto length = static_cast<std::size_t>(n);
        if (!message_end) {
            if (length == message_size) {
                throw peer_error(message_too_long(message_size));
            }
            // The rest of a message delivered in parts follows at once.
            receive_rest(message, length, delivery);
        } else if (length != message_size) {
            throw peer_error(message_of_wrong_size(length, message_size));
        }
        filled += message_size;
    }
    return filled;
}

message_channel::received_part seqpacket_channel::receive_part(std::span<std::byte> buffer,
                                                               bool with_delivery, bool wait) {
    if (pending_) {
        return take_pending(buffer);
    }
    if (wait) {
        poll_before_sleeping(socket_.get());
    }
    received_part part;
    const int flags = wait ? 0 : MSG_DONTWAIT;
    for (;;) {
        const ssize_t n = read_data(buffer, flags, with_delivery ? &part.delivery : nullptr,
                                    part.message_end, 0, buffer.size());
        if (n < 0) {
            if (errno == EINTR && !wait) {
                continue;
            }
            if (errno == EINTR || nothing_came(errno)) {
                part.message_end = false;
                return part;  // nothing yet
            }
            throw_receive_failure(errno, 0, buffer.size());
        }
        if (n == 0) {
            throw_closed(0, buffer.size());
        }
        part.bytes = static_cast<std::size_t>(n);
        return part;
    }
}

message_channel::received_part seqpacket_channel::take_pending(std::span<std::byte> buffer) {
    // Read off the one-to-many socket before the association was peeled
    // off (the test header, on stream 0 in order): handed over as read.
    const pending_message first = std::move(*pending_);
    pending_.reset();
    if (first.bytes.size() > buffer.size()) {
        throw peer_error(message_too_long(buffer.size()));
    }
    std::copy(first.bytes.begin(), first.bytes.end(), buffer.begin());
    received_part part;
    part.bytes = first.bytes.size();
    part.message_end = first.complete;
    return part;
}

void seqpacket_channel::receive_message(std::span<std::byte> message, sctp_delivery* delivery) {
    if (pending_) {
        // Read off the one-to-many socket before the association was peeled
        // off: only the test header, sent on stream 0 in order, comes this way.
        const pending_message first = std::move(*pending_);
        pending_.reset();
        if (delivery != nullptr) {
            *delivery = {};
        }
        if (!first.complete || first.bytes.size() > message.size()) {
            throw peer_error(message_too_long(message.size()));
        }
        if (first.bytes.size() < message.size()) {
            throw peer_error(message_of_wrong_size(first.bytes.size(), message.size()));
        }
        std::copy(first.bytes.begin(), first.bytes.end(), message.begin());
        return;
    }

    receive_rest(message, 0, delivery);
}

void seqpacket_channel::receive_rest(std::span<std::byte> message, std::size_t received,
                                     sctp_delivery* delivery) {
    // A large message may arrive in parts (SCTP's partial delivery), each
    // without MSG_EOR until the last; parts are collected until it shows.
    receive_wait wait(socket_.get(), spin_, message_timeout_, message.size());
    if (received > 0) {
        wait.brought(0, received);  // the first part, which receive_ready read
    } else {
        poll_before_sleeping(socket_.get());
    }
    for (;;) {
        if (received > 0) {
            wait.before_more(received);
        }
        bool message_end = false;
        const ssize_t n = read_data(message.subspan(received), wait.read_flags(), delivery,
                                    message_end, received, message.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (wait.spins() && nothing_came(errno)) {
                wait.found_nothing(received);
                continue;
            }
            throw_receive_failure(errno, received, message.size());
        }
        if (n == 0) {
            throw_closed(received, message.size());
        }
        const auto length = static_cast<std::size_t>(n);
        received += length;
        if (message_end) {
            if (received != message.size()) {
                throw peer_error(message_of_wrong_size(received, message.size()));
            }
            return;
        }
        if (received == message.size()) {
            throw peer_error(message_too_long(message.size()));
        }
        wait.brought(received - length, length);
    }
}

ssize_t seqpacket_channel::read_data(std::span<std::byte> buffer, int flags,
                                     sctp_delivery* delivery, bool& message_end,
                                     std::size_t received, std::size_t expected) {
    for (;;) {
        int msg_flags = 0;
        sctp_delivery travelled;
        sockaddr_storage source{};
        socklen_t source_length = 0;
        const ssize_t n = receive_sctp(socket_.get(), buffer, flags, msg_flags,
                                       delivery != nullptr ? &travelled : nullptr, nullptr,
                                       message_paths_ ? &source : nullptr, &source_length,
                                       arrival_stamps_ ? &last_arrival_ns_ : nullptr);
        if (n <= 0) {
            return n;
        }
        message_end = (msg_flags & MSG_EOR) != 0;
        if ((msg_flags & MSG_NOTIFICATION) == 0) {
            if (delivery != nullptr) {
                *delivery = travelled;
            }
            if (message_paths_) {
                last_read_path_ = paths_->path_of(source, source_length);
            }
            return n;
        }
        // It landed in the part of the message not yet filled, so the data
        // received so far is intact. Returns only for one that says nothing
        // about the association's end.
        take_notification(buffer.first(static_cast<std::size_t>(n)), message_end, received,
                          expected);
    }
}

void seqpacket_channel::take_notification(std::span<const std::byte> first_part, bool complete,
                                          std::size_t received, std::size_t expected) {
    // Only the first bytes matter (type and state); the rest of a long one,
    // such as the error causes carried by an abort, is read and dropped.
    notification_head head(first_part);
    if (!complete) {
        const ssize_t n = head.read_rest(socket_.get(), 0);
        if (n < 0) {
            throw_receive_failure(errno, received, expected);
        }
        if (n == 0) {
            throw_closed(received, expected);
        }
    }
    const auto notice = decode_sctp_notification(head.bytes());
    if (!notice) {
        return;
    }
    if (notice->path && paths_) {
        paths_->record(*notice->path);
    }
    switch (notice->event) {
        case association_event::shutdown:
            throw_closed(received, expected);
        case association_event::lost:
            throw peer_gone("the association was lost: the peer aborted it or stopped answering");
        case association_event::restart:
            // Same addresses and ports, but a new peer: whatever it sends
            // next belongs to a test of its own, not to this one.
            throw peer_gone("the peer restarted the association");
        default:
            break;
    }
    // Anything else (the association coming up, a peer address changing
    // state, ...) says nothing about the message being waited for; a path's
    // change went to the watch above.
}

void subscribe_association_events(int fd) {
    if (!subscribe_event_types(fd, SCTP_FUTURE_ASSOC, {SCTP_ASSOC_CHANGE, SCTP_SHUTDOWN_EVENT},
                               "SCTP association events")) {
        // Kernels before 5.0 know only the older all-in-one option: what is
        // on already (path events, say) stays on.
        sctp_event_subscribe events{};
        socklen_t length = sizeof events;
        if (::getsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &events, &length) != 0) {
            length = sizeof events;
        }
        events.sctp_association_event = 1;
        events.sctp_shutdown_event = 1;
        if (::setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &events, length) != 0) {
            throw std::system_error(errno, std::generic_category(),
                                    "cannot subscribe to SCTP association events");
        }
    }
}

unique_fd peel_off_association(int fd, sctp_assoc_t assoc_id) {
    // lksctp declares sctp_peeloff_flags but some builds do not export it,
    // so close-on-exec is set separately.
    unique_fd peeled(::sctp_peeloff(fd, assoc_id));
    if (!peeled) {
        throw std::system_error(errno, std::generic_category(),
                                fmt::format("cannot peel off association {}", assoc_id));
    }
    ::fcntl(peeled.get(), F_SETFD, FD_CLOEXEC);
    return peeled;
}

}  // namespace sctp_perf
