// SPDX-License-Identifier: Apache-2.0
#include "client/one_way_timing.hpp"

#include <fmt/format.h>

#include "errors.hpp"
#include "runtime/clock_relation.hpp"

namespace sctp_perf {
one_way_clocks clocks_of(const std::optional<std::string>& server_boot_id,
                         std::optional<std::int64_t> server_realtime_minus_monotonic_ns) {
    const auto own_boot_id = read_boot_id();
    one_way_clocks clocks;
    clocks.same_host = own_boot_id && server_boot_id && *own_boot_id == *server_boot_id;
    if (!clocks.same_host) {
        clocks.realtime_gap_ns =
            server_realtime_minus_monotonic_ns.value_or(0) - realtime_minus_monotonic_ns();
    }
    return clocks;
}

one_way_timing::one_way_timing(protocol::test_mode mode, const one_way_clocks& clocks)
    : mode_(mode) {
    clocks_.same_host = clocks.same_host;
    clocks_.realtime_gap_ns = clocks.realtime_gap_ns;
}

void one_way_timing::take(clock::time_point sent, clock::time_point received,
                          std::span<const std::byte> reply, bool measured, one_way_split* split) {
    const auto stamps = protocol::decode_server_stamps(mode_, reply);
    if (stamps.departure_ns < stamps.arrival_ns) {
        throw peer_error(
            fmt::format("the server's stamps say the reply left {} ns before its request arrived",
                        stamps.arrival_ns - stamps.departure_ns));
    }
    const auto t2 = static_cast<std::int64_t>(stamps.arrival_ns);
    const auto t3 = static_cast<std::int64_t>(stamps.departure_ns);
    auto& clocks = clocks_;
    if (!clocks.same_host && !clocks.offset) {
        // Each end's monotonic time on its realtime clock, less the
        // client's own realtime-minus-monotonic on both: the offset of the
        // realtime clocks is unchanged by that common shift.
        if (!measured || !offsets_.best()) {
            offsets_.add({ns_since_epoch(sent), t2 + clocks.realtime_gap_ns,
                          t3 + clocks.realtime_gap_ns, ns_since_epoch(received)});
        }
        if (measured) {
            clocks.offset = offsets_.best();  // fixed from now on
        }
    }
    if (measured && split != nullptr) {
        split->record(ns_since_epoch(sent), t2, t3, ns_since_epoch(received),
                      *clocks.server_to_client_ns());
        split->note_clocks(clocks);
    }
}

}  // namespace sctp_perf
