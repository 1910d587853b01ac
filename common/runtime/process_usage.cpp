// SPDX-License-Identifier: Apache-2.0
#include "runtime/process_usage.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace sctp_perf {
namespace {

double seconds_of(const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

// The second field of /proc/self/statm is the resident set in pages. Usage is
// a side note to the measurement, so an unreadable file gives 0 rather than
// ending a run.
std::uint64_t read_rss_kib() {
    std::FILE* statm = std::fopen("/proc/self/statm", "re");
    if (statm == nullptr) {
        return 0;
    }
    unsigned long long size_pages = 0;
    unsigned long long resident_pages = 0;
    const int fields = std::fscanf(statm, "%llu %llu", &size_pages, &resident_pages);
    std::fclose(statm);
    const long page_bytes = ::sysconf(_SC_PAGESIZE);
    if (fields != 2 || page_bytes <= 0) {
        return 0;
    }
    return resident_pages * static_cast<std::uint64_t>(page_bytes) / 1024;
}

process_usage read_usage(int who) {
    process_usage usage;
    usage.at = std::chrono::steady_clock::now();
    rusage times{};
    // getrusage fails only for a bad `who`, which the two callers never pass.
    if (::getrusage(who, &times) == 0) {
        usage.cpu_user_s = seconds_of(times.ru_utime);
        usage.cpu_system_s = seconds_of(times.ru_stime);
    }
    usage.rss_kib = read_rss_kib();
    return usage;
}

}  // namespace

process_usage read_process_usage() {
    return read_usage(RUSAGE_SELF);
}

process_usage read_thread_usage() {
    return read_usage(RUSAGE_THREAD);
}

double cpu_percent_between(const process_usage& earlier, const process_usage& later) {
    const double wall_s = std::chrono::duration<double>(later.at - earlier.at).count();
    if (wall_s <= 0) {
        return 0;
    }
    const double cpu_s =
        (later.cpu_user_s - earlier.cpu_user_s) + (later.cpu_system_s - earlier.cpu_system_s);
    return 100.0 * cpu_s / wall_s;
}

void rss_tracker::add(std::uint64_t rss_kib) {
    min_kib_ = std::min(min_kib_, rss_kib);
    max_kib_ = std::max(max_kib_, rss_kib);
    sum_kib_ += rss_kib;
    ++count_;
}

void rss_tracker::merge(const rss_tracker& other) {
    min_kib_ = std::min(min_kib_, other.min_kib_);
    max_kib_ = std::max(max_kib_, other.max_kib_);
    sum_kib_ += other.sum_kib_;
    count_ += other.count_;
}

double rss_tracker::avg_kib() const {
    return count_ == 0 ? 0 : static_cast<double>(sum_kib_) / static_cast<double>(count_);
}

}  // namespace sctp_perf
