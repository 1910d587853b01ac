// SPDX-License-Identifier: Apache-2.0
#pragma once
// What one end of an association sees of its paths while a test runs: every
// peer address change the kernel announces (SCTP_PEER_ADDR_CHANGE: a path
// unreachable, potentially failed, available again, confirmed, made
// primary, added or removed), the messages it could not deliver
// (SCTP_SEND_FAILED_EVENT), and from which of the peer's addresses each
// message came.
//
// A path, here, is a peer address: the kernel announces changes per peer
// address, and a reply's source address is the peer address it left from.
// The watch is fed by whoever reads the association's socket (the channels,
// the one-to-many server's reader), which is where notifications arrive; it
// is read by the report once the test is over, and its events by another
// thread while the test runs (the interval lines), so its event list is
// guarded.

#include <sys/socket.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

#include "transport/sctp_notification.hpp"

namespace sctp_perf {

// One announced change, stamped when the reader took it off the socket:
// an event waits in the socket until then, so a reader that is busy
// elsewhere dates it late by as much (a load worker by at most one pass
// over its flows, a ping-pong client by nothing: the event wakes its read).
struct sctp_path_event {
    std::int64_t monotonic_ns = 0;  // CLOCK_MONOTONIC (std::chrono::steady_clock)
    std::int64_t realtime_ns = 0;   // CLOCK_REALTIME, read at the same moment
    sctp_path_change change = sctp_path_change::unknown;
    std::string address;  // the peer address, "10.0.0.2:45453"
    std::int32_t error = 0;
};

class sctp_path_watch {
  public:
    // Events kept; beyond, they are counted (events_dropped). A flapping
    // path must not grow a test's memory without bound.
    static constexpr std::size_t max_events = 512;
    // Distinct peer addresses told apart as the sources of messages; a
    // later one is path 0, unknown. An association has a handful.
    static constexpr std::size_t max_paths = 32;

    // Records a peer address change at the present instant; a send failure
    // is counted instead (sends_failed), since under PR-SCTP every message
    // given up makes one.
    void record(const sctp_path_notice& notice);
    std::vector<sctp_path_event> events() const;
    std::uint64_t events_dropped() const;
    std::uint64_t sends_failed() const;
    // The last send failure's error (ssf_error); 0 when none came.
    std::int32_t last_send_error() const;

    // The path a message came from, by its source address: 1, 2, ... in
    // the order the addresses were first seen, 0 when unknown. Called by
    // the one thread that reads the socket; cheap when the source is the
    // same as the last one's.
    std::uint16_t path_of(const sockaddr_storage& source, socklen_t length);
    // The address of each path, path k's at k - 1 ("10.0.0.2:45453").
    std::vector<std::string> path_addresses() const;

  private:
    // A source address as compared: family, port, address; an IPv4-mapped
    // IPv6 address is its IPv4 one.
    using address_key = std::array<std::uint8_t, 20>;
    static address_key key_of(const sockaddr_storage& source, socklen_t length) noexcept;

    mutable std::mutex mutex_;
    std::vector<sctp_path_event> events_;
    std::uint64_t dropped_ = 0;
    std::uint64_t sends_failed_ = 0;
    std::int32_t last_send_error_ = 0;
    std::vector<address_key> keys_;
    std::vector<std::string> addresses_;
    // The reader's own: the last source seen and its path.
    address_key last_key_{};
    std::uint16_t last_path_ = 0;
};

// Subscribes association `assoc_id` on `fd` (0 on a one-to-one socket),
// once it is up, to peer address changes and send failures, and asks the
// kernel to tell of potentially-failed paths too (SCTP_EXPOSE_POTENTIALLY_
// FAILED_STATE, which a kernel before Linux 5.5 lacks; it then never tells
// of them, and the report says so). A kernel before Linux 5.0 subscribes
// the whole socket instead. Every reader of the socket must then take
// notifications apart from data (MSG_NOTIFICATION): subscribing only the
// associations whose paths are watched leaves the others' reads as they
// were. Throws std::system_error.
void subscribe_path_events(int fd, std::int32_t assoc_id);

// Turns on each notification of `types` (SCTP_EVENT, one call each) for
// association `assoc_id` on `fd` (SCTP_FUTURE_ASSOC: those to come). False
// when the kernel has no SCTP_EVENT (before Linux 5.0): the caller falls
// back to SCTP_EVENTS. Throws std::system_error saying it could not
// subscribe to `what`.
bool subscribe_event_types(int fd, std::int32_t assoc_id,
                           std::initializer_list<std::uint16_t> types, const char* what);

}  // namespace sctp_perf
