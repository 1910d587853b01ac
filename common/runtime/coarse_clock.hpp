// SPDX-License-Identifier: Apache-2.0
#pragma once
// The steady clock read cheaply, for deadlines counted in milliseconds.
//
// std::chrono::steady_clock::now() is CLOCK_MONOTONIC, whose vDSO read
// takes the CPU's time stamp counter: 15 to 40 ns in a virtual machine,
// which a server paid on every ping-pong request only to know when its
// client's silence began (1 % of a 4.5 us round trip with both ends on one
// CPU). CLOCK_MONOTONIC_COARSE is the same timeline as kept at the kernel's
// last tick: no counter read, a few nanoseconds, but up to a tick behind.
// Read here it is moved forward by two ticks (one for the tick's own
// granularity, one for a tick the kernel ran late), so that it is not
// earlier than steady_clock::now() at the same moment while the kernel keeps
// its ticks: a deadline counted from it may end up to two ticks (2 to 8 ms)
// late. (A virtual machine whose CPU was taken away for longer than that can
// read it that much early, as it then reads every clock late.)

#include <chrono>

namespace sctp_perf {

// An instant of std::chrono::steady_clock no earlier than now, and at most
// two kernel ticks later. Falls back to steady_clock::now() where the coarse
// clock cannot be read.
std::chrono::steady_clock::time_point steady_now_not_before() noexcept;

}  // namespace sctp_perf
