// SPDX-License-Identifier: Apache-2.0
#include "runtime/clock_relation.hpp"

#include <time.h>

#include <fstream>
#include <limits>

namespace sctp_perf {
namespace {

std::int64_t read_ns(clockid_t id) noexcept {
    timespec ts{};
    ::clock_gettime(id, &ts);
    return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

std::optional<std::string> read_boot_id(const char* boot_id_path) {
    std::ifstream in(boot_id_path);
    std::string id;
    if (!in || !std::getline(in, id) || id.empty()) {
        return std::nullopt;
    }
    return id;
}

std::int64_t realtime_minus_monotonic_ns() noexcept {
    std::int64_t best_bracket = std::numeric_limits<std::int64_t>::max();
    std::int64_t best = 0;
    for (int attempt = 0; attempt < 5; ++attempt) {
        const auto before = read_ns(CLOCK_MONOTONIC);
        const auto realtime = read_ns(CLOCK_REALTIME);
        const auto after = read_ns(CLOCK_MONOTONIC);
        if (after - before < best_bracket) {
            best_bracket = after - before;
            best = realtime - (before + (after - before) / 2);
        }
    }
    return best;
}

std::int64_t monotonic_now_ns() noexcept {
    return read_ns(CLOCK_MONOTONIC);
}

}  // namespace sctp_perf
