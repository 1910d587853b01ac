// SPDX-License-Identifier: Apache-2.0
#include "runtime/clock_probe.hpp"

#include <time.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <fstream>

namespace sctp_perf {

std::optional<std::string> read_clock_source(const char* clocksource_path) {
    std::ifstream in(clocksource_path);
    std::string line;
    if (!in || !std::getline(in, line) || line.empty()) {
        return std::nullopt;
    }
    return line;
}

clock_info measure_clock() {
    // steady_clock is CLOCK_MONOTONIC on Linux (libstdc++), the clock every
    // round trip is timed with.
    clock_info info;
    info.source = read_clock_source().value_or("");
    timespec resolution{};
    if (::clock_getres(CLOCK_MONOTONIC, &resolution) == 0) {
        info.resolution_ns = resolution.tv_sec * 1'000'000'000L + resolution.tv_nsec;
    }
    constexpr int batch_reads = 256;
    std::array<double, 41> batch_ns{};
    using clock = std::chrono::steady_clock;
    for (auto& cost : batch_ns) {
        const auto started = clock::now();
        for (int i = 0; i < batch_reads; ++i) {
            // The value must be used, or the compiler may drop the read.
            asm volatile("" : : "r"(clock::now().time_since_epoch().count()) : "memory");
        }
        const auto took = clock::now() - started;
        // batch_reads + 1 reads between the two stamps: the loop's and the closing one.
        cost = static_cast<double>(std::chrono::nanoseconds(took).count()) / (batch_reads + 1);
    }
    auto middle = batch_ns.begin() + batch_ns.size() / 2;
    std::nth_element(batch_ns.begin(), middle, batch_ns.end());
    info.read_cost_ns = *middle;
    return info;
}

}  // namespace sctp_perf
