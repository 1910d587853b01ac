// SPDX-License-Identifier: Apache-2.0
#pragma once
// One of the server's worker threads: an epoll loop over many sessions.
//
// Why epoll directly rather than an Asio io_context per thread: a session
// (server/session.hpp) already does its own non-blocking I/O through the
// same message channels the client's load engine drives with epoll, and
// each wake-up must cost as little as possible, since it lies inside the
// round trip being measured: one epoll_wait, one clock read, the receive
// and the send, with no handler allocation or queue in between.
//
// Sessions come in from the listener's thread through an inbox and an
// eventfd. Each session's deadline is kept without a timer per session:
// the loop sleeps until the earliest deadline it knows of, and only then
// looks at every session (a deadline only moves later as a session makes
// progress, so the look is rare: about once per I/O timeout). With spin
// (--spin) the loop never sleeps: it polls epoll without a timeout, a whole
// CPU per worker, and yields the CPU now and then for an end that shares it.
// With a bounded poll (--poll-before-sleep) it looks without sleeping for
// that long after each pass that found something, then sleeps as without.
//
// A worker with one session, which waits only to read, waits in that
// session's own receive instead of in epoll_wait, as a blocking server does:
// one system call per request where epoll takes two, about 1 us of a round
// trip on the machine of bench/README.md, which a ping-pong would measure.
// In plain ping-pong the session keeps the thread from one request to the
// next (session::advance), so that the loop's own turn, a few hundred
// instructions, is not inside every round trip either.
// A new session or a stop interrupts that wait with a signal (the socket's
// receive timeout makes the receive return EINTR, SA_RESTART or not).
// The wait is used only while the session's deadline is about a receive
// timeout away, so it can overshoot a deadline by no more than
// direct_wait_slack.

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/session.hpp"
#include "transport/epoll_set.hpp"
#include "transport/unique_fd.hpp"

namespace sctp_perf {

class event_worker {
  public:
    // `ended` is called on this worker's thread for each session that has
    // ended, after its log line, with its socket closed; it must not block.
    event_worker(const server_identity& identity, std::function<void()> ended);
    ~event_worker();
    event_worker(const event_worker&) = delete;
    event_worker& operator=(const event_worker&) = delete;

    // Starts the thread. Throws std::system_error.
    void start();
    // Pins the started thread to `cpu` (runtime/cpu_affinity.hpp,
    // pin_thread); throws std::runtime_error as that does.
    void pin(unsigned cpu);
    // Hands a session to this worker; from any thread.
    void add(std::unique_ptr<session> s);
    // Sessions it serves or has been handed, for the choice of a worker.
    std::size_t load() const noexcept { return load_; }
    // Ends the loop and joins the thread; the sessions still open are
    // closed without their log line. Safe to call more than once.
    void stop() noexcept;

    // What add() and stop() send the thread to end its wait in a session's
    // receive; start() gives it a handler that does nothing. A process with
    // workers leaves this signal to them.
    static constexpr int wake_signal = SIGUSR1;

  private:
    using clock = std::chrono::steady_clock;
    struct entry {
        std::unique_ptr<session> s;
        bool reading = false;  // as registered with epoll
        bool writing = false;
    };

    void run();
    // How long epoll may sleep without spinning: until the next deadline,
    // in whole milliseconds rounded up, and never past longest_sleep.
    std::chrono::milliseconds sleep_before_next_check() const;
    // The one session that may wait in its own receive now (or, spinning,
    // be polled directly), or null.
    entry* lone_reader(clock::time_point now);
    // Returns the time it last read. A ping-pong session's socket leaves the
    // epoll set for the wait (see wait_in).
    clock::time_point wait_in(entry& e, clock::time_point now);
    // Puts a socket taken out for a wait back into the epoll set with the
    // interest it had; false when the kernel refuses, and the session has
    // then been dropped.
    bool watch_again(entry& e);
    // Closes a session the loop cannot watch, logging why; its end is
    // reported (`ended`) as any session's.
    void drop(entry& e, const std::string& why);
    // Spinning: one non-blocking look at the lone session. Returns the time
    // it read.
    clock::time_point poll_in(entry& e, unsigned& polls);
    void settle(entry& e);
    // Ends a wait in a session's receive, for a new session or a stop: until
    // the worker has left it, or taken the inbox (a wait begun since is on
    // a session it has, and goes on).
    void interrupt_direct_wait() noexcept;
    void take_inbox(clock::time_point now);
    void drive(entry& e, clock::time_point now);
    void check_deadlines(clock::time_point now);
    void update_interest(entry& e);
    void end(entry& e);

    const server_identity& identity_;
    std::function<void()> ended_;
    epoll_set epoll_;
    unique_fd wake_;  // eventfd: the inbox has sessions, or stop
    std::thread thread_;
    std::atomic<bool> stopping_{false};
    std::atomic<std::size_t> load_{0};
    std::atomic<std::size_t> inbox_count_{0};  // sessions in the inbox
    std::atomic<bool> in_direct_wait_{false};  // waits in a session's receive
    // When a wait in a session's receive must end: a session handed in, or a
    // stop. The wait checks it, and add() and stop() signal only while it holds.
    const session::thread_recall recall_{inbox_count_, stopping_};

    std::mutex inbox_mutex_;
    std::vector<std::unique_ptr<session>> inbox_;

    // Owned here, by the worker's thread only; epoll carries a pointer to
    // each entry, so entries never move (a list of unique_ptrs).
    std::vector<std::unique_ptr<entry>> entries_;
    clock::time_point next_check_ = clock::time_point::max();
    std::vector<std::byte> scratch_;  // lent to every session's advance()
};

}  // namespace sctp_perf
