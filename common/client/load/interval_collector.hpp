// SPDX-License-Identifier: Apache-2.0
#pragma once
// Gathers each interval's figures from the workers, for the main thread to
// report once every worker has handed in its part.
//
// Interval i covers [t0 + i * length, t0 + (i + 1) * length). A worker hands
// in its part when it passes the interval's end, and its last, shorter part
// when its flows are done; it is then counted as present, with nothing, in
// every later interval.
//
// A worker that fails mid-run hands in its last part at once, for whatever
// interval it was in. A part for an interval the main thread has already
// taken counts towards the oldest one not yet taken, so that no part waits
// for a reader that has moved on and every run drains.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "client/load/load_flow.hpp"

namespace sctp_perf {

struct interval_slot {
    std::chrono::steady_clock::time_point end{};  // the latest end handed in
    std::uint64_t sent = 0;
    std::uint64_t replies = 0;
    log_linear_histogram corrected;
    log_linear_histogram uncorrected;
    unsigned parts = 0;
};

class interval_collector {
  public:
    explicit interval_collector(unsigned workers) : workers_(workers) {}

    // Adds the interval part of `sink` to interval `index` (see the top of
    // this file for one already taken) and clears it there.
    void hand_in(std::uint64_t index, std::chrono::steady_clock::time_point end, sample_sink& sink);
    // The same for the worker's last part: it is then done, and present with
    // nothing in every later interval.
    void hand_in_last(std::uint64_t index, std::chrono::steady_clock::time_point end,
                      sample_sink& sink);

    // The next interval once complete, waiting up to `wait`; nullptr if it
    // is not complete by then or every interval has been taken.
    std::unique_ptr<interval_slot> next(std::chrono::milliseconds wait);
    // Every worker is done and every interval has been taken.
    bool drained();

  private:
    // Under the lock; returns the interval the part went to.
    std::uint64_t add_part(std::uint64_t index, std::chrono::steady_clock::time_point end,
                           sample_sink& sink);
    bool complete(std::uint64_t index) const;

    std::mutex mutex_;
    std::condition_variable changed_;
    unsigned workers_;
    std::map<std::uint64_t, std::unique_ptr<interval_slot>> slots_;
    std::vector<std::uint64_t> last_indices_;  // of the workers that are done
    std::uint64_t next_ = 0;
};

}  // namespace sctp_perf
