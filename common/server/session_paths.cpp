// SPDX-License-Identifier: Apache-2.0
#include "server/session_paths.hpp"

#include <memory>
#include <system_error>

#include "server/server_log.hpp"

namespace sctp_perf {

void watch_session_paths(message_channel& channel, const std::string& client,
                         const server_identity& identity) {
    if (!identity.watches_paths) {
        return;
    }
    try {
        subscribe_path_events(channel.native_handle(), channel.association_id());
    } catch (const std::system_error& e) {
        log_error("client {}: its paths are not watched: {}", client, e.what());
        return;
    }
    // The server has no use for each request's path: only the events.
    channel.watch_paths(std::make_shared<sctp_path_watch>(), /*each_message_path=*/false);
}

std::optional<protocol::path_events_blob> account_paths(const sctp_path_watch* watch) {
    if (watch == nullptr) {
        return std::nullopt;
    }
    protocol::path_events_blob paths;
    paths.events_dropped = watch->events_dropped();
    paths.sends_failed = watch->sends_failed();
    for (const auto& e : watch->events()) {
        if (paths.events.size() >= max_account_path_events) {
            ++paths.events_dropped;
            continue;
        }
        paths.events.push_back({static_cast<std::uint64_t>(e.monotonic_ns),
                                static_cast<std::uint64_t>(e.realtime_ns), name_of(e.change),
                                e.address, e.error});
    }
    return paths;
}

void log_path_events(const std::string& client, std::chrono::steady_clock::time_point started,
                     const sctp_path_watch* watch) {
    if (watch == nullptr) {
        return;
    }
    const auto started_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(started.time_since_epoch()).count();
    for (const auto& e : watch->events()) {
        log_info("client {}: path {} {} {:.3f} s into the session{}", client, e.address,
                 name_of(e.change), static_cast<double>(e.monotonic_ns - started_ns) / 1e9,
                 path_change_reason(e.error));
    }
    if (const auto dropped = watch->events_dropped(); dropped > 0) {
        log_info("client {}: {} more path events not kept", client, dropped);
    }
    if (const auto failed = watch->sends_failed(); failed > 0) {
        log_info(
            "client {}: {} messages could not be delivered (SCTP_SEND_FAILED_EVENT, last "
            "error {})",
            client, failed, watch->last_send_error());
    }
}

}  // namespace sctp_perf
