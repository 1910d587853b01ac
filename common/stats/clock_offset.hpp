// SPDX-License-Identifier: Apache-2.0
#pragma once
// The offset between two hosts' clocks, estimated from round trips as NTP
// does (RFC 5905, section 8), so that a round trip can be split into its two
// one-way parts when client and server do not share a clock.
//
// One round trip gives four times, each on its own host's clock (here the
// CLOCK_REALTIME of each host, in nanoseconds):
//     t1  the client sends the request      (client's clock)
//     t2  the server's read of it completes (server's clock)
//     t3  the server sends the reply        (server's clock)
//     t4  the client has the whole reply    (client's clock)
// With `offset` the server's clock minus the client's, and the two one-way
// delays d_up and d_down:
//     t2 - t1 = d_up + offset        t4 - t3 = d_down - offset
// so
//     offset = ((t2 - t1) + (t3 - t4)) / 2 + (d_down - d_up) / 2
//     delay  = (t4 - t1) - (t3 - t2) = d_up + d_down
// The estimate takes theta = ((t2 - t1) + (t3 - t4)) / 2, which is exact
// when the two directions take equally long; however they differ, the true
// offset lies within theta +- delay / 2 (d_up and d_down are both between 0
// and delay). The round trip with the least delay bounds it most tightly,
// so that is the one kept (NTP's clock filter does the same).

#include <cstdint>
#include <optional>

namespace sctp_perf {

// The four times of one round trip, in nanoseconds (see the top of this file).
struct round_trip_times {
    std::int64_t t1_ns = 0;
    std::int64_t t2_ns = 0;
    std::int64_t t3_ns = 0;
    std::int64_t t4_ns = 0;
};

struct clock_offset_estimate {
    std::int64_t offset_ns = 0;  // theta: the server's clock minus the client's
    std::int64_t delay_ns = 0;   // delta of the round trip it came from
    // The true offset lies within offset_ns +- uncertainty_ns().
    std::int64_t uncertainty_ns() const noexcept { return delay_ns / 2 + delay_ns % 2; }
};

// theta and delta of one round trip (theta rounded toward minus infinity).
clock_offset_estimate estimate_of(const round_trip_times& times) noexcept;

// Keeps the estimate of the round trip with the least delay seen so far.
class clock_offset_estimator {
  public:
    void add(const round_trip_times& times) noexcept;
    // nullopt before the first round trip.
    const std::optional<clock_offset_estimate>& best() const noexcept { return best_; }

  private:
    std::optional<clock_offset_estimate> best_;
};

}  // namespace sctp_perf
