#include "server/event_worker.hpp"

#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "server/server_log.hpp"

namespace sctp_perf {
namespace {

// Events taken per epoll_wait: more wait for the next call, which comes at
// once.
constexpr int events_per_wait = 256;

// Spinning, empty polls between two yields of the CPU (as spin_wait does:
// with both ends on one CPU, a spinner would otherwise keep the other end
// from running for the rest of its time slice).
constexpr unsigned polls_per_yield = 1024;

// The longest sleep with no deadline in sight: a session added meanwhile
// wakes the loop through the eventfd anyway, so this only bounds how long
// a clock that jumped could mislead it.
constexpr auto longest_sleep = std::chrono::seconds(60);

std::system_error system_error_of(const char* what) {
    return {errno, std::generic_category(), what};
}

}  // namespace

event_worker::event_worker(const server_identity& identity, std::function<void()> ended)
    : identity_(identity),
      ended_(std::move(ended)),
      epoll_(::epoll_create1(EPOLL_CLOEXEC)),
      wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      scratch_(session::scratch_bytes) {
    if (!epoll_) {
        throw system_error_of("epoll_create1 failed");
    }
    if (!wake_) {
        throw system_error_of("eventfd failed");
    }
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.ptr = nullptr;  // the eventfd; every session has its entry here
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, wake_.get(), &event) != 0) {
        throw system_error_of("epoll_ctl failed");
    }
}

event_worker::~event_worker() {
    stop();
}

void event_worker::start() {
    thread_ = std::thread([this] { run(); });
}

void event_worker::add(std::unique_ptr<session> s) {
    ++load_;
    {
        const std::lock_guard lock(inbox_mutex_);
        inbox_.push_back(std::move(s));
    }
    const std::uint64_t one = 1;
    // A full counter (never, at 2^64 - 2) or a closed eventfd (stopping)
    // leaves the session to be closed with the others.
    [[maybe_unused]] const auto written = ::write(wake_.get(), &one, sizeof one);
}

void event_worker::stop() noexcept {
    stopping_ = true;
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(wake_.get(), &one, sizeof one);
    if (thread_.joinable()) {
        thread_.join();
    }
}

void event_worker::run() {
    std::vector<epoll_event> events(events_per_wait);
    unsigned empty_polls = 0;
    try {
        while (!stopping_) {
            auto timeout_ms = 0;
            if (!identity_.spin) {
                const auto now = clock::now();
                const auto sleep =
                    next_check_ == clock::time_point::max()
                        ? std::chrono::duration_cast<std::chrono::milliseconds>(longest_sleep)
                        : std::chrono::ceil<std::chrono::milliseconds>(
                              std::max(next_check_ - now, clock::duration::zero()));
                timeout_ms = static_cast<int>(std::min<long long>(sleep.count(), 60'000));
            }
            const int n = ::epoll_wait(epoll_.get(), events.data(), events_per_wait, timeout_ms);
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                }
                throw system_error_of("epoll_wait failed");
            }
            if (identity_.spin && n == 0 && ++empty_polls % polls_per_yield == 0) {
                ::sched_yield();
            }
            const auto now = clock::now();
            for (int i = 0; i < n; ++i) {
                auto* e = static_cast<entry*>(events[static_cast<std::size_t>(i)].data.ptr);
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

void event_worker::take_inbox(clock::time_point now) {
    std::uint64_t count = 0;
    [[maybe_unused]] const auto read = ::read(wake_.get(), &count, sizeof count);
    std::vector<std::unique_ptr<session>> arrived;
    {
        const std::lock_guard lock(inbox_mutex_);
        arrived.swap(inbox_);
    }
    for (auto& s : arrived) {
        auto& e = *entries_.emplace_back(std::make_unique<entry>());
        e.s = std::move(s);
        epoll_event event{};
        event.events = 0;
        event.data.ptr = &e;
        if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, e.s->native_handle(), &event) != 0) {
            log_error("client {}: cannot watch its socket ({}); closing", e.s->client(),
                      std::system_category().message(errno));
            e.s.reset();
            --load_;
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
    epoll_event event{};
    event.events = (reading ? EPOLLIN : 0u) | (writing ? EPOLLOUT : 0u);
    event.data.ptr = &e;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, e.s->native_handle(), &event) != 0) {
        throw system_error_of("epoll_ctl failed");
    }
    e.reading = reading;
    e.writing = writing;
}

void event_worker::end(entry& e) {
    const auto& s = *e.s;
    const std::chrono::duration<double> took = clock::now() - s.started();
    const auto& outcome = s.outcome();
    // After the duration come the words the line had before it was timed
    // ("finished N iterations", "closed after N iterations: why"): scripts
    // look for them, some at the end of the line.
    if (outcome.completed) {
        log_info("client {} ok in {:.3f} s: finished {} {}", s.client(), took.count(),
                 outcome.messages_done, outcome.unit);
    } else {
        log_error("client {} failed in {:.3f} s: closed after {} {}: {}", s.client(), took.count(),
                  outcome.messages_done, outcome.unit, outcome.reason);
    }
    // Closing the socket removes it from the epoll set.
    e.s.reset();
    --load_;
    if (ended_) {
        ended_();
    }
}

}  // namespace sctp_perf
