// SPDX-License-Identifier: Apache-2.0
#include "client/load/flow_stamps.hpp"

#include "client/round_trip_stamps.hpp"

namespace sctp_perf {
namespace {

// Whether key `a` is at or before key `b` on the stream, modulo 2^32: the
// keys of the requests in flight lie within 2^31 bytes of each other, since
// the socket's buffers hold far less.
bool key_at_or_before(std::uint32_t a, std::uint32_t b) noexcept {
    return static_cast<std::int32_t>(b - a) >= 0;
}

}  // namespace

flow_stamps::flow_stamps(bool transmit_stamped, bool server_transmit_stamped)
    : transmit_stamped_(transmit_stamped), server_transmit_stamped_(server_transmit_stamped) {
    offset_.read_now();
}

void flow_stamps::awaits(std::uint64_t sequence, std::uint64_t end) {
    if (!transmit_stamped_) {
        return;  // no stamp will come to wait for
    }
    awaiting_.push_back({sequence, static_cast<std::uint32_t>(end - 1), 0});
}

void flow_stamps::take(const transmit_stamp& stamp) noexcept {
    if (stamp.at != transmit_stamp::point::handed_to_device) {
        return;
    }
    while (first_unstamped_ < awaiting_.size() &&
           key_at_or_before(awaiting_[first_unstamped_].key, stamp.key)) {
        awaiting_[first_unstamped_++].handed_to_device_ns = stamp.ns;
    }
}

std::int64_t flow_stamps::handed_to_device(std::uint64_t sequence) noexcept {
    // Replies over TCP come in order: the request is at the front, after
    // any whose replies never came.
    while (!awaiting_.empty() && awaiting_.front().sequence <= sequence) {
        const auto front = awaiting_.front();
        awaiting_.pop_front();
        if (first_unstamped_ > 0) {
            --first_unstamped_;
        }
        if (front.sequence == sequence) {
            return front.handed_to_device_ns;
        }
    }
    return 0;
}

void flow_stamps::reply(std::uint64_t sequence, clock::time_point sent, clock::time_point arrived,
                        std::int64_t arrival_ns, bool shared_read,
                        const protocol::server_stamps* server, bool measured,
                        round_trip_split& split) {
    const std::int64_t handed_ns = transmit_stamped_ ? handed_to_device(sequence) : 0;
    offset_.counted();
    end_reply(server);  // this reply brings the one before its server transmit stamp
    if (!measured) {
        return;
    }
    client_round_trip_stamps stamps{ns_since_epoch(sent) + offset_.ns(), handed_ns, arrival_ns,
                                    ns_since_epoch(arrived) + offset_.ns()};
    if (left_out_for_clock_set(stamps, offset_, split)) {
        return;
    }
    if (arrival_ns == 0 && shared_read) {
        ++split.shared_reads;
    }
    add_server_stamps(stamps, server);
    if (server_transmit_stamped_) {
        waiting_ = stamps;
        waiting_split_ = &split;
        return;
    }
    split.record(stamps);
}

void flow_stamps::end_reply(const protocol::server_stamps* server) noexcept {
    if (waiting_split_ != nullptr) {
        record_waiting(waiting_, server, *waiting_split_);
    }
}

}  // namespace sctp_perf
