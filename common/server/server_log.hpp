#pragma once
// Server log lines on stderr, "(pid|tid) message", as ACE printed them, so the
// walk-through in the manual reads the same. Lines from concurrent sessions
// never interleave.

#include <fmt/format.h>

#include <string_view>

namespace sctp_perf {

void log_line(std::string_view message);

template <typename... Args>
void log_format(fmt::format_string<Args...> format, Args&&... args) {
    log_line(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace sctp_perf
