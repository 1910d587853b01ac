// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a round trip went, from the kernel's software stamps at the client
// (--timestamps, transport/kernel_timestamps.hpp). Four instants of one
// round trip, all on the client's CLOCK_REALTIME:
//
//     t0  the application hands the request to send()
//     t2  the kernel hands the request to the device (its last byte's packet)
//     t7  the reply's last packet arrives from the device
//     t8  the application has the whole reply
//
// split it into three parts that add up to t8 - t0 exactly:
//
//     client send stack     = t2 - t0
//     beyond the client     = t7 - t2   (the network both ways and the
//                                        server's whole time, from its
//                                        device to its device)
//     client receive stack  = t8 - t7   (the wake-up of the application
//                                        included)
//
// The kernel's SCTP makes no transmit stamp: over SCTP t2 is unknown, and
// the first two parts are one, t7 - t0 ("send stack and beyond").
//
// With the server's stamps in every reply (--one-way), three more instants
// on the server's own clock, of which only their differences are taken:
//
//     t3  the server's kernel stamped the request's arrival (its software
//         receive stamp, moved by the server onto its CLOCK_MONOTONIC)
//     t4  the server's application has read the whole request
//     t5  the server's application hands the reply to send()
//
// and two parts of the server's come out of "beyond the client" (or, over
// SCTP, out of "send stack and beyond"):
//
//     server receive and wake-up  = t4 - t3   (the server kernel's receive
//                                              path after the stamp, the
//                                              wake-up of its application
//                                              and the read)
//     server application          = t5 - t4
//
// which then holds the network both ways and the server's send stack:
// (t7 - t2) - (t5 - t3). The parts still add up to t8 - t0: durations move
// from one part to another, and a duration on the server's clock is one on
// the client's (the clocks may be offset, not run at different rates, to a
// few parts per million).
//
// Over TCP the server's kernel stamps its replies too (the server's
// transmit stamps), and each reply carries the previous reply's:
//
//     t6  the server's kernel handed the reply to its device
//
// so that the server's send stack comes out of the network too:
//
//     server send stack  = t6 - t5
//     network            = (t7 - t2) - (t6 - t3)   (both ways, device to
//                                                   device)
//
// and the server's residence t6 - t3 is its receive and wake-up, its
// application and its send stack.
//
// Shares. The parts' percentiles are each part's own distribution, and do
// not say where the slow round trips went: the p99 of the receive stack and
// the p99 of the network need not come from the same round trips. So the
// split also keeps, for each bucket of the split round trip t8 - t0 (the
// log-linear layout of the round trips' own histogram), the sums of each
// part over the round trips that fell in it: a band of round trips by rank
// (the middle, p45 to p55; the slowest, p99 and above) then has each part's
// mean, and its share of the band's mean round trip, exactly as the
// samples add up (to the band's bucket edges: a band holds the whole
// buckets its ranks touch). Fixed memory: 35,840 buckets of seven 8-byte
// sums, 1.9 MiB.

#include <array>
#include <cstdint>
#include <vector>

#include "stats/log_linear_histogram.hpp"

namespace sctp_perf {

// One round trip's client stamps, nanoseconds of CLOCK_REALTIME; 0 for a
// stamp that did not come.
struct client_round_trip_stamps {
    std::int64_t app_send_ns = 0;          // t0
    std::int64_t handed_to_device_ns = 0;  // t2
    std::int64_t arrived_ns = 0;           // t7
    std::int64_t app_received_ns = 0;      // t8
    // The server's stamps, nanoseconds of its CLOCK_MONOTONIC, with --one-way
    // only (0 without).
    std::int64_t server_arrived_ns = 0;  // t3 (0 also when its kernel gave none)
    std::int64_t server_read_ns = 0;     // t4
    std::int64_t server_send_ns = 0;     // t5
    // With the server's transmit stamps only (0 also when its kernel's
    // stamp had not come).
    std::int64_t server_handed_to_device_ns = 0;  // t6
};

// Which stamps did not come, each counted once per round trip that lacked
// it (a round trip may lack several). A transmit stamp waits on the error
// queue, which counts against the socket's receive buffer: the kernel drops
// a stamp, silently, when that buffer is full.
struct missing_stamp_counts {
    std::uint64_t client_transmit = 0;  // t2
    std::uint64_t client_arrival = 0;   // t7
    std::uint64_t server_arrival = 0;   // t3
    std::uint64_t server_transmit = 0;  // t6
};

// Whether the client's stamps of a round trip lie in the order a round
// trip passes them on one clock, t0 <= t2 <= t7 <= t8 (a stamp that did not
// come, 0, is passed over). Out of order means a stamp matched to the wrong
// round trip, or the wall clock set between the readings.
bool client_stamps_in_order(const client_round_trip_stamps& stamps) noexcept;

// Whether a round trip whose stamps are out of order ran while the wall
// clock was set: CLOCK_REALTIME minus the steady clock, read again now
// (`offset_now_ns`), differs from the offset that moved the application's
// readings (`offset_then_ns`) by more than reading the two clocks side by
// side can (a microsecond).
bool clock_set_during(const client_round_trip_stamps& stamps, std::int64_t offset_then_ns,
                      std::int64_t offset_now_ns) noexcept;

// The round trips of a band of ranks of the split round trip, and what
// each part took of them on average. Parts in the order send stack (or,
// without transmit stamps, send stack and beyond), beyond the client (0
// without transmit stamps), receive stack, server application and server
// receive and wake-up (both 0 without the server's stamps), server send
// stack (0 without its transmit stamps); the first two less the server's
// parts when they are parts.
struct split_band {
    std::uint64_t round_trips = 0;
    double round_trip_mean_ns = 0.0;
    std::array<double, 6> part_mean_ns{};
};

// The parts' distributions, in the log-linear histograms the round trips'
// percentiles come from, and the parts' sums per bucket of the split round
// trip: eight histograms of 280 KiB and the sums, about 4.1 MiB.
class round_trip_split {
  public:
    // `transmit_stamped`: the transport has transmit stamps (TCP), so the
    // send stack is a part of its own. `server_stamped`: every reply
    // carries the server's stamps (--one-way), so the server's receive and
    // wake-up and its application are parts of their own;
    // `server_transmit_stamped` (with both), every reply carries the
    // server's transmit stamp of the one before, so that its send stack is
    // a part too.
    explicit round_trip_split(bool transmit_stamped, bool server_stamped = false,
                              bool server_transmit_stamped = false)
        : transmit_stamped_(transmit_stamped),
          server_stamped_(server_stamped),
          server_transmit_stamped_(server_transmit_stamped && server_stamped && transmit_stamped),
          sums_(log_linear_histogram::counts_size()) {}

    // One measured round trip. One that lacks a stamp the split needs is
    // not recorded but counted in missing_stamps(); a part below 0 (which on
    // one host's clock means a stamp was matched to the wrong round trip,
    // or the clock was set back in between) is counted in negative_parts()
    // and recorded as 0.
    void record(const client_round_trip_stamps& stamps) noexcept;

    // The round trips of another run.
    void merge(const round_trip_split& other) noexcept;

    bool transmit_stamped() const noexcept { return transmit_stamped_; }
    bool server_stamped() const noexcept { return server_stamped_; }
    bool server_transmit_stamped() const noexcept { return server_transmit_stamped_; }
    // With transmit stamps: t2 - t0 and t7 - t2 (less t5 - t3 with the
    // server's stamps, t6 - t3 with its transmit stamps too).
    const log_linear_histogram& send_stack() const noexcept { return send_stack_; }
    const log_linear_histogram& beyond_client() const noexcept { return beyond_client_; }
    // Without: t7 - t0 (less t5 - t3 with the server's stamps).
    const log_linear_histogram& send_stack_and_beyond() const noexcept {
        return send_stack_and_beyond_;
    }
    // With the server's stamps: t5 - t4 and t4 - t3.
    const log_linear_histogram& server_application() const noexcept { return server_application_; }
    const log_linear_histogram& server_wake_up() const noexcept { return server_wake_up_; }
    // With the server's transmit stamps: t6 - t5.
    const log_linear_histogram& server_send_stack() const noexcept { return server_send_stack_; }
    // t8 - t7, either way.
    const log_linear_histogram& receive_stack() const noexcept { return receive_stack_; }
    // t8 - t0 of the round trips split.
    const log_linear_histogram& round_trip() const noexcept { return round_trip_; }

    // The round trips whose rank in the split round trip lies from
    // `from_ppm` to `to_ppm` (parts per million, 0 < from <= to <= 10^6),
    // to the buckets those ranks fall in; empty when none was split.
    split_band band(std::uint32_t from_ppm, std::uint32_t to_ppm) const noexcept;

    // Round trips split (each part's histogram holds this many).
    std::uint64_t split_count() const noexcept { return receive_stack_.count(); }
    std::uint64_t missing_stamps() const noexcept { return missing_stamps_; }
    // Of those round trips, which stamps they lacked.
    const missing_stamp_counts& missing_by_stamp() const noexcept { return missing_by_stamp_; }
    std::uint64_t negative_parts() const noexcept { return negative_parts_; }

    // Round trips left out because the wall clock was set while they ran:
    // the kernel stamps on CLOCK_REALTIME, and a setting moves its stamps
    // against the application's. Counted by the reader of the stamps.
    std::uint64_t clock_set_round_trips = 0;

    // Transmit stamps that matched no round trip waiting for one: late ones
    // (of a round trip already taken, whose own sample was then counted
    // missing) and repeated ones (a retransmission is stamped again; the
    // first stamp is kept). Counted by the reader of the stamps.
    std::uint64_t stray_transmit_stamps = 0;

    // Under load (client/load/flow_stamps.hpp): round trips counted missing
    // the client's arrival stamp because the read that brought their reply
    // brought more (another reply, or part of one), so that its stamp, the
    // last segment's, is not the reply's own. Counted by the reader of the
    // stamps; always 0 in ping-pong, whose reads are one reply each.
    std::uint64_t shared_reads = 0;

  private:
    bool transmit_stamped_;
    bool server_stamped_;
    bool server_transmit_stamped_;
    log_linear_histogram send_stack_;
    log_linear_histogram beyond_client_;
    log_linear_histogram send_stack_and_beyond_;
    log_linear_histogram receive_stack_;
    log_linear_histogram server_application_;
    log_linear_histogram server_wake_up_;
    log_linear_histogram server_send_stack_;
    log_linear_histogram round_trip_;
    // Per bucket of round_trip_: the sum of t8 - t0 and of each part (in
    // split_band's order), ns.
    std::vector<std::array<std::uint64_t, 7>> sums_;
    std::uint64_t missing_stamps_ = 0;
    missing_stamp_counts missing_by_stamp_;
    std::uint64_t negative_parts_ = 0;
};

}  // namespace sctp_perf
