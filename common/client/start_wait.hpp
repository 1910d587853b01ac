// SPDX-License-Identifier: Apache-2.0
#pragma once
// --start-at on the client's clocks: when to connect, and the wait from
// "ready" (connected, test agreed, primer done) to the instant itself.
//
// A server ends a session whose client stays silent for longer than its
// --io-timeout, also between the primer and the first measured request
// (server/session.hpp). A client that connected at once and then waited
// minutes would be cut off, so it connects late instead: it sleeps until
// start_setup_lead before the instant, then connects, agrees on the test and
// primes as it always does, and then waits what is left of the lead. That
// wait is shorter than the lead, which is half the server's default
// --io-timeout, so the server's bounds stay as they are; a server with a
// shorter --io-timeout is found before the wait (check_start_ahead). A
// client that is not ready by the instant fails (start_missed) rather than
// start late: a late start would silently misalign the runs merged across
// hosts.
//
// The instant is a wall-clock (CLOCK_REALTIME) time, converted to the
// steady clock once, as the wait begins: the measurement is timed on the
// steady clock, and a wall clock stepped meanwhile does not move it.

#include <atomic>
#include <chrono>
#include <optional>
#include <string_view>

#include "options/start_time.hpp"

namespace sctp_perf {

using steady_time = std::chrono::steady_clock::time_point;

// How long before the instant a client begins to connect: time for the
// connections and the primer (--primer round trips per flow, 100 by
// default, the flows in step), and half the server's default --io-timeout
// of 10 s. A primer much longer may not be done by then: the client then
// fails with start_missed, naming it.
inline constexpr std::chrono::seconds start_setup_lead{5};

// What the wait after the primer keeps below the server's --io-timeout: the
// server counts its silence from before the client's primer ends (by up to
// half a round trip), and a start cut that fine would be lost.
inline constexpr std::chrono::seconds silence_margin{1};

// The requested instant on both clocks, how long the server lets a client
// stay silent after its primer (its --io-timeout, as its settings state it;
// unset: not known), when the client began to connect (unset until it did)
// and whether it had to wait to (the instant was more than start_setup_lead
// ahead), so that an instant missed can say whether set-up took too long or
// the instant came too soon.
struct start_instant {
    wall_time requested;
    steady_time steady;
    std::optional<std::chrono::milliseconds> server_io_timeout;
    std::optional<steady_time> connecting_from;
    bool had_whole_lead = false;
};

// With --start-at (`start_at`): the instant on the steady clock, once the
// time to connect has come (start_setup_lead before it). Ctrl-C while this
// sleeps ends the program at once, as while connecting: nothing has been
// measured. A --warmup runs before the instant, so that on every host the
// measurement, not the warm-up, begins at it: the steady instant the run
// waits for is `warmup` earlier. Without --start-at: none, at once.
std::optional<start_instant> wait_to_connect(std::optional<wall_time> start_at,
                                             std::chrono::nanoseconds warmup);

// The start instant with a server's I/O timeout (server_io_timeout, from its
// settings) as a bound too: the shortest of the servers' bounds a client's
// silence between its primer and the instant.
std::optional<start_instant> with_server_timeout(std::optional<start_instant> start,
                                                 std::optional<std::chrono::milliseconds> timeout);

// Converts `requested` to the steady clock, reading both clocks once.
start_instant start_on_steady_clock(wall_time requested);

// The wall-clock time of a steady instant, as the two clocks read now:
// when a measurement began, in the time that reports from several hosts
// share.
wall_time wall_time_of(steady_time instant);

// Throws start_missed when `now` is past the instant, or when the wait
// left and silence_margin reach the server's I/O timeout (it would end the
// session before the instant). `stage` says what the client had done by then.
// Past the instant after connecting, the sentence says how long connecting
// and priming took: when the client had its whole start_setup_lead, a later
// instant would not help (it still begins start_setup_lead before), and the
// advice is less set-up work.
void check_start_ahead(const start_instant& start, steady_time now, std::string_view stage);

// Sleeps until `until`: in slices of at most 20 ms, since a signal does not
// cut a sleep short, and spinning the last 200 us, since a wake-up from a
// timer is late by tens of microseconds. Returns false as soon as *stop is
// non-zero (a signal's number, runtime/interrupt.hpp); true at `until`.
bool wait_until(steady_time until, const std::atomic<int>* stop);

}  // namespace sctp_perf
