// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the measuring loops (ping-pong, the load engine) tell whoever watches
// a run for faults and paths (client/failure_watch.hpp), beyond the figures
// they record themselves: when the measurement starts and ends, every timed
// reply with the path that carried it, and the end of each interval, whose
// progress line and CSV row the watcher may add to. An interface, so that
// the loops know nothing of what is watched, and each call says on which
// thread it comes.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "report/interval_report.hpp"

namespace sctp_perf {

// One timed reply: when its request's time began (due in rate mode, else
// sent) and when it arrived, both from the start of the measurement, with
// its flow and the path that carried it (the flow's own numbering, see
// sctp_path_watch::path_of; 0 unknown).
struct timed_reply {
    std::int64_t start_ns = 0;
    std::int64_t arrived_ns = 0;
    std::uint32_t flow = 0;
    std::uint16_t path = 0;
};

// The timed replies one thread recorded, up to a bound; those beyond are
// counted. Written by that thread alone, read once it is done.
class reply_timeline {
  public:
    explicit reply_timeline(std::size_t capacity) : capacity_(capacity) {}
    void add(const timed_reply& reply) {
        if (replies_.size() < capacity_) {
            replies_.push_back(reply);
        } else {
            ++dropped_;
        }
    }
    // A reply that arrived `arrived` after the start of the measurement,
    // `latency_ns` after its request's time began.
    void add(std::chrono::nanoseconds arrived, std::uint64_t latency_ns, std::uint32_t flow,
             std::uint16_t path) {
        add({arrived.count() - static_cast<std::int64_t>(latency_ns), arrived.count(), flow, path});
    }
    const std::vector<timed_reply>& replies() const noexcept { return replies_; }
    std::uint64_t dropped() const noexcept { return dropped_; }

  private:
    std::size_t capacity_;
    std::vector<timed_reply> replies_;
    std::uint64_t dropped_ = 0;
};

class run_watch {
  public:
    using clock = std::chrono::steady_clock;
    virtual ~run_watch() = default;

    // The measurement starts at `measure_from`. Called once, by the thread
    // that starts it; never waits.
    virtual void measuring_from(clock::time_point measure_from) = 0;
    // Where worker `worker` of `workers` keeps its timed replies; null: it
    // keeps none. Called before the workers start.
    virtual reply_timeline* timeline(unsigned worker, unsigned workers) = 0;
    // The interval ending at `end` (the thread that writes the intervals):
    // what it adds to the progress line and the CSV row, valid until the
    // next call; null: nothing.
    virtual const interval_paths_sample* interval_ends(clock::time_point end) = 0;
    // The measurement is over; the sockets are still open. Called once.
    virtual void measurement_ended(clock::time_point end) = 0;
    // --reconnect: flow `flow`'s connection ended, and its socket closes
    // once this returns (a worker thread). Its next connection is not
    // watched: what is watched is each flow's first.
    virtual void connection_ended(unsigned flow) = 0;
};

}  // namespace sctp_perf
