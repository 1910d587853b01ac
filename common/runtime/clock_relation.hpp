// SPDX-License-Identifier: Apache-2.0
#pragma once
// What one-way latency needs to know of a host's clocks: which boot of which
// machine it is (two ends with the same boot id read one CLOCK_MONOTONIC),
// and how far its CLOCK_REALTIME is from its CLOCK_MONOTONIC, so that
// monotonic stamps of two hosts can be put on their wall clocks and compared.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace sctp_perf {

// The kernel's random id of this boot, nullopt when it cannot be read. The
// path is a parameter for tests.
std::optional<std::string> read_boot_id(
    const char* boot_id_path = "/proc/sys/kernel/random/boot_id");

// CLOCK_REALTIME minus CLOCK_MONOTONIC now, in nanoseconds: the realtime
// read between the two monotonic reads that bracket it most closely of a
// few tries, against their midpoint.
std::int64_t realtime_minus_monotonic_ns() noexcept;

// realtime_minus_monotonic_ns(), kept for moving the kernel's stamps
// (CLOCK_REALTIME) and the steady clock's readings onto one clock: read
// apart from those readings, not beside each (a thread that loses its CPU
// between two reads would open a gap in that one), and again once every
// read_every events that used it (round trips, requests), so that a
// setting of the wall clock skews at most that many.
class realtime_offset {
  public:
    static constexpr std::uint32_t read_every = 1024;
    // How far two reads of the offset may differ with no setting of the
    // wall clock between them, or a kernel stamp moved by it stray past a
    // reading of the steady clock beside it: the spread of reading the two
    // clocks side by side, well under a microsecond.
    static constexpr std::int64_t reading_spread_ns = 1'000;
    // 0 until the first read_now().
    std::int64_t ns() const noexcept { return ns_; }
    void read_now() noexcept {
        ns_ = realtime_minus_monotonic_ns();
        since_read_ = 0;
    }
    // One event has used ns(): every read_every, the offset is read again.
    void counted() noexcept {
        if (++since_read_ == read_every) {
            read_now();
        }
    }

  private:
    std::int64_t ns_ = 0;
    std::uint32_t since_read_ = 0;
};

// CLOCK_MONOTONIC now, in nanoseconds (steady_clock on Linux).
std::int64_t monotonic_now_ns() noexcept;

// A time point of steady_clock or system_clock in nanoseconds since its
// clock's epoch: CLOCK_MONOTONIC's or CLOCK_REALTIME's reading, as the
// kernel's stamps and the other end's figures are given.
template <class Clock, class Duration>
std::int64_t ns_since_epoch(std::chrono::time_point<Clock, Duration> t) noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace sctp_perf
