#pragma once
// When each message of a flow is due.
//
// Concepts:
//  - due time: in rate mode, measured message k of a flow is due at
//    t0 + k / rate. It is sent then whether or not earlier replies have
//    arrived; a sender that fell behind sends at once, catching up, and never
//    skips a message. In throughput mode every message is due at t0: the
//    sender is always behind, and the transport sets the pace.
//  - schedule slip: how late the sender itself was, send time - due time.
//  - corrected latency: reply arrival - due time, what a system sending at
//    this rate would see (it includes the time a message waited behind a
//    stall: coordinated omission corrected). Uncorrected latency: reply
//    arrival - send time.
//
// Pure: no clock is read here, so tests drive it with any time points.

#include <chrono>
#include <cstdint>

namespace sctp_perf {

class send_schedule {
  public:
    using clock = std::chrono::steady_clock;

    // rate_per_s > 0 paces the messages; 0 makes every message due at t0.
    send_schedule(clock::time_point t0, double rate_per_s) noexcept
        : t0_(t0),
          period_ns_(rate_per_s > 0.0 ? 1e9L / static_cast<long double>(rate_per_s) : 0.0L) {}

    bool paced() const noexcept { return period_ns_ > 0.0L; }
    clock::time_point start() const noexcept { return t0_; }

    // Due time of measured message k (from 0). Long double keeps whole
    // nanoseconds exact for any k a run can reach (k * period < 2^64 ns).
    clock::time_point due(std::uint64_t k) const noexcept {
        return t0_ + std::chrono::nanoseconds(
                         static_cast<std::int64_t>(static_cast<long double>(k) * period_ns_));
    }

  private:
    clock::time_point t0_;
    long double period_ns_;
};

}  // namespace sctp_perf
