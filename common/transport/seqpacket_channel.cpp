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
#include "transport/sctp_notification.hpp"

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
            throw peer_error("receive timed out: the peer went silent");
        case ECONNRESET:
            throw peer_error("the peer aborted the association");
        case ENOTCONN:
        case EPIPE:
            // The association is gone; the notification saying why was not
            // subscribed to or came too late.
            throw_closed(received, expected);
        default:
            throw std::system_error(error, std::generic_category(), "receive failed");
    }
}

}  // namespace

namespace {

// Sends one whole SCTP message; returns false when a MSG_DONTWAIT send found
// no room for it.
bool send_whole(int fd, std::span<const std::byte> message, int flags,
                const sctp_delivery& delivery) {
    for (;;) {
        // MSG_NOSIGNAL: a vanished peer is an error to report, not a SIGPIPE.
        const ssize_t n = delivery.is_default()
                              ? ::send(fd, message.data(), message.size(), flags | MSG_NOSIGNAL)
                              : send_with_delivery(fd, message, delivery, flags);
        if (n >= 0) {
            if (static_cast<std::size_t>(n) != message.size()) {
                // SCTP takes a message whole or not at all; anything else
                // would break the one-message-per-request rule.
                throw std::system_error(
                    EMSGSIZE, std::generic_category(),
                    fmt::format("the kernel took {} of a {}-byte message", n, message.size()));
            }
            return true;
        }
        switch (errno) {
            case EINTR:
                continue;  // interrupted before the message was queued
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
            case ENOTCONN:
            case ESHUTDOWN:
                throw peer_error("the peer closed the association");
            default:
                throw std::system_error(errno, std::generic_category(), "send failed");
        }
    }
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

std::size_t seqpacket_channel::receive_ready(std::span<std::byte> buffer, std::size_t message_size,
                                             sctp_delivery* delivery) {
    std::size_t filled = 0;
    // With `delivery`, one message: the caller learns how each one travelled.
    const std::size_t limit =
        delivery != nullptr ? std::min(buffer.size(), message_size) : buffer.size();
    while (filled + message_size <= limit) {
        const auto message = buffer.subspan(filled, message_size);
        if (pending_) {
            receive_message(message, delivery);
            filled += message_size;
            continue;
        }
        iovec part{message.data(), message.size()};
        msghdr header{};
        header.msg_iov = &part;
        header.msg_iovlen = 1;
        const ssize_t n = delivery == nullptr
                              ? ::recvmsg(socket_.get(), &header, MSG_DONTWAIT)
                              : receive_with_delivery(socket_.get(), message, MSG_DONTWAIT,
                                                      header.msg_flags, *delivery);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                break;
            }
            throw_receive_failure(errno, 0, message_size);
        }
        if (n == 0) {
            throw peer_error("the peer closed the association in the middle of the test");
        }
        const auto length = static_cast<std::size_t>(n);
        if ((header.msg_flags & MSG_NOTIFICATION) != 0) {
            take_notification(message.first(length), (header.msg_flags & MSG_EOR) != 0, 0,
                              message_size);
            continue;
        }
        if ((header.msg_flags & MSG_EOR) == 0) {
            if (length == message_size) {
                throw peer_error(
                    fmt::format("a message longer than the {} bytes expected", message_size));
            }
            // The rest of a message delivered in parts follows at once.
            receive_rest(message, length, delivery);
        } else if (length != message_size) {
            throw peer_error(
                fmt::format("a message of {} bytes where {} were expected", length, message_size));
        }
        filled += message_size;
    }
    return filled;
}

message_channel::received_part seqpacket_channel::receive_part(std::span<std::byte> buffer,
                                                               bool with_delivery, bool wait) {
    received_part part;
    if (pending_) {
        // Read off the one-to-many socket before the association was peeled
        // off (the test header, on stream 0 in order): handed over as read.
        const pending_message first = std::move(*pending_);
        pending_.reset();
        if (first.bytes.size() > buffer.size()) {
            throw peer_error(
                fmt::format("a message longer than the {} bytes expected", buffer.size()));
        }
        std::copy(first.bytes.begin(), first.bytes.end(), buffer.begin());
        part.bytes = first.bytes.size();
        part.message_end = first.complete;
        return part;
    }
    const int flags = wait ? 0 : MSG_DONTWAIT;
    for (;;) {
        int msg_flags = 0;
        ssize_t n = 0;
        if (with_delivery) {
            n = receive_with_delivery(socket_.get(), buffer, flags, msg_flags, part.delivery);
        } else {
            iovec io{buffer.data(), buffer.size()};
            msghdr header{};
            header.msg_iov = &io;
            header.msg_iovlen = 1;
            n = ::recvmsg(socket_.get(), &header, flags);
            msg_flags = header.msg_flags;
        }
        if (n < 0) {
            if (errno == EINTR && !wait) {
                continue;
            }
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
                return part;  // nothing yet
            }
            throw_receive_failure(errno, 0, buffer.size());
        }
        if (n == 0) {
            throw_closed(0, buffer.size());
        }
        const auto length = static_cast<std::size_t>(n);
        if ((msg_flags & MSG_NOTIFICATION) != 0) {
            // Returns only for one that says nothing about the association's end.
            take_notification(buffer.first(length), (msg_flags & MSG_EOR) != 0, 0, buffer.size());
            continue;
        }
        part.bytes = length;
        part.message_end = (msg_flags & MSG_EOR) != 0;
        return part;
    }
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
            throw peer_error(
                fmt::format("a message longer than the {} bytes expected", message.size()));
        }
        if (first.bytes.size() < message.size()) {
            throw peer_error(fmt::format("a message of {} bytes where {} were expected",
                                         first.bytes.size(), message.size()));
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
    // Set once a message has begun and not come whole (see stream_channel).
    std::optional<std::chrono::steady_clock::time_point> deadline;
    // Spinning, the spin bounds the rest of a message instead (as in
    // stream_channel::receive_spinning): from its first part by the message
    // timeout, or without one each wait afresh by the I/O timeout.
    spin_wait wait(socket_.get());
    const auto part_came = [&] {
        wait.made_progress(message_timeout_
                               ? std::optional(message_deadline(message_timeout_,
                                                                std::chrono::steady_clock::now()))
                               : std::nullopt);
    };
    if (spin_ && received > 0) {
        part_came();
    }
    const int flags = spin_ ? MSG_DONTWAIT : 0;
    for (;;) {
        if (received > 0 && !spin_) {
            if (!deadline) {
                deadline = message_deadline(message_timeout_, std::chrono::steady_clock::now());
            }
            await_rest_of_message(socket_.get(), *deadline, received, message.size(),
                                  message_timeout_);
        }
        iovec part{message.data() + received, message.size() - received};
        msghdr header{};
        header.msg_iov = &part;
        header.msg_iovlen = 1;
        sctp_delivery travelled;
        const ssize_t n =
            delivery == nullptr
                ? ::recvmsg(socket_.get(), &header, flags)
                : receive_with_delivery(socket_.get(), {message.data() + received, part.iov_len},
                                        flags, header.msg_flags, travelled);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (spin_ && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                if (!wait.nothing_yet()) {
                    continue;
                }
                if (received == 0 || !message_timeout_) {
                    throw peer_error("receive timed out: the peer went silent");
                }
                throw_incomplete_message(received, message.size(), message_timeout_);
            }
            throw_receive_failure(errno, received, message.size());
        }
        if (n == 0) {
            throw_closed(received, message.size());
        }
        const auto length = static_cast<std::size_t>(n);
        if ((header.msg_flags & MSG_NOTIFICATION) != 0) {
            // It landed in the part of `message` not yet filled, so the data
            // received so far is intact.
            take_notification({message.data() + received, length},
                              (header.msg_flags & MSG_EOR) != 0, received, message.size());
            continue;
        }
        received += length;
        if (delivery != nullptr) {
            *delivery = travelled;
        }
        if ((header.msg_flags & MSG_EOR) != 0) {
            if (received != message.size()) {
                throw peer_error(fmt::format("a message of {} bytes where {} were expected",
                                             received, message.size()));
            }
            return;
        }
        if (received == message.size()) {
            throw peer_error(
                fmt::format("a message longer than the {} bytes expected", message.size()));
        }
        if (spin_ && (received == length || !message_timeout_)) {
            part_came();
        }
    }
}

void seqpacket_channel::take_notification(std::span<const std::byte> first_part, bool complete,
                                          std::size_t received, std::size_t expected) {
    // Only the first bytes matter (type and state); the rest of a long one,
    // such as the error causes carried by an abort, is read and dropped.
    std::array<std::byte, sizeof(sctp_assoc_change)> head{};
    std::size_t head_length = std::min(first_part.size(), head.size());
    std::copy_n(first_part.begin(), head_length, head.begin());
    std::array<std::byte, 256> rest{};
    while (!complete) {
        iovec part{rest.data(), rest.size()};
        msghdr header{};
        header.msg_iov = &part;
        header.msg_iovlen = 1;
        const ssize_t n = ::recvmsg(socket_.get(), &header, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw_receive_failure(errno, received, expected);
        }
        if (n == 0) {
            throw_closed(received, expected);
        }
        const auto copied = std::min(static_cast<std::size_t>(n), head.size() - head_length);
        std::copy_n(rest.begin(), copied, head.begin() + static_cast<std::ptrdiff_t>(head_length));
        head_length += copied;
        complete = (header.msg_flags & MSG_EOR) != 0;
    }

    const auto notice = decode_sctp_notification(std::span(head).first(head_length));
    if (!notice) {
        return;
    }
    switch (notice->event) {
        case association_event::shutdown:
            throw_closed(received, expected);
        case association_event::lost:
            throw peer_error("the association was lost: the peer aborted it or stopped answering");
        case association_event::restart:
            // Same addresses and ports, but a new peer: whatever it sends
            // next belongs to a test of its own, not to this one.
            throw peer_error("the peer restarted the association");
        default:
            break;
    }
    // Anything else (the association coming up, a peer address changing
    // state, ...) says nothing about the message being waited for.
}

void subscribe_association_events(int fd) {
    for (const int type : {SCTP_ASSOC_CHANGE, SCTP_SHUTDOWN_EVENT}) {
        sctp_event event{};
        event.se_assoc_id = SCTP_FUTURE_ASSOC;
        event.se_type = static_cast<std::uint16_t>(type);
        event.se_on = 1;
        if (::setsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &event, sizeof event) == 0) {
            continue;
        }
        if (errno != ENOPROTOOPT && errno != EINVAL) {
            throw std::system_error(errno, std::generic_category(),
                                    "cannot subscribe to SCTP association events");
        }
        // Kernels before 5.0 know only the older all-in-one option.
        sctp_event_subscribe events{};
        events.sctp_association_event = 1;
        events.sctp_shutdown_event = 1;
        if (::setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &events, sizeof events) != 0) {
            throw std::system_error(errno, std::generic_category(),
                                    "cannot subscribe to SCTP association events");
        }
        return;
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
