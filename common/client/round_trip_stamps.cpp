// SPDX-License-Identifier: Apache-2.0
#include "client/round_trip_stamps.hpp"

#include "runtime/clock_relation.hpp"

namespace sctp_perf {

bool left_out_for_clock_set(const client_round_trip_stamps& stamps, realtime_offset& offset,
                            round_trip_split& split) noexcept {
    if (client_stamps_in_order(stamps)) {
        return false;
    }
    const auto then = offset.ns();
    offset.read_now();
    if (!clock_set_during(stamps, then, offset.ns())) {
        return false;
    }
    ++split.clock_set_round_trips;
    return true;
}

void add_server_stamps(client_round_trip_stamps& stamps,
                       const protocol::server_stamps* server) noexcept {
    if (server == nullptr) {
        return;
    }
    stamps.server_arrived_ns = static_cast<std::int64_t>(server->kernel_arrival_ns);
    stamps.server_read_ns = static_cast<std::int64_t>(server->arrival_ns);
    stamps.server_send_ns = static_cast<std::int64_t>(server->departure_ns);
}

void record_waiting(std::optional<client_round_trip_stamps>& waiting,
                    const protocol::server_stamps* server, round_trip_split& split) noexcept {
    if (!waiting) {
        return;
    }
    waiting->server_handed_to_device_ns =
        server != nullptr ? static_cast<std::int64_t>(server->previous_kernel_departure_ns) : 0;
    split.record(*waiting);  // counted missing when the stamp did not come
    waiting.reset();
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
    record_waiting(waiting_, server, split_);  // with the server's transmit stamps only
    match_.sent(request_bytes);
    const auto stray_before = match_.stray();
    if (split_.transmit_stamped()) {
        // Until this request's stamp: on loopback it is made inside the
        // send, so it is there, and no read finds the queue empty.
        read_transmit_stamps_until(
            channel_.native_handle(), [this](const transmit_stamp& stamp) { match_.take(stamp); },
            [this] { return match_.handed_to_device_ns() != 0; });
    }
    if (!measured) {
        return;
    }
    split_.stray_transmit_stamps += match_.stray() - stray_before;
    client_round_trip_stamps stamps{app_send_ns_, match_.handed_to_device_ns(),
                                    channel_.last_arrival_ns(), app_received_ns};
    if (left_out_for_clock_set(stamps, offset_, split_)) {
        return;
    }
    add_server_stamps(stamps, server);
    if (split_.server_transmit_stamped()) {
        waiting_ = stamps;
        return;
    }
    split_.record(stamps);
}

void round_trip_stamps::finish() noexcept {
    record_waiting(waiting_, nullptr, split_);
}

}  // namespace sctp_perf
