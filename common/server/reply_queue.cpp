// SPDX-License-Identifier: Apache-2.0
#include "server/reply_queue.hpp"

namespace sctp_perf {

void reply_queue::push(std::span<const std::byte> message, const sctp_delivery& delivery) {
    bytes_.insert(bytes_.end(), message.begin(), message.end());
    if (byte_stream_ && !segments_.empty() && segments_.back().delivery == delivery) {
        segments_.back().length += message.size();
        return;
    }
    segments_.push_back({message.size(), delivery});
}

bool reply_queue::flush(message_channel& channel) {
    bool sent_any = false;
    while (!segments_.empty()) {
        const auto& front = segments_.front();
        const auto rest = std::span(bytes_).subspan(sent_, front.length - front_sent_);
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
    }
    return sent_any;
}

}  // namespace sctp_perf
