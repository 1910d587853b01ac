// SPDX-License-Identifier: Apache-2.0
#include "server/event_worker.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <thread>

#include "runtime/cpu_affinity.hpp"
#include "server/server_log.hpp"
#include "server/spin_yield.hpp"
#include "transport/poll_before_sleep.hpp"

namespace sctp_perf {
namespace {

// Events taken per epoll_wait: more wait for the next call, which comes at
// once.
constexpr int events_per_wait = 256;

// The longest sleep with no deadline in sight: a session added meanwhile
// wakes the loop through the eventfd anyway, so this only bounds how long
// a clock that jumped could mislead it.
constexpr auto longest_sleep = std::chrono::seconds(60);

std::system_error system_error_of(const char* what) {
    return {errno, std::generic_category(), what};
}

// How far a wait in a session's receive may run past the session's
// deadline: the receive timeout is the I/O timeout, counted from the
// wait's start rather than from the session's last progress.
constexpr auto direct_wait_slack = std::chrono::milliseconds(100);

// Each retry of the signal after this long: one sent just before the
// worker enters its receive is lost, and the next one ends the wait.
constexpr auto wake_retry = std::chrono::microseconds(50);
// At least 0.2 s in all; with the timer slack every sleep has (50 us by
// default), and the signal, about 0.45 s.
constexpr int wake_attempts = 4000;

extern "C" void on_wake_signal(int) {}

void install_wake_signal() {
    static const bool installed = [] {
        struct sigaction action {};
        action.sa_handler = on_wake_signal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;  // other calls go on; a timed receive does not
        return ::sigaction(event_worker::wake_signal, &action, nullptr) == 0;
    }();
    if (!installed) {
        throw system_error_of("sigaction failed");
    }
}

}  // namespace

event_worker::event_worker(const server_identity& identity, std::function<void()> ended)
    : identity_(identity),
      ended_(std::move(ended)),
      wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      scratch_(session::scratch_bytes) {
    if (!wake_) {
        throw system_error_of("eventfd failed");
    }
    epoll_.add(wake_.get(), EPOLLIN, {.ptr = nullptr});  // every session has its entry here
}

event_worker::~event_worker() {
    stop();
}

void event_worker::start() {
    install_wake_signal();
    thread_ = std::thread([this] { run(); });
}

void event_worker::pin(unsigned cpu) {
    pin_thread(thread_.native_handle(), cpu);
}

void event_worker::interrupt_direct_wait() noexcept {
    // Only while the recall the wait checks is due: once the worker has
    // taken the inbox, a wait is on a session it has, perhaps the one just
    // handed in, and signals would only cut it short again and again while
    // holding up the caller (the listener's thread, which accepts nothing
    // meanwhile) for all the attempts.
    for (int attempt = 0; attempt < wake_attempts && in_direct_wait_ && recall_.due(); ++attempt) {
        ::pthread_kill(thread_.native_handle(), wake_signal);
        std::this_thread::sleep_for(wake_retry);
    }
}

void event_worker::add(std::unique_ptr<session> s) {
    ++load_;
    {
        const std::lock_guard lock(inbox_mutex_);
        inbox_.push_back(std::move(s));
    }
    ++inbox_count_;
    const std::uint64_t one = 1;
    // A full counter (never, at 2^64 - 2) or a closed eventfd (stopping)
    // leaves the session to be closed with the others.
    [[maybe_unused]] const auto written = ::write(wake_.get(), &one, sizeof one);
    interrupt_direct_wait();
}

void event_worker::stop() noexcept {
    stopping_ = true;
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(wake_.get(), &one, sizeof one);
    if (thread_.joinable()) {
        interrupt_direct_wait();
        thread_.join();
    }
}

void event_worker::run() {
    std::vector<epoll_event> events(events_per_wait);
    unsigned empty_polls = 0;
    try {
        // The time last read: a lone session's wait reads it when it ends,
        // so a round trip reads the clock once.
        auto seen = clock::now();
        // With --poll-before-sleep: until when the loop looks without
        // sleeping, a bound from the last pass that found something.
        auto poll_until = clock::time_point::min();
        while (!stopping_) {
            if (auto* lone = lone_reader(seen)) {
                seen = identity_.spin ? poll_in(*lone, empty_polls) : wait_in(*lone, seen);
                continue;
            }
            const bool look_only = identity_.spin || seen < poll_until;
            const auto n = epoll_.wait(
                events, look_only ? std::chrono::milliseconds(0) : sleep_before_next_check());
            if (identity_.spin && n == 0 && ++empty_polls % spin_polls_per_yield == 0) {
                ::sched_yield();
            } else if (!identity_.spin && look_only && n == 0) {
                yield_to_peer();  // a bounded poll yields after every empty look
            }
            const auto now = clock::now();
            seen = now;
            if (n > 0) {
                poll_until = now + identity_.poll_before_sleep;
            }
            for (std::size_t i = 0; i < n; ++i) {
                auto* e = static_cast<entry*>(events[i].data.ptr);
                if (e == nullptr) {
                    take_inbox(now);
                } else if (e->s) {
                    drive(*e, now);
                }
            }
            if (now >= next_check_) {
                check_deadlines(now);
            }
            std::erase_if(entries_, [](const auto& e) { return !e->s; });
        }
    } catch (const std::exception& e) {
        // Nothing a peer does gets here; a kernel that refuses epoll does.
        log_error("a worker thread stopped: {}; its {} sessions are closed", e.what(),
                  entries_.size());
    }
    for (auto& e : entries_) {
        if (e->s) {
            e->s.reset();
            --load_;
        }
    }
    entries_.clear();
}

std::chrono::milliseconds event_worker::sleep_before_next_check() const {
    if (next_check_ == clock::time_point::max()) {
        return std::chrono::duration_cast<std::chrono::milliseconds>(longest_sleep);
    }
    // Rounded up: a wake-up a little early would find nothing due and sleep again.
    const auto sleep = std::chrono::ceil<std::chrono::milliseconds>(
        std::max(next_check_ - clock::now(), clock::duration::zero()));
    return std::min<std::chrono::milliseconds>(sleep, longest_sleep);
}

event_worker::entry* event_worker::lone_reader(clock::time_point now) {
    if (entries_.size() != 1 || inbox_count_ != 0) {
        return nullptr;
    }
    auto& e = *entries_.front();
    if (!e.s || !e.s->wants_to_read() || e.s->wants_to_write()) {
        return nullptr;
    }
    // A blocking wait is bounded by the receive timeout, not the session's
    // deadline; a spinning look checks the deadline itself.
    if (!identity_.spin && e.s->deadline() < now + identity_.io_timeout - direct_wait_slack) {
        return nullptr;
    }
    return &e;
}

event_worker::clock::time_point event_worker::wait_in(entry& e, clock::time_point now) {
    in_direct_wait_ = true;
    // After the flag is up, so that a session handed in meanwhile is seen
    // here or interrupts the wait (both sides read the other's flag after
    // setting their own).
    if (!recall_.due()) {
        // A ping-pong session serves request after request in this wait: its
        // socket leaves the epoll set meanwhile, so that each arrival wakes
        // only this thread's receive and not the set's callback too (1 % of
        // a round trip with both ends on one CPU). Two calls a wait: worth
        // it only for a wait that serves more than one read.
        const bool unwatched = e.s->serves_request_after_request();
        if (unwatched) {
            epoll_.remove(e.s->native_handle());
        }
        now = e.s->advance(now, scratch_, &recall_);
        if (unwatched && !e.s->done() && !watch_again(e)) {
            in_direct_wait_ = false;
            std::erase_if(entries_, [](const auto& x) { return !x->s; });
            return now;
        }
    }
    in_direct_wait_ = false;
    settle(e);
    if (inbox_count_ != 0) {
        now = clock::now();
        take_inbox(now);
    }
    return now;
}

bool event_worker::watch_again(entry& e) {
    try {
        epoll_.add(e.s->native_handle(), (e.reading ? EPOLLIN : 0u) | (e.writing ? EPOLLOUT : 0u),
                   {.ptr = &e});
        return true;
    } catch (const std::system_error& failure) {
        drop(e, fmt::format("cannot watch its socket again ({})", failure.code().message()));
        return false;
    }
}

void event_worker::drop(entry& e, const std::string& why) {
    log_error("client {}: {}; closing", e.s->client(), why);
    e.s.reset();
    --load_;
    if (ended_) {
        ended_();  // its slot is free, as for a session that ended
    }
}

// One receive per look, as the bare spinning floor makes, where an
// epoll_wait that finds the socket ready and then the receive would be two
// system calls. The clock is read at every look so that what came is timed
// when it came; a new session or a stop is seen at the next turn of run().
event_worker::clock::time_point event_worker::poll_in(entry& e, unsigned& polls) {
    const auto now = clock::now();
    e.s->advance(now, scratch_);
    settle(e);
    if (++polls % spin_polls_per_yield == 0) {
        ::sched_yield();
    }
    return now;
}

// After a session's turn outside drive(): ends it, or keeps its epoll
// interest and deadline current for when it is no longer alone.
void event_worker::settle(entry& e) {
    if (e.s->done()) {
        end(e);
        std::erase_if(entries_, [](const auto& x) { return !x->s; });
    } else {
        update_interest(e);
        next_check_ = std::min(next_check_, e.s->deadline());
    }
}

void event_worker::take_inbox(clock::time_point now) {
    std::uint64_t count = 0;
    [[maybe_unused]] const auto read = ::read(wake_.get(), &count, sizeof count);
    inbox_count_ = 0;
    std::vector<std::unique_ptr<session>> arrived;
    {
        const std::lock_guard lock(inbox_mutex_);
        arrived.swap(inbox_);
    }
    for (auto& s : arrived) {
        auto& e = *entries_.emplace_back(std::make_unique<entry>());
        e.s = std::move(s);
        try {
            epoll_.add(e.s->native_handle(), 0, {.ptr = &e});
        } catch (const std::system_error& failure) {
            drop(e, fmt::format("cannot watch its socket ({})", failure.code().message()));
            continue;
        }
        drive(e, now);  // a header may be waiting already
    }
}

void event_worker::drive(entry& e, clock::time_point now) {
    e.s->advance(now, scratch_);
    if (e.s->done()) {
        end(e);
        return;
    }
    update_interest(e);
    next_check_ = std::min(next_check_, e.s->deadline());
}

void event_worker::check_deadlines(clock::time_point now) {
    next_check_ = clock::time_point::max();
    for (auto& e : entries_) {
        if (!e->s) {
            continue;
        }
        if (now >= e->s->deadline()) {
            e->s->advance(now, scratch_);
            if (e->s->done()) {
                end(*e);
                continue;
            }
            update_interest(*e);
        }
        next_check_ = std::min(next_check_, e->s->deadline());
    }
}

void event_worker::update_interest(entry& e) {
    const bool reading = e.s->wants_to_read();
    const bool writing = e.s->wants_to_write();
    if (reading == e.reading && writing == e.writing) {
        return;
    }
    epoll_.modify(e.s->native_handle(), (reading ? EPOLLIN : 0u) | (writing ? EPOLLOUT : 0u),
                  {.ptr = &e});
    e.reading = reading;
    e.writing = writing;
}

void event_worker::end(entry& e) {
    log_session_end(*e.s);
    // Closing the socket removes it from the epoll set.
    e.s.reset();
    --load_;
    if (ended_) {
        ended_();
    }
}

}  // namespace sctp_perf
