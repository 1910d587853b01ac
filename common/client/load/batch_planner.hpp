// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which due messages of a flow go into one send call (--batch), and, with
// ticks (--tick-rate), when a message counts as due.
//
// Concepts:
//  - batch: the messages one system call sends, at most --batch of them
//    (transport/batch_send.hpp sends them). Only messages already due go
//    in: a batch never waits for a message to fall due, so in rate mode a
//    flow on time sends one message per call, and batches form when the
//    sender is behind (or at a tick). In throughput mode every message is
//    due, and every call is full.
//  - tick: with --tick-rate T, time from t0 is cut into ticks of 1/T
//    seconds. A message whose due time falls within a tick, [start, start +
//    1/T), is due at the tick's start instead: the messages of a tick go
//    together at its start, as TransportPerf's -tickRate sends them, and
//    their corrected latency is measured from it. A message never counts as
//    due later than its schedule says, only earlier, by less than a tick.
//
// Every message keeps its own due time (the tick's with ticks): a message
// sent late in a batch is timed from its own due time, not the batch's
// first.
//
// Pure: no clock is read here, so tests drive it with any time points.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "client/load/send_schedule.hpp"

namespace sctp_perf {

// Ticks of 1/T seconds from t0 (see the top of this file).
class tick_grid {
  public:
    using clock = std::chrono::steady_clock;

    // `ticks_per_s` > 0.
    tick_grid(clock::time_point t0, double ticks_per_s) noexcept
        : t0_(t0), period_ns_(1e9L / static_cast<long double>(ticks_per_s)) {}

    // The start of the tick that holds `due` (due itself before t0).
    clock::time_point tick_of(clock::time_point due) const noexcept;

  private:
    clock::time_point t0_;
    long double period_ns_;
};

// What bounds one batch, besides what is due.
struct batch_bounds {
    std::size_t most = 1;  // --batch: messages per call, 1 or more
    // Measured messages the flow may still send (a counted run, -c); the
    // largest value in a duration run.
    std::uint64_t left = std::numeric_limits<std::uint64_t>::max();
    // A paced duration run: no message due at or after this is sent.
    std::chrono::steady_clock::time_point stop_at = std::chrono::steady_clock::time_point::max();
};

// Takes the messages that go into the next call off `schedule`, earliest
// first: those due by `now` (every one, unpaced), at most bounds.most and
// bounds.left of them, none due (by the schedule, before any tick) at or
// after bounds.stop_at. Appends each one's due time (its tick's start with
// `ticks`) to `dues`, advances `schedule` past them, and returns how many;
// 0 when none is due yet or none may go.
std::size_t plan_batch(send_schedule& schedule, const tick_grid* ticks,
                       std::chrono::steady_clock::time_point now, const batch_bounds& bounds,
                       std::vector<std::chrono::steady_clock::time_point>& dues);

// When the next message of `schedule` is due, with ticks its tick's start.
std::chrono::steady_clock::time_point next_send_due(const send_schedule& schedule,
                                                    const tick_grid* ticks) noexcept;

}  // namespace sctp_perf
