// SPDX-License-Identifier: Apache-2.0
#pragma once
// The client's side of one-way latency (--one-way): the server's stamps of
// each reply taken with the client's own send and receive times, into a
// one_way_split (stats/one_way_split.hpp). One per connection.
//
// On two hosts the clocks' offset is estimated from the round trips made
// on the connection before the measurement (the primer's and the
// warm-up's), so that every measured round trip is split with one offset;
// with neither, from the first measured round trip.

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "protocol/wire_protocol.hpp"
#include "stats/clock_offset.hpp"
#include "stats/one_way_split.hpp"

namespace sctp_perf {

// Both ends' clocks, as the client read its own and the server's settings
// stated its own.
struct one_way_clocks {
    bool same_host = true;
    std::int64_t realtime_gap_ns = 0;  // server's realtime - monotonic minus the client's
};

// `server_boot_id` and `server_realtime_minus_monotonic_ns` from the
// server's settings (unset when it did not say: then the hosts are taken
// as two).
one_way_clocks clocks_of(const std::optional<std::string>& server_boot_id,
                         std::optional<std::int64_t> server_realtime_minus_monotonic_ns);

class one_way_timing {
  public:
    using clock = std::chrono::steady_clock;

    one_way_timing(protocol::test_mode mode, const one_way_clocks& clocks);

    // One round trip: sent at `sent`, its whole `reply` in at `received`;
    // recorded into `split` when `measured`, else only a sample of the
    // clocks' offset. Throws peer_error when the stamps say the reply left
    // before its request arrived.
    void take(clock::time_point sent, clock::time_point received, std::span<const std::byte> reply,
              bool measured, one_way_split* split);

  private:
    protocol::test_mode mode_;
    server_clock_mapping clocks_;
    clock_offset_estimator offsets_;
};

}  // namespace sctp_perf
