// SPDX-License-Identifier: Apache-2.0
#include "client/load/send_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sctp_perf {
namespace {

// Spreads flow numbers over the generator's seed space, so that flows
// 0, 1, 2 of one seed do not start from neighbouring states (SplitMix64's
// finaliser).
std::uint64_t mix(std::uint64_t x) noexcept {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

send_schedule::send_schedule(clock::time_point t0, double rate_per_s, arrival_process process,
                             unsigned flow, unsigned flows, std::uint64_t seed)
    : t0_(t0),
      period_ns_(rate_per_s > 0.0 ? 1e9L / static_cast<long double>(rate_per_s) : 0.0L),
      process_(process) {
    if (!paced()) {
        return;  // throughput: every message due at t0, whatever the process
    }
    if (process_ == arrival_process::poisson) {
        random_ = std::make_unique<std::mt19937_64>(mix(seed ^ mix(flow)));
    }
    switch (process_) {
        case arrival_process::uniform:
            phase_ns_ = period_ns_ * static_cast<long double>(flow) /
                        static_cast<long double>(flows == 0 ? 1 : flows);
            next_offset_ns_ = phase_ns_;
            break;
        case arrival_process::poisson:
            next_offset_ns_ = exponential_gap_ns();  // a Poisson process starts at t0
            break;
        case arrival_process::in_step:
            break;
    }
}

void send_schedule::advance() noexcept {
    ++position_;
    if (!paced()) {
        return;
    }
    next_offset_ns_ = process_ == arrival_process::poisson
                          ? next_offset_ns_ + exponential_gap_ns()
                          : phase_ns_ + static_cast<long double>(position_) * period_ns_;
}

long double send_schedule::exponential_gap_ns() noexcept {
    // u in [0, 1) from the top 53 bits; 1 - u is in (0, 1], so the log is
    // finite: at most 53 ln 2, about 36.7 mean gaps, before the cap.
    const long double u = static_cast<long double>((*random_)() >> 11) * 0x1.0p-53L;
    return std::min(-std::log1p(-u), poisson_gap_cap) * period_ns_;
}

std::uint32_t longest_gap_ms(double rate_per_s, arrival_process process,
                             std::optional<double> tick_rate_per_s) noexcept {
    if (!(rate_per_s > 0.0)) {
        return 0;
    }
    const long double periods =
        process == arrival_process::poisson ? send_schedule::poisson_gap_cap : 1.0L;
    const long double tick_ms =
        tick_rate_per_s ? 1e3L / static_cast<long double>(*tick_rate_per_s) : 0.0L;
    const long double ms =
        std::ceil(periods * 1e3L / static_cast<long double>(rate_per_s) + tick_ms);
    constexpr auto most = std::numeric_limits<std::uint32_t>::max();
    return ms >= static_cast<long double>(most)
               ? most
               : std::max<std::uint32_t>(1, static_cast<std::uint32_t>(ms));
}

}  // namespace sctp_perf
