// SPDX-License-Identifier: Apache-2.0
#pragma once
// A load test's worker threads: each drives its share of the flows with one
// non-blocking event loop (epoll) from t0 until every one of them has
// finished (load_engine.hpp says why one loop per group of flows). The main
// thread starts them, lets them all go at once at t0, and joins them; the
// first failure of any worker stops them all and is kept for the main thread
// to throw.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "client/load/interval_collector.hpp"
#include "client/load/load_flow.hpp"

namespace sctp_perf {

// The longest single wait, so that I/O timeouts and an abort are noticed.
inline constexpr auto longest_wait = std::chrono::milliseconds(100);

// What the workers share with the main thread.
struct shared_run {
    std::chrono::steady_clock::time_point t0;
    // t0 + the warm-up: messages due (sent, unpaced) before it are not
    // recorded, and the intervals count from it.
    std::chrono::steady_clock::time_point measure_from;
    std::chrono::steady_clock::time_point stop_at = std::chrono::steady_clock::time_point::max();
    std::optional<std::chrono::nanoseconds> interval;
    bool spin = false;  // the channels spin (--spin): the workers never sleep in epoll
    // --poll-before-sleep: after a pass that sent, a worker looks in epoll
    // without sleeping for this long, so that a reply within it costs no
    // wake-up; 0: it sleeps at once.
    std::chrono::microseconds poll_before_sleep{0};
    interval_collector* collector = nullptr;
    std::atomic<bool> abort{false};

    // The start: each worker registers its flows with epoll and says it is
    // ready; only then does the main thread set t0 and let them go, so that
    // no worker's set-up (5,000 flows take milliseconds) eats into the head
    // start and makes the first messages late.
    std::mutex start_mutex;
    std::condition_variable start_changed;
    unsigned workers_ready = 0;
    bool started = false;  // t0 is set: go (or abort is set: stop)

    void worker_ready();
    void wait_for_workers(unsigned count);
    void start();
    void wait_for_start();

    std::mutex error_mutex;
    std::exception_ptr error;
};

// One worker's whole life: registers `flows` with epoll, says it is ready,
// waits for the start, then sends, reads and records into `sink` until each
// flow has finished or `shared.abort` is set. Never throws: the first
// failure of any worker goes to `shared.error` and sets `shared.abort`.
void run_worker(std::vector<load_flow*> flows, sample_sink& sink, const load_plan& plan,
                shared_run& shared) noexcept;

// The worker threads of one run, joined on every way out of it: a thread
// that cannot start, or an output that fails while the others run, must not
// leave a joinable std::thread behind (its destructor would terminate).
class worker_threads {
  public:
    explicit worker_threads(shared_run& shared) : shared_(shared) {}
    worker_threads(const worker_threads&) = delete;
    worker_threads& operator=(const worker_threads&) = delete;
    ~worker_threads();

    // Throws std::system_error when the thread cannot be made.
    template <typename Body>
    void start(Body body) {
        threads_.emplace_back(std::move(body));
    }
    void join() noexcept;
    // Pins the thread started last to `cpu` (runtime/cpu_affinity.hpp,
    // pin_thread); it throws as that does.
    void pin_last(unsigned cpu);

  private:
    shared_run& shared_;
    std::vector<std::thread> threads_;
};

}  // namespace sctp_perf
