// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the clock that times the round trips can resolve, measured at start,
// so that a report says how small a difference it can show: the kernel's
// clock source, the resolution clock_getres() states, and what one read of
// the clock costs. Every round trip is timed by two reads, so a difference
// much below the read cost is noise.
//
// Measured here, in runtime/, and handed to report/ as a value: the reports
// format a clock_info and never read /sys or the clock themselves.

#include <optional>
#include <string>

namespace sctp_perf {

struct clock_info {
    std::string source;         // e.g. "tsc"; empty when /sys does not say
    long resolution_ns = 0;     // clock_getres(CLOCK_MONOTONIC)
    double read_cost_ns = 0.0;  // median cost of one std::chrono::steady_clock::now()
};

// Takes about a millisecond: many batches of back-to-back reads, the median
// batch divided by its size, so that a preemption during one batch does not
// move the figure.
clock_info measure_clock();

// The clock source named in `clocksource_path`'s first line; nullopt when it
// cannot be read. The path is a parameter for tests.
std::optional<std::string> read_clock_source(
    const char* clocksource_path =
        "/sys/devices/system/clocksource/clocksource0/current_clocksource");

}  // namespace sctp_perf
