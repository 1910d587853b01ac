// SPDX-License-Identifier: Apache-2.0
#include "client/load/load_worker.hpp"

#include <fmt/format.h>
#include <sys/prctl.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <string>

#include "client/load/flow_reconnector.hpp"
#include "errors.hpp"
#include "runtime/cpu_affinity.hpp"
#include "transport/epoll_set.hpp"
#include "transport/peer_gone.hpp"
#include "transport/poll_before_sleep.hpp"

namespace sctp_perf {

void shared_run::worker_ready() {
    const std::lock_guard lock(start_mutex);
    ++workers_ready;
    start_changed.notify_all();
}

void shared_run::wait_for_workers(unsigned count) {
    std::unique_lock lock(start_mutex);
    start_changed.wait(lock, [&] { return workers_ready >= count; });
}

void shared_run::start() {
    const std::lock_guard lock(start_mutex);
    started = true;
    start_changed.notify_all();
}

void shared_run::wait_for_start() {
    std::unique_lock lock(start_mutex);
    start_changed.wait(lock, [&] { return started; });
}

namespace {

using clock = std::chrono::steady_clock;

// A sleep ends this long before the next due time, and the rest is spun:
// waking from a timer is late by tens of microseconds, and that lateness
// would be measured as latency.
constexpr auto spin_before_due = std::chrono::microseconds(50);

class worker {
  public:
    worker(std::vector<load_flow*> flows, sample_sink& sink, const load_plan& plan,
           shared_run& shared)
        : flows_(std::move(flows)), sink_(sink), plan_(plan), shared_(shared) {}

    void run() noexcept {
        bool prepared = false;
        try {
            prepare();
            prepared = true;
        } catch (...) {
            fail();
        }
        shared_.worker_ready();  // also after a failure, or the start never comes
        shared_.wait_for_start();
        if (prepared) {
            try {
                loop();
            } catch (...) {
                fail();
            }
        }
        // Also after a failure: the interval this worker was in is where its
        // last part goes, so that the main thread's account drains.
        if (shared_.collector != nullptr) {
            shared_.collector->hand_in_last(interval_index_, clock::now(), sink_);
        }
    }

  private:
    // Keeps the first failure of any worker, and stops them all.
    void fail() noexcept {
        {
            const std::lock_guard lock(shared_.error_mutex);
            if (!shared_.error) {
                shared_.error = std::current_exception();
            }
        }
        shared_.abort = true;
    }

    // What needs no t0: the epoll set of this worker's flows.
    void prepare() {
        // The timer slack would otherwise add up to 50 us to every sleep.
        ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
        epoll_.emplace();
        wants_out_.assign(flows_.size(), false);
        scheduled_.assign(flows_.size(), clock::time_point::max());
        for (std::size_t i = 0; i < flows_.size(); ++i) {
            epoll_->add(flows_[i]->native_handle(), EPOLLIN, {.u64 = i});
        }
        if (plan_.reconnect.enabled) {
            reconnector_.emplace(plan_, *epoll_, flows_.size());
        }
    }

    // One pass: what the clock says is due (an interrupt, an interval's end,
    // the timeout sweep, the flows' sends), then a wait in epoll for the
    // replies, room to send, or the next due time.
    void loop() {
        begin_flows();
        while (unfinished_ > 0 && !shared_.abort) {
            auto now = clock::now();
            stop_if_asked(now);
            if (now >= interval_end_) {
                shared_.collector->hand_in(interval_index_++, interval_end_, sink_);
                interval_end_ += interval_length_;
            }
            if (now >= next_sweep_) {
                check_timeouts(now);
                next_sweep_ = now + longest_wait;
            }
            if (reconnector_ && !reconnector_->idle()) {
                reconnector_->step(now, flows_, stopping_, outcomes_);
                take_outcomes(now);
            }
            now = send_what_is_due(now);
            // epoll_pwait2: a sleep that ends spin_before_due before a due
            // time needs more than whole milliseconds.
            const auto n = epoll_->wait_precisely(events_, wait_before_next(now));
            if (n > 0) {
                receive_events(n);
            } else if (!shared_.spin && now < poll_until_) {
                yield_to_peer();  // a bounded poll yields after every empty look
            }
        }
    }

    // At t0: starts every flow's schedule and the loop's own clocks.
    void begin_flows() {
        for (std::size_t i = 0; i < flows_.size(); ++i) {
            auto& flow = *flows_[i];
            flow.begin(send_schedule(shared_.t0, plan_.rate_per_s, plan_.arrivals, flow.index(),
                                     plan_.flow_count, plan_.seed),
                       shared_.measure_from, shared_.stop_at);
            schedule(i, flow.next_due());
        }
        interval_length_ = shared_.interval.value_or(clock::duration::max());
        interval_end_ =
            shared_.interval ? shared_.measure_from + interval_length_ : clock::time_point::max();
        next_sweep_ = shared_.t0 + longest_wait;
        unfinished_ = flows_.size();
        events_.resize(flows_.size());
        receive_buffer_.resize(worker_receive_bytes);
    }

    // An interrupt (plan.stop) ends every flow early and cleanly: each is
    // told once, and scheduled now, so that its end of test goes out.
    void stop_if_asked(clock::time_point now) {
        if (!stopping_ && plan_.stop != nullptr &&
            plan_.stop->load(std::memory_order_relaxed) != 0) {
            stopping_ = true;
            for (std::size_t i = 0; i < flows_.size(); ++i) {
                flows_[i]->stop_sending();
                schedule(i, now);
            }
        }
    }

    // Sends for every flow due by `now`; returns the time after. The pass
    // counts as busy only when it sent something (see sample_sink::busy).
    clock::time_point send_what_is_due(clock::time_point now) {
        const auto pass_start = now;
        const auto sent_before = sink_.interval_sent + sink_.warmup_sent;
        take_due(now, due_now_);
        for (const auto i : due_now_) {
            send_step(i, now);
        }
        now = clock::now();
        if (sink_.interval_sent + sink_.warmup_sent != sent_before) {
            sink_.busy += now - pass_start;
            poll_until_ = now + shared_.poll_before_sleep;
        }
        return now;
    }

    // How long epoll may sleep: until the next due time, interval end or
    // sweep, less the stretch spun before it; never with --spin, nor while
    // the poll after a send lasts (--poll-before-sleep).
    clock::duration wait_before_next(clock::time_point now) {
        const auto wake =
            std::min({interval_end_, next_sweep_, next_scheduled(),
                      reconnector_ ? reconnector_->next_due() : clock::time_point::max()});
        return shared_.spin || now < poll_until_ || wake <= now + spin_before_due
                   ? clock::duration::zero()
                   : wake - spin_before_due - now;
    }

    // Reads what the first `n` of events_ announce, and takes a finished
    // flow out of the epoll set.
    void receive_events(std::size_t n) {
        const auto receive_start = clock::now();
        for (std::size_t e = 0; e < n; ++e) {
            const auto& event = events_[e];
            const auto i = static_cast<std::size_t>(event.data.u64);
            auto& flow = *flows_[i];
            if (flow.finished()) {
                continue;
            }
            if (flow.out_of_service()) {
                reconnector_->on_event(i, receive_start, outcomes_);
                take_outcomes(clock::now());
                continue;
            }
            if ((event.events & ~EPOLLOUT) != 0) {
                if (!run_step(i, [&] { flow.receive(sink_, receive_buffer_); })) {
                    continue;  // out of service: the reconnector has it
                }
                if (flow.finished()) {
                    sink_.finished_at = clock::now();
                    --unfinished_;
                    epoll_->remove(flow.native_handle());
                    continue;
                }
            }
            // A reply may let it send (the next round trip of a closed
            // loop, the end of test once drained), room certainly does.
            schedule(i, receive_start);
        }
        sink_.busy += clock::now() - receive_start;
    }

    // Flow i's next step is due at `at` (time_point::max(): it waits on its
    // socket instead); an earlier time than the one it has wins.
    void schedule(std::size_t i, clock::time_point at) {
        if (at < scheduled_[i]) {
            scheduled_[i] = at;
            due_.emplace(at, i);
        }
    }

    // Takes every flow due by `now` off the queue into `due_now`, earliest
    // first. Entries that are no longer their flow's time are dropped.
    void take_due(clock::time_point now, std::vector<std::size_t>& due_now) {
        due_now.clear();
        while (!due_.empty() && due_.top().first <= now) {
            const auto [at, i] = due_.top();
            due_.pop();
            if (at == scheduled_[i]) {
                scheduled_[i] = clock::time_point::max();
                due_now.push_back(i);
            }
        }
    }

    // The earliest time a flow is due; time_point::max() when none is.
    clock::time_point next_scheduled() {
        while (!due_.empty() && due_.top().first != scheduled_[due_.top().second]) {
            due_.pop();
        }
        return due_.empty() ? clock::time_point::max() : due_.top().first;
    }

    // Sends what flow i has due, and schedules its next step: at its next
    // due time, or, with its socket full, when epoll says there is room.
    void send_step(std::size_t i, clock::time_point now) {
        auto& flow = *flows_[i];
        if (flow.finished() || flow.out_of_service()) {
            return;
        }
        bool blocked = false;
        if (!run_step(i, [&] { blocked = flow.send_due(now, sink_); })) {
            return;  // out of service: the reconnector has it
        }
        if (blocked != wants_out_[i]) {
            wants_out_[i] = blocked;
            epoll_->modify(flow.native_handle(), blocked ? EPOLLIN | EPOLLOUT : EPOLLIN,
                           {.u64 = i});
        }
        if (!blocked) {
            schedule(i, flow.next_due());
        }
    }

    // Every longest_wait, not on every pass: a pass touches only the flows
    // that are due or had an event, so that thousands of flows cost a worker
    // what their messages cost, not a look at each one per message.
    void check_timeouts(clock::time_point now) const {
        for (const auto* flow : flows_) {
            if (!flow->finished() && flow->waiting_on_peer() &&
                now - flow->peer_owes_since() > plan_.io_timeout) {
                throw peer_error(fmt::format(
                    "{}: no whole reply and no room to send for {:.1f} s (--io-timeout): "
                    "the server stopped reading or answering",
                    where(*flow), std::chrono::duration<double>(plan_.io_timeout).count()));
            }
        }
    }

    // Runs one step of flow i, naming the flow and the time in whatever the
    // peer did wrong. With --reconnect a connection that ended puts the flow
    // out of service instead (false), and the reconnector takes it on.
    template <typename Step>
    bool run_step(std::size_t i, Step step) {
        auto& flow = *flows_[i];
        try {
            step();
            return true;
        } catch (const peer_error& e) {
            // The connection ended: closed (between messages or within the
            // test), reset, aborted, lost. Anything else the peer did wrong
            // ends the run, --reconnect or not.
            const bool gone = dynamic_cast<const peer_gone*>(&e) != nullptr ||
                              dynamic_cast<const peer_closed*>(&e) != nullptr;
            if (!gone || !reconnector_) {
                throw peer_error(fmt::format("{}: {}", where(flow), e.what()));
            }
            const auto now = clock::now();
            epoll_->remove(flow.native_handle());
            if (plan_.watch != nullptr) {
                plan_.watch->connection_ended(flow.index());
            }
            flow.lose_connection(now, e.what(), sink_);
            wants_out_[i] = false;
            scheduled_[i] = clock::time_point::max();
            reconnector_->lost(i, now, flow.stop_at());
            return false;
        }
    }

    // What the reconnector handed back: a flow in service again on its new
    // connection, watched and scheduled as at t0; or one whose run ended
    // while it was out of service, finished.
    void take_outcomes(clock::time_point now) {
        for (auto& outcome : outcomes_) {
            auto& flow = *flows_[outcome.i];
            if (!outcome.channel) {
                flow.end_out_of_service(now);
                sink_.finished_at = now;
                --unfinished_;
                continue;
            }
            flow.resume(std::move(outcome.channel), now);
            epoll_->add(flow.native_handle(), EPOLLIN, {.u64 = outcome.i});
            schedule(outcome.i, flow.next_due());
        }
        outcomes_.clear();
    }

    // "flow 3, 2.471 s into the run (interval 3, from 2.000 s)": where a
    // failure happened, for the one line a user reads.
    // With --warmup the run's seconds count from the warm-up's start, and
    // the intervals begin after it.
    std::string where(const load_flow& flow) const {
        const auto now = clock::now();
        const auto elapsed_s = std::chrono::duration<double>(now - shared_.t0).count();
        if (now < shared_.measure_from) {
            return fmt::format("{}, {:.3f} s into the run (in the warm-up)", flow.name(),
                               elapsed_s);
        }
        if (!shared_.interval) {
            return fmt::format("{}, {:.3f} s into the run", flow.name(), elapsed_s);
        }
        const double interval_s = std::chrono::duration<double>(*shared_.interval).count();
        const double warmup_s =
            std::chrono::duration<double>(shared_.measure_from - shared_.t0).count();
        return fmt::format("{}, {:.3f} s into the run (interval {}, from {:.3f} s)", flow.name(),
                           elapsed_s, interval_index_ + 1,
                           warmup_s + static_cast<double>(interval_index_) * interval_s);
    }

    std::vector<load_flow*> flows_;
    sample_sink& sink_;
    const load_plan& plan_;
    shared_run& shared_;
    std::uint64_t interval_index_ = 0;  // the interval the loop is in
    std::optional<epoll_set> epoll_;    // made in prepare(), on the worker's thread
    std::vector<bool> wants_out_;       // per flow: waits for room to send (EPOLLOUT)
    // The flows' next steps, earliest first, equal times in flow order. An
    // entry counts while its time is its flow's scheduled_ time; one left
    // behind by a flow scheduled earlier is dropped when it comes up.
    using due_entry = std::pair<clock::time_point, std::size_t>;
    std::priority_queue<due_entry, std::vector<due_entry>, std::greater<>> due_;
    std::vector<clock::time_point> scheduled_;  // per flow; max(): not queued

    // The loop's own state, from begin_flows() on.
    clock::duration interval_length_{};                          // max() without --interval
    clock::time_point interval_end_ = clock::time_point::max();  // of interval_index_
    clock::time_point next_sweep_{};                             // the next check_timeouts()
    clock::time_point poll_until_ = clock::time_point::min();    // see wait_before_next()
    std::size_t unfinished_ = 0;
    bool stopping_ = false;  // plan.stop was seen and every flow told
    std::vector<epoll_event> events_;
    std::vector<std::byte> receive_buffer_;            // see worker_receive_bytes
    std::vector<std::size_t> due_now_;                 // take_due()'s, kept to reuse its memory
    std::optional<flow_reconnector> reconnector_;      // --reconnect
    std::vector<flow_reconnector::outcome> outcomes_;  // its, as they come
};

}  // namespace

void run_worker(std::vector<load_flow*> flows, sample_sink& sink, const load_plan& plan,
                shared_run& shared) noexcept {
    worker(std::move(flows), sink, plan, shared).run();
}

worker_threads::~worker_threads() {
    shared_.abort = true;  // a no-op after a normal join()
    shared_.start();       // workers still waiting to start see the abort
    join();
}

void worker_threads::pin_last(unsigned cpu) {
    pin_thread(threads_.back().native_handle(), cpu);
}

void worker_threads::join() noexcept {
    for (auto& thread : threads_) {
        if (thread.joinable()) {
            thread.join();
        }
    }
}

}  // namespace sctp_perf
