// SPDX-License-Identifier: Apache-2.0
#pragma once
// --timestamps under load: the kernel's stamps of one flow's timed requests
// and of their replies, matched message by message, for the split of each
// round trip (stats/round_trip_split.hpp).
//
// Ping-pong has one request in flight and takes its stamps by turn
// (client/round_trip_stamps.hpp). A load flow may have many, so each stamp
// is matched to its own message:
//
// - t2, the transmit stamp (TCP only: the kernel's SCTP makes none). The
//   kernel stamps a send call once, at its last byte, keyed by that byte's
//   offset in the stream (transport/kernel_timestamps.hpp). A timed request
//   takes the first stamp whose key reaches its own last byte: its own
//   call's, or, when its bytes went in several calls, the stamp of the call
//   that took its end. Requests batched into one call (--batch) take the
//   call's stamp, that of the batch's last byte, which left with them.
// - t7, the receive stamp. Over TCP a read's stamp is that of the last
//   segment the read took, so it is a reply's own only when the read ended
//   at that reply's end and completed no other reply. A read of several
//   replies, or of one and part of the next, gives its stamp to none of
//   them: they are counted missing the client's arrival stamp, and said
//   apart (round_trip_split::shared_reads). At a low rate each reply comes
//   alone; at a high one, and in throughput mode, many share a read. Over
//   SCTP each read is one message.
// - t3 to t6, the server's (--one-way): each reply carries t3, t4 and t5
//   of its own request, and over TCP t6 of the flow's reply before it (the
//   server's kernel stamps a reply only as it leaves). So a measured round
//   trip waits for the flow's next reply, or its end-of-test reply, to
//   bring its t6; a reply whose predecessor left in the same send call of
//   the server brings 0 (the kernel stamps a call once, at its end), and
//   the round trip is counted missing that stamp alone.
// - t0 and t8, the application's: the steady clock's readings before the
//   request's send call and after the reply's read, which time the round
//   trip from the send (the uncorrected one), moved onto CLOCK_REALTIME by
//   the offset between the clocks (runtime/clock_relation.hpp), read again
//   every 1,024 replies.
//
// The stamps are given to it, never read here; only the offset is.

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>

#include "protocol/wire_protocol.hpp"
#include "runtime/clock_relation.hpp"
#include "stats/round_trip_split.hpp"
#include "transport/kernel_timestamps.hpp"

namespace sctp_perf {

class flow_stamps {
  public:
    using clock = std::chrono::steady_clock;

    // `transmit_stamped`: the transport stamps what it sends (TCP).
    // `server_transmit_stamped`: every reply carries the server's transmit
    // stamp of the reply before. Reads the clocks' offset: construct it once
    // the socket's stamps are on.
    explicit flow_stamps(bool transmit_stamped, bool server_transmit_stamped = false);

    // Bytes of the stream taken by the send calls so far (counted from
    // when stamping was turned on, with nothing in flight).
    std::uint64_t stream_bytes() const noexcept { return stream_bytes_; }
    // A send call took `bytes` more.
    void took(std::size_t bytes) noexcept { stream_bytes_ += bytes; }
    // Timed request `sequence` is in the kernel whole, its last byte the
    // stream's `end`-th: it awaits its transmit stamp. Sequences increase.
    void awaits(std::uint64_t sequence, std::uint64_t end);
    // One stamp from the error queue: every request awaiting a stamp whose
    // last byte it reaches takes it. A stamp that reaches none (a call of
    // untimed messages, a retransmission stamped again) is passed over.
    void take(const transmit_stamp& stamp) noexcept;
    // Whether a request sent awaits its transmit stamp still.
    bool stamp_awaited() const noexcept { return first_unstamped_ < awaiting_.size(); }

    // The reply to request `sequence`, sent at `sent` and read whole at
    // `arrived`. `arrival_ns`: the read's receive stamp when it is this
    // reply's own, else 0, with `shared_read` when that is because the read
    // brought more than this reply. `server`: the server's stamps the reply
    // carries (--one-way), or null. A measured one is recorded into `split`
    // (with the server's transmit stamps, once the next reply has come);
    // every one forgets its request's transmit stamp, and those of earlier
    // requests whose replies never came.
    void reply(std::uint64_t sequence, clock::time_point sent, clock::time_point arrived,
               std::int64_t arrival_ns, bool shared_read, const protocol::server_stamps* server,
               bool measured, round_trip_split& split);
    // The end-of-test reply came, with the server's stamps `server` (or
    // null): the round trip waiting for the server's transmit stamp takes
    // it from there.
    void end_reply(const protocol::server_stamps* server) noexcept;
    // No reply will come on this connection any more (it ended early): the
    // round trip waiting is recorded, counted missing the server's stamp.
    void abandon() noexcept { end_reply(nullptr); }

    // Requests awaiting a reply whose transmit stamps are kept (for tests).
    std::size_t kept() const noexcept { return awaiting_.size(); }

  private:
    struct awaiting {
        std::uint64_t sequence = 0;
        std::uint32_t key = 0;  // the offset of its last byte, modulo 2^32
        std::int64_t handed_to_device_ns = 0;
    };
    // Its transmit stamp, 0 when none came; drops the entries up to it.
    std::int64_t handed_to_device(std::uint64_t sequence) noexcept;

    bool transmit_stamped_;
    bool server_transmit_stamped_;
    std::uint64_t stream_bytes_ = 0;
    std::deque<awaiting> awaiting_;    // in sequence order
    std::size_t first_unstamped_ = 0;  // of awaiting_, the first without its stamp
    realtime_offset offset_;
    // With the server's transmit stamps: the measured round trip whose stamp
    // the flow's next reply brings, and the split it goes to.
    std::optional<client_round_trip_stamps> waiting_;
    round_trip_split* waiting_split_ = nullptr;
};

}  // namespace sctp_perf
