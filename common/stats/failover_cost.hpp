// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a fault cost the replies: measured from the replies alone, each with
// when its request's time began, when it arrived and which path carried it.
//
// Concepts:
//  - the fault: the instant a fault began (the --at command's start), or,
//    when none is known, the start of the first request left unanswered
//    when the replies stopped: of the replies that arrived once the longest
//    gap between replies had ended, the one whose request began first;
//  - the faulted path: the path that carried the last reply before the
//    fault (0 when the replies' paths are unknown, as over TCP);
//  - the unfaulted part: the replies that arrived before the fault; its
//    p99.9 (nearest rank, exact: every sample is kept) is the bar the rest
//    are measured against.
// Every time is in nanoseconds from the start of the measurement. Pure: no
// clock, no I/O; the same figures serve any outage of a run (a path that
// failed, a peer that restarted), whatever ended it.

#include <cstdint>
#include <optional>
#include <vector>

namespace sctp_perf {

struct reply_sample {
    std::int64_t start_ns = 0;    // when its request's time began: due (rate mode) or sent
    std::int64_t arrived_ns = 0;  // when the reply was read
    std::uint16_t path = 0;       // the path that carried it; 0: unknown
};

struct failover_window {
    std::optional<std::int64_t> fault_ns;   // when the fault began; unset: inferred
    std::optional<std::int64_t> undone_ns;  // when it was undone; unset: never
};

struct reply_gap {
    std::int64_t from_ns = 0;  // the reply before the gap
    std::int64_t to_ns = 0;    // the reply that ended it
    std::int64_t length_ns() const noexcept { return to_ns - from_ns; }
};

struct failover_cost {
    std::int64_t fault_ns = 0;
    bool fault_inferred = false;
    std::uint16_t fault_path = 0;
    // From the fault to the first reply carried by a path other than the
    // faulted one; unset when none came, or paths are unknown.
    std::optional<std::int64_t> other_path_reply_ns;
    // From the fault's undoing to the first reply on the faulted path again,
    // once replies had left it; unset when they never left or never came back.
    std::optional<std::int64_t> back_on_path_ns;
    std::optional<reply_gap> longest_gap;  // between two replies in arrival order
    std::uint64_t unfaulted_replies = 0;
    std::optional<std::int64_t> unfaulted_p999_ns;  // latency: arrived - start
    std::uint64_t later_replies = 0;                // arrived at or after the fault
    // Of those, the ones whose latency exceeded the unfaulted p99.9.
    std::uint64_t later_slower_than_p999 = 0;
    std::vector<std::uint64_t> replies_per_path;  // by path, 0 (unknown) first
};

// The figures above from `replies` (in any order). With no reply at all,
// only the fault (as given, or 0) is set.
failover_cost measure_failover_cost(std::vector<reply_sample> replies,
                                    const failover_window& window);

}  // namespace sctp_perf
