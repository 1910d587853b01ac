// SPDX-License-Identifier: Apache-2.0
// A session's requests in a load mode or framed ping-pong: read as they
// come (a byte stream framed here, a SOCK_SEQPACKET message each), each
// taken, its reply queued when wanted, and the end of the test settled.
// The data path they share with ping-pong is in session.cpp.
#include <fmt/format.h>

#include <algorithm>

#include "errors.hpp"
#include "server/session.hpp"

namespace sctp_perf {

bool session::read_requests(clock::time_point now, std::span<std::byte> scratch) {
    if (seqpacket_) {
        if (!read_message()) {
            return false;
        }
        message_filled_ = 0;
        note_arrival();
        take_requests(message_, now);
        return true;
    }
    // A byte stream: the part of a request the last read cut short, then
    // as much as one read brings, framed here. Replies larger than their
    // requests make a read of fewer requests, so that one read's replies
    // stay within the scratch buffer's size.
    const std::size_t per_read =
        std::max<std::size_t>(1, scratch.size() / std::max(reply_size_, header_.payload_bytes));
    const auto read_bytes = std::min(scratch.size(), per_read * header_.payload_bytes);
    std::copy(partial_.begin(), partial_.end(), scratch.begin());
    const auto part = receive(scratch.first(read_bytes).subspan(partial_.size()), sctp_);
    if (part.bytes == 0) {
        return false;
    }
    if (header_.server_transmit_stamps && !sctp_ && !out_.transmit_stamped()) {
        start_load_departure_stamps();
    }
    if (sctp_) {
        route_ = part.delivery;  // over SCTP a read never spans two messages
    }
    note_arrival();
    const auto filled = partial_.size() + part.bytes;
    if (header_.server_receive_stamps && !one_request_read(filled, part.bytes, read_bytes)) {
        kernel_arrival_ns_ = 0;  // the read's stamp is not any one request's: given as none
    }
    const auto taken = take_requests(scratch.first(filled), now);
    if (phase_ == phase::load || phase_ == phase::overtaken) {
        partial_.assign(scratch.begin() + static_cast<std::ptrdiff_t>(taken),
                        scratch.begin() + static_cast<std::ptrdiff_t>(filled));
    }
    return true;
}

void session::start_load_departure_stamps() {
    // At the first read of a request: the client sent it once it had read
    // all this server sent before (the settings), so the request's
    // segments acknowledged every byte, and the kernel's keys count from
    // the first reply. The previous reply's stamp sits 16 bytes after a
    // reply's departure stamp, behind the kernel's arrival stamp.
    out_.start_transmit_stamps(
        channel_->native_handle(), 16,
        [this](std::int64_t stamp, std::uint64_t not_before, std::uint64_t not_after) {
            return on_steady_clock(stamp, not_before, not_after);
        });
}

bool session::one_request_read(std::size_t filled, std::size_t read,
                               std::size_t room) const noexcept {
    // Over TCP a read's receive stamp is the last segment's it took: a
    // request's own only when the read ended at its end, completed no other
    // request and stopped for want of data, not of room.
    return filled == header_.payload_bytes && read < room - (filled - read);
}

bool session::take_request(std::span<const std::byte> request, bool& reliable) {
    const auto size = request.size();
    const auto message = protocol::decode_message_header(request);
    if (phase_ == phase::overtaken) {
        if (!message || message->end_of_test()) {
            throw peer_error("the client sent data after the end of its test");
        }
        ++messages_received_;
        bytes_received_ += size;
        return false;
    }
    if (!message) {
        throw peer_error(
            fmt::format("request {} has a malformed message header (unknown flags or "
                        "reserved bits)",
                        messages_received_ + 1));
    }
    const bool ended = message->end_of_test();
    reliable = reliable || ended || message->primer();
    if (ended) {
        end_sequence_ = message->sequence;
    } else {
        ++messages_received_;
        bytes_received_ += size;
    }
    if (message->reply_wanted() || ended) {
        // The request's message header, then the filler up to the reply size.
        replies_.insert(replies_.end(), request.begin(),
                        request.begin() + protocol::load_reply_size);
        replies_.insert(replies_.end(), reply_.begin() + protocol::load_reply_size, reply_.end());
        if (header_.server_timestamps) {
            const auto at = replies_.size() - reply_size_ + stamps_at_;
            protocol::encode_server_stamp(arrival_ns_, std::span(replies_).subspan(at, 8));
            if (header_.server_receive_stamps) {
                protocol::encode_server_stamp(kernel_arrival_ns_,
                                              std::span(replies_).subspan(at + 16, 8));
            }
            if (header_.server_transmit_stamps) {
                // None unless the reply opens a send call (reply_queue.hpp).
                protocol::encode_server_stamp(0, std::span(replies_).subspan(at + 24, 8));
            }
        }
        if (!ended) {
            ++replies_sent_;
            bytes_sent_ += reply_size_;
        }
    }
    return ended;
}

void session::push_replies(bool reliable, clock::time_point now) {
    if (replies_.empty()) {
        return;
    }
    const sctp_delivery delivery{route_.stream, route_.unordered,
                                 reliable ? pr_sctp{} : identity_.sctp.pr};
    const bool nothing_queued = out_.empty();
    const auto push = [&](std::span<const std::byte> replies) {
        if (header_.server_timestamps) {
            out_.push(replies, delivery, {stamps_at_ + 8, reply_size_});
        } else {
            out_.push(replies, delivery);
        }
    };
    if (seqpacket_) {
        for (std::size_t r = 0; r < replies_.size(); r += reply_size_) {
            push(std::span(replies_).subspan(r, reply_size_));
        }
    } else {
        push(replies_);
    }
    note_queued(nothing_queued, now);
}

void session::settle_end(bool ended, clock::time_point now) {
    if (ended) {
        outcome_.messages_done = messages_received_;
        if (sctp_ && messages_received_ < end_sequence_) {
            phase_ = phase::overtaken;
            overtaken_at_ = now;
        } else {
            send_account(now);
        }
    } else if (phase_ == phase::overtaken && messages_received_ >= end_sequence_) {
        send_account(now);
    }
}

std::size_t session::take_requests(std::span<const std::byte> bytes, clock::time_point now) {
    const std::size_t size = header_.payload_bytes;
    std::size_t at = 0;
    bool reliable = false;  // the replies to the primer and the end are never given up
    bool ended = false;
    replies_.clear();
    for (; bytes.size() - at >= size && !ended; at += size) {
        ended = take_request(bytes.subspan(at, size), reliable);
    }
    if (at > 0) {
        input_since_ = now;  // a whole request came
    }
    push_replies(reliable, now);
    if (ended && at != bytes.size()) {
        throw peer_error("the client sent data after the end of its test");
    }
    settle_end(ended, now);
    return at;
}

}  // namespace sctp_perf
