// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the client itself costs the machine it measures from.
//
// A client that saturates its CPU measures its own queueing, not the network,
// so every interval reports the client's CPU time and resident memory next to
// its latencies. A reading is a snapshot; CPU use is the difference of two
// readings over the wall time between them.
//
// The readings (getrusage, /proc/self/statm) are taken here, in runtime/;
// report/ only formats the values, and the server's end-of-test account uses
// the same readings.

#include <chrono>
#include <cstdint>

namespace sctp_perf {

// One reading of CPU time consumed so far and of resident memory now.
struct process_usage {
    std::chrono::steady_clock::time_point at;  // when the reading was taken
    double cpu_user_s = 0;                     // getrusage: user CPU since the start
    double cpu_system_s = 0;                   // getrusage: kernel CPU since the start
    std::uint64_t rss_kib = 0;  // resident set now, /proc/self/statm; 0 if unreadable
};

// CPU time of the whole process (RUSAGE_SELF: every thread, living or joined).
process_usage read_process_usage();
// CPU time of the calling thread only (RUSAGE_THREAD); rss is still process-wide,
// as threads share one address space.
process_usage read_thread_usage();

// (user + system) CPU time between two readings as a percentage of one CPU, so
// a process keeping two CPUs busy reads 200. 0 when no wall time passed.
double cpu_percent_between(const process_usage& earlier, const process_usage& later);

// Minimum, mean and maximum of a series of RSS readings; every accessor gives 0
// before the first reading.
class rss_tracker {
  public:
    void add(std::uint64_t rss_kib);
    // Adds every reading of `other`, as if each had been added here.
    void merge(const rss_tracker& other);
    std::uint64_t min_kib() const { return count_ == 0 ? 0 : min_kib_; }
    double avg_kib() const;
    std::uint64_t max_kib() const { return max_kib_; }
    std::uint64_t count() const { return count_; }

  private:
    std::uint64_t min_kib_ = UINT64_MAX;
    std::uint64_t max_kib_ = 0;
    std::uint64_t sum_kib_ = 0;  // 2^64 KiB is far beyond any series of readings
    std::uint64_t count_ = 0;
};

}  // namespace sctp_perf
