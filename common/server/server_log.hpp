// SPDX-License-Identifier: Apache-2.0
#pragma once
// Server log lines on stderr, "TIME (pid|tid) message": TIME is UTC in ISO
// 8601 with milliseconds (2026-11-22T16:20:05.123Z); the rest is as ACE
// printed it, so the walk-through in the manual reads the same and scripts
// that look for "starting server at port P" still find it. Lines from
// concurrent sessions never interleave.
//
// Levels: `info` is progress (clients, tests, the idle line) and --quiet
// drops it; `error` is something that failed (a session ended early, a
// refused client, the listener); `always` is a line callers depend on even
// with --quiet: the port the server listens on.

#include <fmt/format.h>

#include <chrono>
#include <string>
#include <string_view>

namespace sctp_perf {

enum class log_level { info, error, always };

// With `quiet`, only `error` and `always` lines are written. The log is as
// process-wide as stderr: set this once, before any session thread starts.
void set_log_quiet(bool quiet) noexcept;

// One whole line, newline included, as log_line writes it.
std::string format_log_line(std::chrono::system_clock::time_point when, long pid, long tid,
                            std::string_view message);

void log_line(log_level level, std::string_view message);

template <typename... Args>
void log_info(fmt::format_string<Args...> format, Args&&... args) {
    log_line(log_level::info, fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void log_error(fmt::format_string<Args...> format, Args&&... args) {
    log_line(log_level::error, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace sctp_perf
