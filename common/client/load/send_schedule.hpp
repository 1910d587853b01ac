// SPDX-License-Identifier: Apache-2.0
#pragma once
// When each message of a flow is due.
//
// Concepts:
//  - due time: in rate mode, the measured messages of a flow are due at
//    a rate of R per second, spaced as the arrival process says (below).
//    A message is sent when due whether or not earlier replies have
//    arrived; a sender that fell behind sends at once, catching up, and
//    never skips a message. In throughput mode every message is due at t0:
//    the sender is always behind, and the transport sets the pace.
//  - schedule slip: how late the sender itself was, send time - due time.
//  - corrected latency: reply arrival - due time, what a system sending at
//    this rate would see (it includes the time a message waited behind a
//    stall: coordinated omission corrected). Uncorrected latency: reply
//    arrival - send time.
//
// Arrival processes, for F flows at R messages per second each:
//  - uniform: each flow keeps its constant period 1/R, and flow i starts
//    i/(F*R) after t0, so the flows' messages are spread evenly: one every
//    1/(F*R). What many independent, steady sources look like on average.
//  - poisson: gaps drawn from an exponential distribution of mean 1/R,
//    independently per flow from a seed, so that a run can be repeated
//    exactly. What the sum of many independent sources looks like. Each
//    gap is capped at poisson_gap_cap mean gaps (below), so that the
//    schedule has a longest gap to tell the server.
//  - in-step: every flow's message k is due at t0 + k/R: F messages at
//    once every period. A synchronized burst, on purpose only: with many
//    flows the latency measured is mostly the queue of the burst itself.
//
// Pure: no clock is read here, so tests drive it with any time points.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>

#include "options/arrival_process.hpp"

namespace sctp_perf {

class send_schedule {
  public:
    using clock = std::chrono::steady_clock;

    // A poisson gap longer than this many mean gaps is cut to it. An
    // exponential gap exceeds 20 means with probability e^-20, about 2e-9:
    // once in 500 million gaps, so the distribution is unchanged for any
    // run one can make, while the server, told the longest gap, can wait
    // for the next message of a slow flow that long and no longer.
    static constexpr long double poisson_gap_cap = 20.0L;

    // In step (phase 0): rate_per_s > 0 paces the messages; 0 makes every
    // message due at t0 (throughput mode).
    send_schedule(clock::time_point t0, double rate_per_s) noexcept
        : send_schedule(t0, rate_per_s, arrival_process::in_step, 0, 1, 0) {}

    // Flow `flow` (from 0) of `flows`, each at `rate_per_s`. `seed` draws
    // the gaps of a poisson schedule (each flow its own sequence from it)
    // and is unused otherwise.
    send_schedule(clock::time_point t0, double rate_per_s, arrival_process process, unsigned flow,
                  unsigned flows, std::uint64_t seed);

    // Asked several times per message: a flag, not a long double compare.
    bool paced() const noexcept { return paced_; }
    clock::time_point start() const noexcept { return t0_; }

    // The due time of the next measured message (message position()):
    // unpaced, t0 without the long double arithmetic.
    clock::time_point next_due() const noexcept { return paced_ ? at(next_offset_ns_) : t0_; }
    // That message has been sent or started: the next one becomes due.
    void advance() noexcept;
    std::uint64_t position() const noexcept { return position_; }

    // The due time of message k (from 0), for the fixed processes (uniform
    // and in-step) only: a poisson schedule is known one gap at a time.
    // Long double keeps whole nanoseconds exact for any k a run can reach
    // (k * period < 2^64 ns).
    clock::time_point due(std::uint64_t k) const noexcept {
        return at(phase_ns_ + static_cast<long double>(k) * period_ns_);
    }

  private:
    clock::time_point at(long double offset_ns) const noexcept {
        return t0_ + std::chrono::nanoseconds(static_cast<std::int64_t>(offset_ns));
    }
    // One exponential gap of mean period_ns_, by inversion of a uniform
    // draw: the same seed gives the same gaps with any standard library
    // (std::exponential_distribution's algorithm is the library's choice).
    long double exponential_gap_ns() noexcept;

    clock::time_point t0_;
    long double period_ns_;
    bool paced_ = period_ns_ > 0.0L;
    arrival_process process_;
    long double phase_ns_ = 0.0L;  // uniform: this flow's offset from t0
    // Poisson only, and so only made for it: the engine's state is 2.5 KiB,
    // which every flow of a fixed schedule paid for nothing (25 MiB of the
    // client at 10,000 flows).
    std::unique_ptr<std::mt19937_64> random_;
    std::uint64_t position_ = 0;         // the next message's k
    long double next_offset_ns_ = 0.0L;  // its due time, from t0
};

// The longest gap between two messages of a flow's schedule at
// `rate_per_s` with `process`: 1/R for uniform and in-step,
// poisson_gap_cap/R for poisson; none (0) for rate 0, throughput, which has
// no schedule. With ticks of 1/T (`tick_rate_per_s`, batch_planner.hpp) a
// message may go up to a tick early while the next goes on time, so a tick
// more. In milliseconds rounded up, at least 1 for a schedule, and at most
// UINT32_MAX: the test header's max_gap_ms.
std::uint32_t longest_gap_ms(double rate_per_s, arrival_process process,
                             std::optional<double> tick_rate_per_s = std::nullopt) noexcept;

}  // namespace sctp_perf
