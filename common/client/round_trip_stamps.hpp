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

// Which transmit stamp belongs to the request in flight. Over TCP a stamp's
// key is the offset of the last byte of the send it stamps, counted from
// the first byte sent once stamping was on; so the request whose last byte
// is the stream's n-th carries key n - 1 (modulo 2^32, the key's width).
class transmit_stamp_match {
  public:
    // A request of `bytes` bytes was sent: its stamps are the ones awaited
    // from now on, and the earlier request's are forgotten.
    void sent(std::uint64_t bytes) noexcept;
    // One stamp from the error queue. Counted as stray when it is not the
    // awaited request's (an earlier one's, come late) or repeats one
    // already taken (the first is kept).
    void take(const transmit_stamp& stamp) noexcept;

    // The awaited request's stamps, 0 until they came.
    std::int64_t scheduled_ns() const noexcept { return scheduled_ns_; }
    std::int64_t handed_to_device_ns() const noexcept { return handed_to_device_ns_; }
    std::uint64_t stray() const noexcept { return stray_; }

  private:
    std::uint64_t bytes_sent_ = 0;
    std::uint32_t awaited_key_ = 0;
    std::int64_t scheduled_ns_ = 0;
    std::int64_t handed_to_device_ns_ = 0;
    std::uint64_t stray_ = 0;
};

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
    // (round_trip_split::server_stamped(); null otherwise). Throws
    // std::system_error when the error queue cannot be read.
    void after_reply(std::uint64_t request_bytes, bool measured,
                     std::chrono::steady_clock::time_point stop,
                     const protocol::server_stamps* server = nullptr);

  private:
    message_channel& channel_;
    round_trip_split& split_;
    transmit_stamp_match match_;
    realtime_offset offset_;  // CLOCK_REALTIME minus the steady clock
    std::int64_t app_send_ns_ = 0;
};

}  // namespace sctp_perf
