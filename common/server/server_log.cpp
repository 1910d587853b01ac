// SPDX-License-Identifier: Apache-2.0
#include "server/server_log.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace sctp_perf {
namespace {

std::atomic<bool> quiet_log{false};

}  // namespace

void set_log_quiet(bool quiet) noexcept {
    quiet_log = quiet;
}

std::string format_log_line(std::chrono::system_clock::time_point when, long pid, long tid,
                            std::string_view message) {
    using namespace std::chrono;
    const auto ms = floor<milliseconds>(when.time_since_epoch());
    const auto s = floor<seconds>(ms);
    const std::time_t t = s.count();
    std::tm utc{};
    ::gmtime_r(&t, &utc);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z ({}|{}) {}\n",
                       utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min,
                       utc.tm_sec, (ms - s).count(), pid, tid, message);
}

void log_line(log_level level, std::string_view message) {
    if (level == log_level::info && quiet_log) {
        return;
    }
    static std::mutex mutex;
    const long pid = ::getpid();
    const long tid = ::syscall(SYS_gettid);
    // The clock is read under the lock, so the times in the log never go
    // backwards from one line to the next.
    const std::lock_guard lock(mutex);
    const auto line = format_log_line(std::chrono::system_clock::now(), pid, tid, message);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

}  // namespace sctp_perf
