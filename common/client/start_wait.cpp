// SPDX-License-Identifier: Apache-2.0
#include "client/start_wait.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "errors.hpp"

namespace sctp_perf {

start_instant start_on_steady_clock(wall_time requested) {
    const auto steady_now = std::chrono::steady_clock::now();
    const auto wall_now = std::chrono::system_clock::now();
    return {requested, steady_now + (requested - wall_now), std::nullopt, std::nullopt, false};
}

wall_time wall_time_of(steady_time instant) {
    const auto steady_now = std::chrono::steady_clock::now();
    const auto wall_now = std::chrono::system_clock::now();
    return wall_now + std::chrono::duration_cast<wall_time::duration>(instant - steady_now);
}

void check_start_ahead(const start_instant& start, steady_time now, std::string_view stage) {
    if (now > start.steady) {
        const auto seconds = [](auto d) { return std::chrono::duration<double>(d).count(); };
        const auto head =
            fmt::format("--start-at {} passed {:.3f} s before the client was ready ({})",
                        utc_iso_text(start.requested), seconds(now - start.steady), stage);
        // A client that waited to connect began start_setup_lead before
        // the instant, whatever the instant: only less work fits in it.
        if (start.connecting_from && start.had_whole_lead) {
            throw start_missed(fmt::format(
                "{}: connecting and the primer took {:.3f} s, and a client begins them {} s "
                "before the instant; use fewer flows per client process, a shorter --primer, or "
                "a less busy host",
                head, seconds(now - *start.connecting_from), start_setup_lead.count()));
        }
        if (!start.connecting_from) {
            throw start_missed(fmt::format("{}; give a later time", head));
        }
        // Given less than the lead ahead, it connected at once.
        throw start_missed(fmt::format(
            "{}; give a time at least {} s ahead, the time a client allows itself to connect "
            "and prime",
            head, start_setup_lead.count()));
    }
    // The server's silence began a little earlier than this client can
    // see (when it read the last primer request), hence the margin.
    const auto left = start.steady - now;
    if (start.server_io_timeout && left + silence_margin >= *start.server_io_timeout) {
        throw start_missed(fmt::format(
            "--start-at {} is {:.3f} s away after the primer, but the server ends a session "
            "silent for its --io-timeout of {:.3f} s; start the server with an --io-timeout "
            "above {} s (the client connects {} s before the instant and keeps {} s to spare)",
            utc_iso_text(start.requested), std::chrono::duration<double>(left).count(),
            std::chrono::duration<double>(*start.server_io_timeout).count(),
            (start_setup_lead + silence_margin).count(), start_setup_lead.count(),
            silence_margin.count()));
    }
}

std::optional<start_instant> wait_to_connect(std::optional<wall_time> start_at,
                                             std::chrono::nanoseconds warmup) {
    if (!start_at) {
        return std::nullopt;
    }
    auto start = start_on_steady_clock(*start_at);
    start.steady -= warmup;
    const auto now = std::chrono::steady_clock::now();
    check_start_ahead(start, now, "it had not yet connected");
    start.had_whole_lead = now < start.steady - start_setup_lead;
    wait_until(start.steady - start_setup_lead, nullptr);
    start.connecting_from = std::chrono::steady_clock::now();
    return start;
}

std::optional<start_instant> with_server_timeout(std::optional<start_instant> start,
                                                 std::optional<std::chrono::milliseconds> timeout) {
    if (start && timeout) {
        start->server_io_timeout =
            start->server_io_timeout ? std::min(*start->server_io_timeout, *timeout) : *timeout;
    }
    return start;
}

bool wait_until(steady_time until, const std::atomic<int>* stop) {
    using clock = std::chrono::steady_clock;
    constexpr auto slice = std::chrono::milliseconds(20);
    constexpr auto spin = std::chrono::microseconds(200);
    const auto stopped = [stop] {
        return stop != nullptr && stop->load(std::memory_order_relaxed) != 0;
    };
    for (auto left = until - clock::now(); left > spin; left = until - clock::now()) {
        if (stopped()) {
            return false;
        }
        std::this_thread::sleep_for(std::min<clock::duration>(left - spin, slice));
    }
    while (clock::now() < until) {
        if (stopped()) {
            return false;
        }
    }
    return !stopped();
}

}  // namespace sctp_perf
