// SPDX-License-Identifier: Apache-2.0
#include "transport/message_channel.hpp"

#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <system_error>

#include "errors.hpp"
#include "protocol/wire_protocol.hpp"
#include "transport/kernel_timestamps.hpp"
#include "transport/peer_failures.hpp"
#include "transport/peer_gone.hpp"
#include "transport/poll_before_sleep.hpp"
#include "transport/sctp_receive.hpp"

namespace sctp_perf {

// How a stream channel reads: recv(), or recvmsg() for how a message
// travelled; over an SCTP association subscribed to path events,
// recvmsg() with the notifications taken apart from the data
// (receive_sctp_data), and each message's source looked up where asked.
// With `arrival_ns`, every read also takes the kernel's receive stamp
// (--timestamps).
struct stream_reader {
    sctp_path_watch* watch = nullptr;    // set: notifications may come
    std::uint16_t* last_path = nullptr;  // set: each message's path is looked up
    std::int64_t* arrival_ns = nullptr;  // set: each read's receive stamp is taken

    ssize_t read(int fd, std::span<std::byte> buffer, int flags, sctp_delivery* delivery) const {
        int msg_flags = 0;
        if (watch != nullptr) {
            return receive_sctp_data(fd, buffer, flags, msg_flags, delivery, *watch, last_path,
                                     arrival_ns);
        }
        if (delivery != nullptr) {
            return receive_sctp(fd, buffer, flags, msg_flags, delivery, nullptr, nullptr, nullptr,
                                arrival_ns);
        }
        return arrival_ns == nullptr ? ::recv(fd, buffer.data(), buffer.size(), flags)
                                     : receive_stamped(fd, buffer, flags, *arrival_ns);
    }
};

namespace {

// One receive; returns the bytes read, or 0 when a MSG_DONTWAIT receive found
// nothing. Throws peer_closed at the end of the stream.
std::size_t receive_once(int fd, std::span<std::byte> buffer, int flags,
                         sctp_delivery* delivery = nullptr, const stream_reader& reader = {}) {
    for (;;) {
        const ssize_t n = reader.read(fd, buffer, flags, delivery);
        if (n > 0) {
            return static_cast<std::size_t>(n);
        }
        if (n == 0) {
            throw peer_closed("the peer closed the connection");
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if ((flags & MSG_DONTWAIT) != 0) {
                return 0;
            }
            throw peer_error(peer_went_silent());
        }
        if (errno == ECONNRESET) {
            throw peer_gone("the peer reset the connection");
        }
        throw std::system_error(errno, std::generic_category(), "receive failed");
    }
}

// The peer closed a byte stream after `received` of the `expected` bytes of
// a message: a peer_closed between messages, a peer_error inside one.
[[noreturn]] void throw_closed_within(const peer_closed& closed, std::size_t received,
                                      std::size_t expected) {
    if (received == 0) {
        throw closed;
    }
    throw peer_error("the peer closed the connection after " + std::to_string(received) + " of " +
                     std::to_string(expected) + " bytes");
}

}  // namespace

std::size_t message_channel::send_batch_ready(std::span<const outgoing_message> messages) {
    std::size_t taken = 0;
    for (const auto& message : messages) {
        const auto n = send_ready(message.bytes, message.delivery);
        taken += n;
        if (n < message.bytes.size()) {
            break;
        }
    }
    return taken;
}

void stream_channel::send_message(std::span<const std::byte> message,
                                  const sctp_delivery& delivery) {
    std::size_t sent = 0;
    while (sent < message.size()) {
        // A blocking send never finds no room: it waits, or times out.
        sent +=
            send_once(socket_.get(), message.subspan(sent), 0, delivery, "connection").value_or(0);
    }
}

std::size_t stream_channel::send_ready(std::span<const std::byte> bytes,
                                       const sctp_delivery& delivery) {
    return send_once(socket_.get(), bytes, MSG_DONTWAIT, delivery, "connection").value_or(0);
}

std::size_t stream_channel::send_batch_ready(std::span<const outgoing_message> messages) {
    const auto n = sctp_ ? batch_.each(socket_.get(), messages, MSG_DONTWAIT, 0, "connection")
                         : batch_.gather(socket_.get(), messages, MSG_DONTWAIT, "connection");
    return n.value_or(0);
}

std::size_t stream_channel::read_once(std::span<std::byte> buffer, int flags,
                                      sctp_delivery* delivery) {
    return receive_once(socket_.get(), buffer, flags, delivery, reader());
}

// A whole read is over TCP: no SCTP notification or delivery to take
// apart, so the reader's only question is the receive stamp, and its other
// members stay constants the compiler folds away.
stream_reader stream_channel::whole_reader() noexcept {
    return {nullptr, nullptr, arrival_stamps_ ? &last_arrival_ns_ : nullptr};
}

stream_reader stream_channel::reader() noexcept {
    return {paths_.get(), message_paths_ ? &last_read_path_ : nullptr,
            arrival_stamps_ ? &last_arrival_ns_ : nullptr};
}

std::size_t stream_channel::receive_ready(std::span<std::byte> buffer, std::size_t,
                                          sctp_delivery* delivery) {
    try {
        return read_once(buffer, MSG_DONTWAIT, delivery);
    } catch (const peer_closed&) {
        throw peer_gone("the peer closed the connection in the middle of the test");
    }
}

void message_channel::poll_before_sleeping(int fd) const {
    if (!spin_ && poll_before_sleep_.count() > 0) {
        poll_readable(fd, poll_before_sleep_, arrival_stamps_);
    }
}

namespace {

// One part read with `reader`, inlined into each caller so that the plain
// reader's stamp pointer stays a constant the compiler folds away.
[[gnu::always_inline]] inline message_channel::received_part read_part(const stream_reader& reader,
                                                                       int fd,
                                                                       std::span<std::byte> buffer,
                                                                       bool with_delivery,
                                                                       bool wait) {
    message_channel::received_part part;
    const int flags = wait ? 0 : MSG_DONTWAIT;
    for (;;) {
        const ssize_t n = reader.read(fd, buffer, flags, with_delivery ? &part.delivery : nullptr);
        if (n > 0) {
            part.bytes = static_cast<std::size_t>(n);
            return part;
        }
        if (n == 0) {
            throw peer_closed("the peer closed the connection");
        }
        if (errno == EINTR && !wait) {
            continue;
        }
        if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
            return part;  // nothing yet
        }
        if (errno == ECONNRESET) {
            throw peer_gone("the peer reset the connection");
        }
        throw std::system_error(errno, std::generic_category(), "receive failed");
    }
}

}  // namespace

message_channel::received_part stream_channel::receive_part(std::span<std::byte> buffer,
                                                            bool with_delivery, bool wait) {
    if (arrival_stamps_) [[unlikely]] {
        return receive_stamped_part(buffer, with_delivery, wait);
    }
    if (wait) {
        poll_before_sleeping(socket_.get());
    }
    return read_part({paths_.get(), message_paths_ ? &last_read_path_ : nullptr}, socket_.get(),
                     buffer, with_delivery, wait);
}

message_channel::received_part stream_channel::receive_stamped_part(std::span<std::byte> buffer,
                                                                    bool with_delivery, bool wait) {
    if (wait) {
        poll_before_sleeping(socket_.get());
    }
    return read_part(reader(), socket_.get(), buffer, with_delivery, wait);
}

std::chrono::steady_clock::time_point message_deadline(
    std::optional<std::chrono::milliseconds> timeout,
    std::chrono::steady_clock::time_point started) {
    return timeout ? started + *timeout : std::chrono::steady_clock::time_point::max();
}

void throw_incomplete_message(std::size_t received, std::size_t expected,
                              std::optional<std::chrono::milliseconds> timeout) {
    throw peer_error(fmt::format(
        "the peer sent {} of the {} bytes of a message in {:.1f} s (a message must come whole "
        "within the I/O timeout)",
        received, expected,
        std::chrono::duration<double>(timeout.value_or(std::chrono::milliseconds(0))).count()));
}

std::chrono::microseconds receive_timeout_of(int fd) noexcept {
    timeval tv{};
    socklen_t length = sizeof tv;
    if (::getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &length) != 0) {
        return std::chrono::microseconds(0);
    }
    return std::chrono::seconds(tv.tv_sec) + std::chrono::microseconds(tv.tv_usec);
}

bool spin_wait::look() {
    const auto now = std::chrono::steady_clock::now();
    if (!deadline_) {
        const auto timeout = receive_timeout_of(fd_);
        deadline_ =
            timeout.count() > 0 ? now + timeout : std::chrono::steady_clock::time_point::max();
    }
    if (now >= *deadline_) {
        return true;
    }
    ::sched_yield();
    return false;
}

int receive_wait::read_flags() const noexcept {
    return spin_ ? MSG_DONTWAIT : 0;
}

void receive_wait::await_more(std::size_t received, bool due_now) {
    if (!rest_by_) {
        const auto now = std::chrono::steady_clock::now();
        rest_by_ = due_now ? now : message_deadline(message_timeout_, now);
    }
    await_rest_of_message(fd_, *rest_by_, received, expected_, message_timeout_);
}

void receive_wait::spin_made_progress() {
    spin_wait_.made_progress(
        message_timeout_
            ? std::optional(message_deadline(message_timeout_, std::chrono::steady_clock::now()))
            : std::nullopt);
}

void receive_wait::give_up(std::size_t received) const {
    if (received == 0 || !message_timeout_) {
        throw peer_error(peer_went_silent());
    }
    throw_incomplete_message(received, expected_, message_timeout_);
}

void await_rest_of_message(int fd, std::chrono::steady_clock::time_point deadline,
                           std::size_t received, std::size_t expected,
                           std::optional<std::chrono::milliseconds> timeout) {
    for (;;) {
        const auto now = std::chrono::steady_clock::now();
        pollfd last_look{fd, POLLIN, 0};
        if (now >= deadline && ::poll(&last_look, 1, 0) <= 0) {
            // Nothing more, not even the end of the stream (which the next
            // read would report as the peer closing).
            throw_incomplete_message(received, expected, timeout);
        }
        if (deadline == std::chrono::steady_clock::time_point::max()) {
            return;  // no message timeout: the blocking call's own bound applies
        }
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now);
        pollfd ready{fd, POLLIN, 0};
        const int n =
            ::poll(&ready, 1, static_cast<int>(std::min<long long>(left.count(), 1'000'000)));
        if (n > 0) {
            return;
        }
        if (n < 0 && errno != EINTR) {
            throw std::system_error(errno, std::generic_category(), "poll failed");
        }
    }
}

stream_channel::stream_channel(unique_fd socket) noexcept : socket_(std::move(socket)) {
    int protocol = 0;
    socklen_t length = sizeof protocol;
    const bool known =
        ::getsockopt(socket_.get(), SOL_SOCKET, SO_PROTOCOL, &protocol, &length) == 0;
    tcp_ = known && protocol == IPPROTO_TCP;
    sctp_ = known && protocol == IPPROTO_SCTP;
}

void stream_channel::receive_message(std::span<std::byte> message, sctp_delivery* delivery) {
    // Over TCP the first blocking read asks for the whole message
    // (MSG_WAITALL), and Linux counts SO_RCVTIMEO down across everything
    // that read waits for: the I/O timeout bounds the whole message, the wait
    // for its first byte included, at no cost when it comes at once. A short
    // count then means the time ran out. (SCTP delivers a message whole, or
    // in parts only when it is very large, so it reads as it comes.)
    const bool whole_read = !spin_ && tcp_ && message_timeout_ && delivery == nullptr;
    receive_wait wait(socket_.get(), spin_, message_timeout_, message.size());
    poll_before_sleeping(socket_.get());
    std::size_t received = 0;
    while (received < message.size()) {
        if (received > 0) {
            wait.before_more(received, whole_read);
        }
        std::size_t n = 0;
        try {
            n = received == 0 && whole_read
                    ? receive_once(socket_.get(), message, MSG_WAITALL, nullptr, whole_reader())
                    : read_once(message.subspan(received), wait.read_flags(), delivery);
        } catch (const peer_closed& closed) {
            throw_closed_within(closed, received, message.size());
        }
        if (n == 0) {
            wait.found_nothing(received);
            continue;
        }
        wait.brought(received, n);
        received += n;
    }
}

std::size_t stream_channel::receive_some(std::span<std::byte> buffer, sctp_delivery* delivery) {
    receive_wait wait(socket_.get(), spin_, message_timeout_, buffer.size());
    poll_before_sleeping(socket_.get());
    for (;;) {
        if (const auto n = read_once(buffer, wait.read_flags(), delivery)) {
            return n;
        }
        wait.found_nothing(0);
    }
}

// Blob framing lives here, in transport, since it is how bytes cross a
// channel: the length, then the text, as two messages. What a blob says (the
// server's settings, its account) is protocol/'s, in server_settings_blob.hpp
// and server_account_blob.hpp; this layer never looks inside the text.
void send_blob(message_channel& channel, std::string_view text) {
    channel.send_message(protocol::encode_blob_length(static_cast<std::uint32_t>(text.size())));
    channel.send_message(std::as_bytes(std::span(text.data(), text.size())));
}

std::string receive_blob(message_channel& channel, std::span<const std::byte> already) {
    protocol::blob_length_bytes length_bytes{};
    const std::size_t length_taken = std::min(already.size(), length_bytes.size());
    std::copy_n(already.begin(), length_taken, length_bytes.begin());
    if (length_taken < length_bytes.size()) {
        channel.receive_message(std::span(length_bytes).subspan(length_taken));
    }
    const auto length = protocol::decode_blob_length(length_bytes);
    if (!length) {
        throw peer_error(
            fmt::format("a blob length outside 1..{} bytes", protocol::max_blob_bytes));
    }
    std::string text(*length, '\0');
    const auto text_bytes = std::as_writable_bytes(std::span(text.data(), text.size()));
    const auto text_taken = std::min(already.size() - length_taken, text_bytes.size());
    std::copy_n(already.begin() + static_cast<std::ptrdiff_t>(length_taken), text_taken,
                text_bytes.begin());
    if (text_taken < text_bytes.size()) {
        channel.receive_message(text_bytes.subspan(text_taken));
    }
    return text;
}

}  // namespace sctp_perf
