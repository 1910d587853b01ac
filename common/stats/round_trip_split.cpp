// SPDX-License-Identifier: Apache-2.0
#include "stats/round_trip_split.hpp"

#include <algorithm>

#include "runtime/clock_relation.hpp"

namespace sctp_perf {

bool client_stamps_in_order(const client_round_trip_stamps& stamps) noexcept {
    std::int64_t last = stamps.app_send_ns;
    for (const auto at : {stamps.handed_to_device_ns, stamps.arrived_ns, stamps.app_received_ns}) {
        if (at == 0) {
            continue;
        }
        if (at < last) {
            return false;
        }
        last = at;
    }
    return true;
}

bool clock_set_during(const client_round_trip_stamps& stamps, std::int64_t offset_then_ns,
                      std::int64_t offset_now_ns) noexcept {
    const auto moved = offset_now_ns - offset_then_ns;
    return !client_stamps_in_order(stamps) && (moved > realtime_offset::reading_spread_ns ||
                                               moved < -realtime_offset::reading_spread_ns);
}

void round_trip_split::record(const client_round_trip_stamps& stamps) noexcept {
    const bool no_client_transmit = transmit_stamped_ && stamps.handed_to_device_ns == 0;
    const bool no_client_arrival = stamps.arrived_ns == 0;
    const bool no_server_arrival = server_stamped_ && stamps.server_arrived_ns == 0;
    const bool no_server_transmit =
        server_transmit_stamped_ && stamps.server_handed_to_device_ns == 0;
    if (no_client_transmit || no_client_arrival || no_server_arrival || no_server_transmit) {
        ++missing_stamps_;
        missing_by_stamp_.client_transmit += no_client_transmit ? 1 : 0;
        missing_by_stamp_.client_arrival += no_client_arrival ? 1 : 0;
        missing_by_stamp_.server_arrival += no_server_arrival ? 1 : 0;
        missing_by_stamp_.server_transmit += no_server_transmit ? 1 : 0;
        return;
    }
    const auto at_least_0 = [this](std::int64_t ns) {
        negative_parts_ += ns < 0 ? 1 : 0;
        return static_cast<std::uint64_t>(ns < 0 ? 0 : ns);
    };
    std::array<std::uint64_t, 6> parts{};
    if (server_stamped_) {
        parts[3] = at_least_0(stamps.server_send_ns - stamps.server_read_ns);
        parts[4] = at_least_0(stamps.server_read_ns - stamps.server_arrived_ns);
        server_application_.record(parts[3]);
        server_wake_up_.record(parts[4]);
    }
    if (server_transmit_stamped_) {
        parts[5] = at_least_0(stamps.server_handed_to_device_ns - stamps.server_send_ns);
        server_send_stack_.record(parts[5]);
    }
    // The server's parts (0 without its stamps), taken out of the part that
    // holds them.
    const auto server_ns = static_cast<std::int64_t>(parts[3] + parts[4] + parts[5]);
    if (transmit_stamped_) {
        parts[0] = at_least_0(stamps.handed_to_device_ns - stamps.app_send_ns);
        parts[1] = at_least_0(stamps.arrived_ns - stamps.handed_to_device_ns - server_ns);
        send_stack_.record(parts[0]);
        beyond_client_.record(parts[1]);
    } else {
        parts[0] = at_least_0(stamps.arrived_ns - stamps.app_send_ns - server_ns);
        send_stack_and_beyond_.record(parts[0]);
    }
    parts[2] = at_least_0(stamps.app_received_ns - stamps.arrived_ns);
    receive_stack_.record(parts[2]);
    // The whole, t8 - t0, is never below 0 on one clock unless the clock was
    // set back; it is not counted again as a part.
    const std::int64_t whole_ns = stamps.app_received_ns - stamps.app_send_ns;
    const auto whole = static_cast<std::uint64_t>(whole_ns < 0 ? 0 : whole_ns);
    round_trip_.record(whole);
    auto& sums = sums_[log_linear_histogram::bucket_index(whole)];
    sums[0] += whole;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        sums[i + 1] += parts[i];
    }
}

void round_trip_split::merge(const round_trip_split& other) noexcept {
    send_stack_.merge(other.send_stack_);
    beyond_client_.merge(other.beyond_client_);
    send_stack_and_beyond_.merge(other.send_stack_and_beyond_);
    receive_stack_.merge(other.receive_stack_);
    server_application_.merge(other.server_application_);
    server_wake_up_.merge(other.server_wake_up_);
    server_send_stack_.merge(other.server_send_stack_);
    round_trip_.merge(other.round_trip_);
    for (std::size_t b = 0; b < sums_.size(); ++b) {
        for (std::size_t i = 0; i < sums_[b].size(); ++i) {
            sums_[b][i] += other.sums_[b][i];
        }
    }
    missing_stamps_ += other.missing_stamps_;
    missing_by_stamp_.client_transmit += other.missing_by_stamp_.client_transmit;
    missing_by_stamp_.client_arrival += other.missing_by_stamp_.client_arrival;
    missing_by_stamp_.server_arrival += other.missing_by_stamp_.server_arrival;
    missing_by_stamp_.server_transmit += other.missing_by_stamp_.server_transmit;
    negative_parts_ += other.negative_parts_;
    stray_transmit_stamps += other.stray_transmit_stamps;
    clock_set_round_trips += other.clock_set_round_trips;
    shared_reads += other.shared_reads;
}

split_band round_trip_split::band(std::uint32_t from_ppm, std::uint32_t to_ppm) const noexcept {
    split_band band;
    const std::uint64_t n = round_trip_.count();
    if (n == 0) {
        return band;
    }
    // Nearest ranks, as the percentiles take them: ceil(n * ppm / 10^6), at
    // least 1; n split as whole * 10^6 + rest so that no product overflows.
    const auto rank_of = [n](std::uint32_t ppm) {
        constexpr std::uint64_t million = 1'000'000;
        const std::uint64_t whole = n / million;
        const std::uint64_t rest = n % million;
        return std::max<std::uint64_t>(1, whole * ppm + (rest * ppm + million - 1) / million);
    };
    const std::uint64_t first = rank_of(from_ppm);
    const std::uint64_t last = rank_of(to_ppm);
    std::array<std::uint64_t, 7> sums{};
    std::uint64_t seen = 0;
    const auto counts = round_trip_.counts();
    for (std::size_t b = 0; b < counts.size() && seen < last; ++b) {
        if (counts[b] == 0) {
            continue;
        }
        const std::uint64_t bucket_first = seen + 1;
        seen += counts[b];
        if (seen < first || bucket_first > last) {
            continue;  // the bucket's ranks lie outside the band
        }
        band.round_trips += counts[b];
        for (std::size_t i = 0; i < sums.size(); ++i) {
            sums[i] += sums_[b][i];
        }
    }
    const auto per = static_cast<double>(band.round_trips);
    band.round_trip_mean_ns = static_cast<double>(sums[0]) / per;
    for (std::size_t i = 0; i < band.part_mean_ns.size(); ++i) {
        band.part_mean_ns[i] = static_cast<double>(sums[i + 1]) / per;
    }
    return band;
}

}  // namespace sctp_perf
