// SPDX-License-Identifier: Apache-2.0
#include "client/round_trip_stamps.hpp"

#include "runtime/clock_relation.hpp"

namespace sctp_perf {
namespace {

// How many round trips go between two reads of the realtime clock's offset.
constexpr std::uint32_t offset_read_every = 1024;

}  // namespace

void transmit_stamp_match::sent(std::uint64_t bytes) noexcept {
    bytes_sent_ += bytes;
    awaited_key_ = static_cast<std::uint32_t>(bytes_sent_ - 1);
    scheduled_ns_ = 0;
    handed_to_device_ns_ = 0;
}

void transmit_stamp_match::take(const transmit_stamp& stamp) noexcept {
    std::int64_t& slot =
        stamp.at == transmit_stamp::point::scheduled ? scheduled_ns_ : handed_to_device_ns_;
    if (bytes_sent_ == 0 || stamp.key != awaited_key_ || slot != 0) {
        ++stray_;
        return;
    }
    slot = stamp.ns;
}

round_trip_stamps::round_trip_stamps(message_channel& channel, round_trip_split& split)
    : channel_(channel), split_(split) {
    offset_.read_now();
    enable_kernel_timestamps(channel.native_handle(), split.transmit_stamped());
    channel.take_arrival_stamps(true);
}

void round_trip_stamps::before_send(std::chrono::steady_clock::time_point start) noexcept {
    app_send_ns_ = ns_since_epoch(start) + offset_.ns();
}

void round_trip_stamps::after_reply(std::uint64_t request_bytes, bool measured,
                                    std::chrono::steady_clock::time_point stop,
                                    const protocol::server_stamps* server) {
    const std::int64_t app_received_ns = ns_since_epoch(stop) + offset_.ns();
    offset_.counted();
    match_.sent(request_bytes);
    const auto stray_before = match_.stray();
    if (split_.transmit_stamped()) {
        drain_transmit_stamps(channel_.native_handle(),
                              [this](const transmit_stamp& stamp) { match_.take(stamp); });
    }
    if (!measured) {
        return;
    }
    split_.stray_transmit_stamps += match_.stray() - stray_before;
    client_round_trip_stamps stamps{app_send_ns_, match_.handed_to_device_ns(),
                                    channel_.last_arrival_ns(), app_received_ns};
    if (server != nullptr) {
        stamps.server_arrived_ns = static_cast<std::int64_t>(server->kernel_arrival_ns);
        stamps.server_read_ns = static_cast<std::int64_t>(server->arrival_ns);
        stamps.server_send_ns = static_cast<std::int64_t>(server->departure_ns);
    }
    split_.record(stamps);
}

}  // namespace sctp_perf
