// SPDX-License-Identifier: Apache-2.0
#pragma once
// --timestamps at the client of a ping-pong: each round trip's four stamps
// (stats/round_trip_split.hpp) gathered from the application's clock, the
// channel's receive stamps and the socket's error queue, and recorded into
// the run's split.
//
// Around each round trip the loop calls before_send() with the steady
// clock's reading that starts the round trip and after_reply() with the one
// that ends it. Those two readings are the application's stamps, t0 and t8:
// the kernel's stamps are on CLOCK_REALTIME, and the kernel keeps
// CLOCK_REALTIME at a fixed offset from CLOCK_MONOTONIC (steady_clock),
// changed only when the wall clock is set, so the readings are moved by that
// offset, as read when stamping starts (runtime/clock_relation.hpp). So the
// split's whole is the measured round trip itself. Reading CLOCK_REALTIME
// beside the steady clock instead opened a gap between the two wherever the
// thread lost its CPU between the two reads: on a busy machine, milliseconds
// in one round trip in a few thousand. The offset is read again every 1,024
// round trips, outside the timed window, so that a setting of the wall
// clock skews at most that many. The transmit stamps are taken off the
// error queue only after the reply, outside the timed window: by then they
// are there, since a request is stamped as it leaves and the reply cannot
// come before.

#include <chrono>
#include <cstdint>
#include <optional>

#include "protocol/wire_protocol.hpp"
#include "runtime/clock_relation.hpp"
#include "stats/round_trip_split.hpp"
#include "transport/kernel_timestamps.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// For a round trip whose client stamps are out of order on one clock:
// reads `offset` again at once. Moved, the wall clock was set during the
// round trip, which is then left out (counted in
// split.clock_set_round_trips, and true returned); the next round trips
// are moved by the new offset. Not moved (or the stamps in order), the
// stamps are what they are, and a part below 0 is counted when recorded.
// Ping-pong's stamps and a load flow's (client/load/flow_stamps.hpp) both
// check through here.
bool left_out_for_clock_set(const client_round_trip_stamps& stamps, realtime_offset& offset,
                            round_trip_split& split) noexcept;

// Adds the server's stamps a reply carries (--one-way: t3, t4, t5) to the
// round trip's; nothing when `server` is null.
void add_server_stamps(client_round_trip_stamps& stamps,
                       const protocol::server_stamps* server) noexcept;

// With the server's transmit stamps a reply brings the stamp of the reply
// before it, so a measured round trip waits for its flow's next reply:
// records the one `waiting` (if any) into `split` with the stamp `server`
// (the next reply's stamps) brings, counted missing that stamp when
// `server` is null (no next reply came) or brings 0, and empties it.
// Ping-pong's stamps and a load flow's both wait through here.
void record_waiting(std::optional<client_round_trip_stamps>& waiting,
                    const protocol::server_stamps* server, round_trip_split& split) noexcept;

class round_trip_stamps {
  public:
    // Turns the kernel's stamps on for the channel's socket (transmit
    // stamps where split.transmit_stamped()) and its reads' receive stamps.
    // The socket must have nothing in flight: the test's opening exchange
    // is over and no request has gone yet. Throws std::system_error when
    // the kernel refuses.
    round_trip_stamps(message_channel& channel, round_trip_split& split);

    // The request is about to be sent; `start` starts the timed round trip.
    void before_send(std::chrono::steady_clock::time_point start) noexcept;
    // The whole reply of a request of `request_bytes` is in; `stop` ends the
    // timed round trip. Records the round trip when `measured`, with the
    // server's stamps the reply carries when the split takes them
    // (round_trip_split::server_stamped(); null otherwise). With the
    // server's transmit stamps, a reply brings the previous reply's: the
    // round trip waits for the next reply, and this one's completes the one
    // before. Throws std::system_error when the error queue cannot be read.
    void after_reply(std::uint64_t request_bytes, bool measured,
                     std::chrono::steady_clock::time_point stop,
                     const protocol::server_stamps* server = nullptr);

    // Whether the replies carry the server's transmit stamps: then a
    // measured round trip waits for the next reply to bring the stamp of
    // its own, and one round trip more, unmeasured, completes the last (see
    // run_ping_pong).
    bool server_transmit_stamped() const noexcept { return split_.server_transmit_stamped(); }
    // The run is over: a round trip still waiting is counted missing.
    void finish() noexcept;

  private:
    message_channel& channel_;
    round_trip_split& split_;
    transmit_stamp_match match_;
    realtime_offset offset_;  // CLOCK_REALTIME minus the steady clock
    std::int64_t app_send_ns_ = 0;
    // With the server's transmit stamps: the measured round trip whose
    // server transmit stamp the next reply brings.
    std::optional<client_round_trip_stamps> waiting_;
};

}  // namespace sctp_perf
