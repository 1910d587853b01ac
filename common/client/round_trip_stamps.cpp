// SPDX-License-Identifier: Apache-2.0
#include "client/round_trip_stamps.hpp"

#include "runtime/clock_relation.hpp"

namespace sctp_perf {
namespace {

// How many round trips go between two reads of the realtime clock's offset.
constexpr std::uint32_t offset_read_every = 1024;

}  // namespace

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
    complete_waiting(server);  // with the server's transmit stamps only
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
    if (!client_stamps_in_order(stamps)) {
        // Out of order on one clock: read the offset again at once. Moved,
        // the wall clock was set during this round trip, which is left out;
        // the next ones are moved by the new offset. Not moved, the stamps
        // are what they are, and a part below 0 is counted.
        const auto then = offset_.ns();
        offset_.read_now();
        if (clock_set_during(stamps, then, offset_.ns())) {
            ++split_.clock_set_round_trips;
            return;
        }
    }
    if (server != nullptr) {
        stamps.server_arrived_ns = static_cast<std::int64_t>(server->kernel_arrival_ns);
        stamps.server_read_ns = static_cast<std::int64_t>(server->arrival_ns);
        stamps.server_send_ns = static_cast<std::int64_t>(server->departure_ns);
    }
    if (split_.server_transmit_stamped()) {
        waiting_ = stamps;
        return;
    }
    split_.record(stamps);
}

void round_trip_stamps::complete_waiting(const protocol::server_stamps* server) noexcept {
    if (!waiting_) {
        return;
    }
    waiting_->server_handed_to_device_ns =
        server != nullptr ? static_cast<std::int64_t>(server->previous_kernel_departure_ns) : 0;
    split_.record(*waiting_);  // counted missing when the stamp did not come
    waiting_.reset();
}

void round_trip_stamps::finish() noexcept {
    complete_waiting(nullptr);
}

}  // namespace sctp_perf
