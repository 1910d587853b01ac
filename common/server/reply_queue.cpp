// SPDX-License-Identifier: Apache-2.0
#include "server/reply_queue.hpp"

#include <chrono>
#include <utility>

#include "protocol/wire_protocol.hpp"

namespace sctp_perf {
namespace {

// CLOCK_MONOTONIC, as the arrival stamps (steady_clock on Linux).
std::uint64_t reply_queue_steady_ns() noexcept {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

}  // namespace

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
        stamps_.push_back({start + at, start + at - stamps.first_at});
        if (stamps.every == 0) {
            break;
        }
    }
    push(message, delivery);
}

void reply_queue::start_transmit_stamps(int fd, std::size_t previous_at,
                                        stamp_converter to_steady) {
    enable_kernel_timestamps(fd, true);
    transmit_.emplace();
    transmit_->fd = fd;
    transmit_->previous_at = previous_at;
    transmit_->to_steady = std::move(to_steady);
}

void reply_queue::stamp_departures(std::size_t end, std::uint64_t call_ns) {
    // A stamp whose first byte has gone cannot change any more.
    while (!stamps_.empty() && stamps_.front().at < sent_) {
        stamps_.pop_front();
    }
    if (stamps_.empty() || stamps_.front().at >= end) {
        return;
    }
    const auto now_ns = call_ns != 0 ? call_ns : reply_queue_steady_ns();
    if (transmit_ && stamps_.front().reply_start == sent_) {
        // This call opens with the reply: the call before ended with its
        // predecessor.
        protocol::encode_server_stamp(
            previous_call_departure(now_ns),
            std::span(bytes_).subspan(stamps_.front().at + transmit_->previous_at, 8));
    }
    for (const auto& stamp : stamps_) {
        if (stamp.at >= end) {
            break;
        }
        protocol::encode_server_stamp(now_ns, std::span(bytes_).subspan(stamp.at, 8));
    }
}

std::uint64_t reply_queue::previous_call_departure(std::uint64_t now_ns) {
    auto& t = *transmit_;
    if (t.last_call_ns == 0) {
        return 0;  // the first call since the stamps were turned on
    }
    if (t.last_call.handed_to_device_ns() == 0) {
        take_transmit_stamps(false);  // it came after the call
    }
    const auto stamp = t.last_call.handed_to_device_ns();
    return stamp == 0 ? 0 : t.to_steady(stamp, t.last_call_ns, now_ns);
}

void reply_queue::note_call(std::size_t bytes, std::uint64_t call_ns) {
    transmit_->last_call.sent(bytes);
    transmit_->last_call_ns = call_ns;
    take_transmit_stamps(false);
}

void reply_queue::take_transmit_stamps(bool all) {
    auto& t = *transmit_;
    read_transmit_stamps_until(
        t.fd, [&t](const transmit_stamp& stamp) { t.last_call.take(stamp); },
        [&t, all] { return !all && t.last_call.handed_to_device_ns() != 0; });
}

void reply_queue::drain_transmit_stamps() {
    if (transmit_) {
        take_transmit_stamps(true);
    }
}

bool reply_queue::flush(message_channel& channel) {
    bool sent_any = false;
    while (!segments_.empty()) {
        const auto& front = segments_.front();
        const auto rest = std::span(bytes_).subspan(sent_, front.length - front_sent_);
        // With transmit stamps the clock is read before every call: it
        // bounds the call's stamp.
        const std::uint64_t call_ns = transmit_ ? reply_queue_steady_ns() : 0;
        stamp_departures(sent_ + rest.size(), call_ns);
        const auto n = channel.send_ready(rest, front.delivery);
        if (n == 0) {
            break;  // no room: the socket's writability wakes the session
        }
        if (transmit_) {
            note_call(n, call_ns);
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
