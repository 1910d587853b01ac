// SPDX-License-Identifier: Apache-2.0
#pragma once
// The --at commands of a run: each started at its instant of the measured
// run by a thread of its own, so that neither the wait nor the fork and exec
// falls on the thread that measures; each in a process group of its own,
// its output to a file, its end awaited, and killed with its whole group
// once it has run --at-timeout. A command never ends the run: what it did
// is reported.
//
// Concepts:
//  - a command's instant: --at's seconds from the start of the measured run
//    (after the primer and any warm-up), on the steady clock;
//  - its start: when the spawn returned, which is when its shell began (a
//    fork and exec after the instant: the report gives both);
//  - its duration: from its start to its end as the kernel reported it.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "options/fault_options.hpp"

namespace sctp_perf {

// What became of one --at command.
struct fault_outcome {
    unsigned index = 0;              // its place on the command line, from 1
    std::chrono::nanoseconds at{0};  // the instant asked for
    std::string command;
    std::string output_file;
    bool started = false;
    // When it started, from the start of the measured run, and on the wall clock.
    std::chrono::nanoseconds started_at{0};
    std::chrono::system_clock::time_point started_wall{};
    std::optional<std::chrono::nanoseconds> took;  // unset while it runs
    std::optional<int> exit_status;                // it exited
    std::optional<int> signal;                     // a signal ended it
    bool timed_out = false;                        // killed at --at-timeout
    // Why it did not start: not reached (the run ended first) or the
    // spawn's error; empty once started.
    std::string not_started;
};

class fault_schedule {
  public:
    using clock = std::chrono::steady_clock;

    // `program`: the file name's prefix (PROGRAM-at-K.log).
    fault_schedule(const fault_request& request, std::string program);
    ~fault_schedule();
    fault_schedule(const fault_schedule&) = delete;
    fault_schedule& operator=(const fault_schedule&) = delete;

    // Starts the commands' clock: command k is due at t0 + its instant.
    // `before_each` runs on the schedule's thread as a command is due, just
    // before it starts (to read the paths at the fault's instant). Never
    // waits.
    void start(clock::time_point t0, std::function<void(unsigned index)> before_each = {});

    // The measured run is over: the commands not yet started never will be.
    // Never waits.
    void stop_starting();

    // Then: those running are awaited, each up to its bound. Returns every
    // command's outcome, in command-line order.
    std::vector<fault_outcome> finish();

  private:
    void run();
    // Starts command `k` (index into outcomes_) and returns its pid, or -1.
    int spawn(std::size_t k);
    // Reaps the commands that ended, and kills those past their bound.
    void reap(clock::time_point now);

    std::chrono::milliseconds timeout_;
    std::vector<fault_outcome> outcomes_;
    std::vector<std::size_t> order_;  // indices into outcomes_, by instant

    std::mutex mutex_;
    std::condition_variable changed_;
    std::optional<clock::time_point> t0_;
    bool ending_ = false;  // finish() was called
    std::function<void(unsigned)> before_each_;

    struct running_command {
        std::size_t k = 0;
        int pid = -1;
        int pidfd = -1;  // -1 where the kernel has no pidfd_open
        clock::time_point started;
        bool killed = false;
    };
    std::vector<running_command> running_;
    std::thread thread_;
};

}  // namespace sctp_perf
