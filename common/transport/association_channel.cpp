// SPDX-License-Identifier: Apache-2.0
#include "transport/association_channel.hpp"

#include <fmt/format.h>
#include <netinet/sctp.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <system_error>

#include "errors.hpp"
#include "transport/sctp_delivery.hpp"

namespace sctp_perf {
namespace {

// Taken bytes at the front of the queue's buffer are dropped once they are
// this many and half of it: rarely, and never while little is queued.
constexpr std::size_t compact_after_bytes = 64 * 1024;

[[noreturn]] void only_non_blocking(const char* call) {
    throw std::logic_error(fmt::format(
        "{} on an association of a shared one-to-many socket: only its reader may wait", call));
}

}  // namespace

void association_channel::deliver(std::span<const std::byte> bytes, bool message_end,
                                  const sctp_delivery& how, std::int64_t arrival_ns) {
    if (read_at_ >= compact_after_bytes && read_at_ * 2 >= bytes_.size()) {
        bytes_.erase(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(read_at_));
        read_at_ = 0;
    }
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
    parts_.push_back({bytes.size(), message_end, how, arrival_ns});
    queued_bytes_ += bytes.size();
}

void association_channel::end(bool shut_down_by_peer, std::string why) {
    if (!ending_) {
        ending_ = ending{shut_down_by_peer, std::move(why)};
    }
}

message_channel::received_part association_channel::receive_part(std::span<std::byte> buffer,
                                                                 bool with_delivery,
                                                                 bool /*wait*/) {
    received_part got;
    if (parts_.empty()) {
        if (ending_) {
            if (ending_->shut_down_by_peer) {
                throw peer_closed(ending_->why);
            }
            throw peer_error(ending_->why);
        }
        return got;  // nothing yet
    }
    const auto& front = parts_.front();
    const auto n = std::min(buffer.size(), front.bytes - front_taken_);
    std::copy_n(bytes_.begin() + static_cast<std::ptrdiff_t>(read_at_), n, buffer.begin());
    read_at_ += n;
    front_taken_ += n;
    queued_bytes_ -= n;
    got.bytes = n;
    if (with_delivery) {
        got.delivery = front.how;
    }
    if (arrival_stamps_) {
        last_arrival_ns_ = front.arrival_ns;
    }
    if (front_taken_ == front.bytes) {
        got.message_end = front.message_end;
        parts_.pop_front();
        front_taken_ = 0;
    }
    if (read_at_ == bytes_.size()) {
        bytes_.clear();  // keeps its capacity for the next messages
        read_at_ = 0;
    }
    return got;
}

bool association_channel::send_waits_on_others() const noexcept {
    // A peer that stopped reading leaves data unacknowledged or its window
    // closed; a vanished one leaves data unacknowledged. With neither, what
    // holds this association's send back is the socket's shared buffer.
    sctp_status status{};
    status.sstat_assoc_id = assoc_id_;
    socklen_t length = sizeof(status);
    if (::getsockopt(socket_, IPPROTO_SCTP, SCTP_STATUS, &status, &length) != 0) {
        return false;
    }
    return status.sstat_unackdata == 0 && status.sstat_rwnd > 0;
}

std::size_t association_channel::send_ready(std::span<const std::byte> bytes,
                                            const sctp_delivery& delivery) {
    for (;;) {
        const ssize_t n = send_with_delivery(socket_, bytes, delivery, MSG_DONTWAIT, assoc_id_);
        if (n >= 0) {
            if (static_cast<std::size_t>(n) != bytes.size()) {
                throw std::system_error(
                    EMSGSIZE, std::generic_category(),
                    fmt::format("the kernel took {} of a {}-byte message", n, bytes.size()));
            }
            return bytes.size();
        }
        switch (errno) {
            case EINTR:
                continue;
            case EAGAIN:
#if EWOULDBLOCK != EAGAIN
            case EWOULDBLOCK:
#endif
                return 0;
            case EPIPE:
            case ECONNRESET:
            case ENOTCONN:
            case ESHUTDOWN:
            case ESRCH:  // Linux: the association is shutting down or gone
                throw peer_error("the peer closed the association");
            case EINVAL:
                // The association id names no association any more: it
                // ended between its last message and this reply.
                if (ending_) {
                    throw peer_error("the association had ended");
                }
                throw std::system_error(errno, std::generic_category(),
                                        fmt::format("send on association {} failed", assoc_id_));
            default:
                throw std::system_error(errno, std::generic_category(), "send failed");
        }
    }
}

void association_channel::send_message(std::span<const std::byte>, const sctp_delivery&) {
    only_non_blocking("send_message");
}

void association_channel::receive_message(std::span<std::byte>, sctp_delivery*) {
    only_non_blocking("receive_message");
}

std::size_t association_channel::receive_ready(std::span<std::byte>, std::size_t, sctp_delivery*) {
    only_non_blocking("receive_ready");
}

}  // namespace sctp_perf
