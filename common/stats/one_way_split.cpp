// SPDX-License-Identifier: Apache-2.0
#include "stats/one_way_split.hpp"

namespace sctp_perf {

std::optional<std::int64_t> server_clock_mapping::server_to_client_ns() const noexcept {
    if (same_host) {
        return 0;
    }
    if (!offset) {
        return std::nullopt;
    }
    return realtime_gap_ns - offset->offset_ns;
}

void one_way_split::record(std::int64_t t1_ns, std::int64_t t2_ns, std::int64_t t3_ns,
                           std::int64_t t4_ns, std::int64_t server_to_client_ns) noexcept {
    const std::int64_t arrival = t2_ns + server_to_client_ns;
    const std::int64_t departure = t3_ns + server_to_client_ns;
    const std::int64_t parts[] = {arrival - t1_ns, departure - arrival, t4_ns - departure};
    for (const auto part : parts) {
        negative_parts_ += part < 0 ? 1 : 0;
    }
    const auto at_least_0 = [](std::int64_t ns) {
        return static_cast<std::uint64_t>(ns < 0 ? 0 : ns);
    };
    client_to_server_.record(at_least_0(parts[0]));
    turnaround_.record(at_least_0(parts[1]));
    server_to_client_.record(at_least_0(parts[2]));
}

void one_way_split::merge(const one_way_split& other) {
    client_to_server_.merge(other.client_to_server_);
    turnaround_.merge(other.turnaround_);
    server_to_client_.merge(other.server_to_client_);
    negative_parts_ += other.negative_parts_;
    if (other.clocks_noted_) {
        note_clocks(other.clocks);
    }
}

void one_way_split::note_clocks(const server_clock_mapping& mapping) noexcept {
    const bool tighter = !mapping.same_host && mapping.offset &&
                         (!clocks.offset || mapping.offset->delay_ns < clocks.offset->delay_ns);
    if (!clocks_noted_ || tighter) {
        clocks = mapping;
        clocks_noted_ = true;
    }
}

}  // namespace sctp_perf
