// SPDX-License-Identifier: Apache-2.0
#pragma once
// Polling for a bounded time before sleeping (--poll-before-sleep): the
// middle way between a wait that sleeps in the kernel at once (the default
// of old) and one that never sleeps (--spin).
//
// A sleeping receive pays a wake-up in every round trip: the scheduler's
// work and, from an idle CPU, its climb out of its idle state, several to
// tens of microseconds that the round trip then carries although the path
// did not. A wait that first looks at its socket without sleeping, for up
// to `bound`, takes a reply that comes within the bound with no wake-up at
// all; one that comes later is slept for as before. What the look costs is
// CPU: at most `bound` per wait, reported with each run's CPU.
//
// The kernel's own busy polling (SO_BUSY_POLL, net.core.busy_read and
// busy_poll, and since Linux 6.9 per epoll instance with EPIOCSPARAMS)
// polls a device's receive queue through NAPI. Loopback and veth have no
// such queue, and it adds nothing where the application already polls its
// socket, so this program polls from user space on every kernel.
//
// Each look is one poll() or epoll_wait() that does not wait; the clock is
// read after every empty look: a look costs several hundred nanoseconds and
// a clock read about forty, and a bound of a few microseconds must be kept.
// After every empty look the poller yields the CPU (sched_yield): where the
// peer it waits for shares its CPU, the peer must run before anything can
// come, and a poll that kept the CPU would hold the peer off for its whole
// bound (before the yield, an unpinned TCP loopback run with bound 50 us on
// a loaded machine: p50 112 us against 10 us sleeping at once). Where
// nothing else is runnable the yield returns at once.

#include <chrono>

namespace sctp_perf {

// The longest poll one wait may make: beyond a second a wait is a spin that
// sleeps now and then, which --spin says more plainly.
inline constexpr std::chrono::microseconds max_poll_before_sleep{1'000'000};

// Calls look() until it returns true, for as long as `bound` from now.
// Returns whether look() did; false at once for a bound of zero.
template <typename Look>
bool poll_within(std::chrono::microseconds bound, Look&& look) {
    if (bound <= std::chrono::microseconds::zero()) {
        return false;
    }
    const auto until = std::chrono::steady_clock::now() + bound;
    do {
        if (look()) {
            return true;
        }
    } while (std::chrono::steady_clock::now() < until);
    return false;
}

// Looks at `fd` without waiting for up to `bound`: true as soon as it is
// readable, or has an error or a hang-up for the read to report; false when
// the bound passed first (or the look itself failed: the read that follows
// reports why). With `stamps_queued`, the socket's error queue holds the
// kernel's transmit stamps (--timestamps), which poll() reports as POLLERR
// alone: that is not taken for an error, and the look goes on. (A real
// error on a connection comes with POLLIN or POLLHUP too; and one that did
// not would still be reported by the read after the bound.)
bool poll_readable(int fd, std::chrono::microseconds bound, bool stamps_queued = false);

// What a poller does after each empty look: lets a runnable thread on its
// CPU (the peer it waits for, perhaps) run first.
void yield_to_peer() noexcept;

}  // namespace sctp_perf
