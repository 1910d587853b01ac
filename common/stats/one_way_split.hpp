// SPDX-License-Identifier: Apache-2.0
#pragma once
// One-way latency: each measured round trip split into its three parts by
// the server's two stamps (protocol/wire_protocol.hpp, server timestamps):
//
//     client->server = arrival - send        (t2 - t1)
//     turnaround     = departure - arrival   (t3 - t2, the server's own time)
//     server->client = receive - departure   (t4 - t3)
//
// t1 and t4 are the client's CLOCK_MONOTONIC, t2 and t3 the server's. On one
// host (the same boot id) that is one clock, and the three parts add up to
// the round trip exactly, to the nanosecond. On two hosts the server's
// stamps are first put on the client's clock: each end's monotonic time is
// moved to its CLOCK_REALTIME (the realtime-minus-monotonic each end
// samples), and the offset between the two realtime clocks, estimated as NTP
// does (stats/clock_offset.hpp), is taken off. The turnaround is one clock's
// difference either way, so it is exact; the two directions are only as
// good as the offset, and still add up to the round trip exactly.

#include <chrono>
#include <cstdint>
#include <optional>

#include "stats/clock_offset.hpp"
#include "stats/log_linear_histogram.hpp"

namespace sctp_perf {

// How the server's stamps are put on the client's CLOCK_MONOTONIC.
struct server_clock_mapping {
    bool same_host = true;  // one boot of one machine: one CLOCK_MONOTONIC
    // Two hosts: the server's realtime-minus-monotonic minus the client's,
    // in nanoseconds: a server stamp plus this is on the client's monotonic
    // scale but for the realtime clocks' offset.
    std::int64_t realtime_gap_ns = 0;
    // Two hosts: the offset of the server's realtime clock from the
    // client's, once estimated.
    std::optional<clock_offset_estimate> offset;

    // What to add to a server stamp to put it on the client's clock;
    // nullopt on two hosts before the offset is estimated.
    std::optional<std::int64_t> server_to_client_ns() const noexcept;
};

// The three parts' distributions, in the log-linear histograms the
// round trips' percentiles come from (so the same percentiles, to the same
// precision). 3 x 280 KiB.
class one_way_split {
  public:
    // One measured round trip: sent at t1_ns and answered at t4_ns on the
    // client's clock, arrived at t2_ns and left at t3_ns on the server's,
    // whose stamps plus `server_to_client_ns` are on the client's clock.
    // A part that comes out below 0 (on two hosts, an offset off by more
    // than that part) is counted in negative_parts() and recorded as 0.
    void record(std::int64_t t1_ns, std::int64_t t2_ns, std::int64_t t3_ns, std::int64_t t4_ns,
                std::int64_t server_to_client_ns) noexcept;

    // The samples of another run or flow.
    void merge(const one_way_split& other);
    // How a connection's stamps were put on the client's clock: kept when
    // it is the first, or on two hosts its offset came from a shorter round
    // trip than the one kept.
    void note_clocks(const server_clock_mapping& mapping) noexcept;

    const log_linear_histogram& client_to_server() const noexcept { return client_to_server_; }
    const log_linear_histogram& turnaround() const noexcept { return turnaround_; }
    const log_linear_histogram& server_to_client() const noexcept { return server_to_client_; }
    std::uint64_t negative_parts() const noexcept { return negative_parts_; }

    // How the stamps were put on the client's clock (over several runs or
    // flows, the offset of the shortest round trip of any).
    server_clock_mapping clocks;

  private:
    log_linear_histogram client_to_server_;
    log_linear_histogram turnaround_;
    log_linear_histogram server_to_client_;
    std::uint64_t negative_parts_ = 0;
    bool clocks_noted_ = false;
};

}  // namespace sctp_perf
