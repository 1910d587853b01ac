// SPDX-License-Identifier: Apache-2.0
#include "server/reply_queue.hpp"

#include <chrono>

#include "protocol/wire_protocol.hpp"

namespace sctp_perf {

void reply_queue::push(std::span<const std::byte> message, const sctp_delivery& delivery) {
    bytes_.insert(bytes_.end(), message.begin(), message.end());
    if (byte_stream_ && !segments_.empty() && segments_.back().delivery == delivery) {
        segments_.back().length += message.size();
        return;
    }
    segments_.push_back({message.size(), delivery});
}

void reply_queue::push(std::span<const std::byte> message, const sctp_delivery& delivery,
                       const departure_stamps& stamps) {
    const auto start = bytes_.size();
    for (auto at = stamps.first_at; at + 8 <= message.size(); at += stamps.every) {
        stamps_.push_back(start + at);
        if (stamps.every == 0) {
            break;
        }
    }
    push(message, delivery);
}

void reply_queue::stamp_departures(std::size_t end) {
    // A stamp whose first byte has gone cannot change any more.
    while (!stamps_.empty() && stamps_.front() < sent_) {
        stamps_.pop_front();
    }
    if (stamps_.empty() || stamps_.front() >= end) {
        return;
    }
    // CLOCK_MONOTONIC, as the arrival stamps (steady_clock on Linux).
    const auto now_ns =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::steady_clock::now().time_since_epoch())
                                       .count());
    for (const auto at : stamps_) {
        if (at >= end) {
            break;
        }
        protocol::encode_server_stamp(now_ns, std::span(bytes_).subspan(at, 8));
    }
}

bool reply_queue::flush(message_channel& channel) {
    bool sent_any = false;
    while (!segments_.empty()) {
        const auto& front = segments_.front();
        const auto rest = std::span(bytes_).subspan(sent_, front.length - front_sent_);
        stamp_departures(sent_ + rest.size());
        const auto n = channel.send_ready(rest, front.delivery);
        if (n == 0) {
            break;  // no room: the socket's writability wakes the session
        }
        sent_any = true;
        sent_ += n;
        front_sent_ += n;
        if (front_sent_ == front.length) {
            segments_.pop_front();
            front_sent_ = 0;
        }
    }
    if (segments_.empty()) {
        bytes_.clear();  // keeps its capacity for the next replies
        sent_ = 0;
        stamps_.clear();
    }
    return sent_any;
}

}  // namespace sctp_perf
