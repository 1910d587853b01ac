// SPDX-License-Identifier: Apache-2.0
#include "client/load/load_engine.hpp"

#include <fmt/format.h>
#include <sys/epoll.h>
#include <sys/prctl.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <ctime>
#include <exception>
#include <fstream>
#include <mutex>
#include <ostream>
#include <queue>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "client/load/interval_collector.hpp"
#include "errors.hpp"
#include "report/histogram_log.hpp"
#include "report/interval_report.hpp"
#include "report/output_file.hpp"

namespace sctp_perf {
namespace {

using clock = std::chrono::steady_clock;

// A sleep ends this long before the next due time, and the rest is spun:
// waking from a timer is late by tens of microseconds, and that lateness
// would be measured as latency.
constexpr auto spin_before_due = std::chrono::microseconds(50);
// The longest single wait, so that I/O timeouts and an abort are noticed.
constexpr auto longest_wait = std::chrono::milliseconds(100);
// What a worker spends starting one flow's schedule, generously: a copy of
// its send_schedule (with the poisson generator's state, 2.5 KB) and a place
// in the due queue.
constexpr auto per_flow_start = std::chrono::microseconds(2);

// What the workers share with the main thread.
struct shared_run {
    clock::time_point t0;
    clock::time_point stop_at = clock::time_point::max();
    std::optional<std::chrono::nanoseconds> interval;
    bool spin = false;  // the channels spin (--spin): the workers never sleep in epoll
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

    void worker_ready() {
        const std::lock_guard lock(start_mutex);
        ++workers_ready;
        start_changed.notify_all();
    }
    void wait_for_workers(unsigned count) {
        std::unique_lock lock(start_mutex);
        start_changed.wait(lock, [&] { return workers_ready >= count; });
    }
    void start() {
        const std::lock_guard lock(start_mutex);
        started = true;
        start_changed.notify_all();
    }
    void wait_for_start() {
        std::unique_lock lock(start_mutex);
        start_changed.wait(lock, [&] { return started; });
    }
    std::mutex error_mutex;
    std::exception_ptr error;
};

int wait_events(int epoll_fd, epoll_event* events, int capacity, clock::duration timeout) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(timeout).count();
    const timespec limit{static_cast<time_t>(ns / 1'000'000'000),
                         static_cast<long>(ns % 1'000'000'000)};
    for (;;) {
        // epoll_pwait2 takes a timeout in nanoseconds; epoll_wait only whole milliseconds.
        const int n = ::epoll_pwait2(epoll_fd, events, capacity, &limit, nullptr);
        if (n >= 0) {
            return n;
        }
        if (errno != EINTR) {
            throw std::system_error(errno, std::generic_category(), "epoll_pwait2 failed");
        }
    }
}

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
        epoll_fd_ = unique_fd(::epoll_create1(EPOLL_CLOEXEC));
        if (!epoll_fd_) {
            throw std::system_error(errno, std::generic_category(), "epoll_create1 failed");
        }
        wants_out_.assign(flows_.size(), false);
        scheduled_.assign(flows_.size(), clock::time_point::max());
        for (std::size_t i = 0; i < flows_.size(); ++i) {
            epoll_event event{};
            event.events = EPOLLIN;
            event.data.u64 = i;
            if (::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_ADD, flows_[i]->native_handle(), &event) !=
                0) {
                throw std::system_error(errno, std::generic_category(), "epoll_ctl failed");
            }
        }
    }

    void loop() {
        for (std::size_t i = 0; i < flows_.size(); ++i) {
            auto& flow = *flows_[i];
            flow.begin(send_schedule(shared_.t0, plan_.rate_per_s, plan_.arrivals, flow.index(),
                                     plan_.flow_count, plan_.seed),
                       shared_.stop_at);
            schedule(i, flow.next_due());
        }
        const auto interval = shared_.interval.value_or(clock::duration::max());
        auto interval_end = shared_.interval ? shared_.t0 + interval : clock::time_point::max();
        auto next_sweep = shared_.t0 + longest_wait;
        std::size_t unfinished = flows_.size();
        std::vector<epoll_event> events(flows_.size());
        std::vector<std::byte> receive_buffer(worker_receive_bytes);
        std::vector<std::size_t> due_now;

        bool stopping = false;
        while (unfinished > 0 && !shared_.abort) {
            auto now = clock::now();
            if (!stopping && plan_.stop != nullptr &&
                plan_.stop->load(std::memory_order_relaxed) != 0) {
                stopping = true;
                for (std::size_t i = 0; i < flows_.size(); ++i) {
                    flows_[i]->stop_sending();
                    schedule(i, now);
                }
            }
            if (now >= interval_end) {
                shared_.collector->hand_in(interval_index_++, interval_end, sink_);
                interval_end += interval;
            }
            if (now >= next_sweep) {
                check_timeouts(now);
                next_sweep = now + longest_wait;
            }
            const auto pass_start = now;
            const auto sent_before = sink_.interval_sent;
            take_due(now, due_now);
            for (const auto i : due_now) {
                send_step(i, now);
            }
            now = clock::now();
            if (sink_.interval_sent != sent_before) {
                sink_.busy += now - pass_start;
            }
            const auto wake = std::min({interval_end, next_sweep, next_scheduled()});
            const auto timeout = shared_.spin || wake <= now + spin_before_due
                                     ? clock::duration::zero()
                                     : wake - spin_before_due - now;
            const int n = wait_events(epoll_fd_.get(), events.data(),
                                      static_cast<int>(events.size()), timeout);
            if (n == 0) {
                continue;
            }
            const auto receive_start = clock::now();
            for (int e = 0; e < n; ++e) {
                const auto& event = events[static_cast<std::size_t>(e)];
                const auto i = static_cast<std::size_t>(event.data.u64);
                auto& flow = *flows_[i];
                if (flow.finished()) {
                    continue;
                }
                if ((event.events & ~EPOLLOUT) != 0) {
                    on_flow(flow, [&] { flow.receive(sink_, receive_buffer); });
                    if (flow.finished()) {
                        sink_.finished_at = clock::now();
                        --unfinished;
                        ::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_DEL, flow.native_handle(), nullptr);
                        continue;
                    }
                }
                // A reply may let it send (the next round trip of a closed
                // loop, the end of test once drained), room certainly does.
                schedule(i, receive_start);
            }
            sink_.busy += clock::now() - receive_start;
        }
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
        if (flow.finished()) {
            return;
        }
        const bool blocked = on_flow(flow, [&] { return flow.send_due(now, sink_); });
        if (blocked != wants_out_[i]) {
            wants_out_[i] = blocked;
            epoll_event event{};
            event.events = blocked ? EPOLLIN | EPOLLOUT : EPOLLIN;
            event.data.u64 = i;
            ::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_MOD, flow.native_handle(), &event);
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

    // Runs one step of `flow`, naming the flow and the time in whatever the
    // peer did wrong.
    template <typename Step>
    auto on_flow(const load_flow& flow, Step step) -> decltype(step()) {
        try {
            return step();
        } catch (const peer_error& e) {
            throw peer_error(fmt::format("{}: {}", where(flow), e.what()));
        }
    }

    // "flow 3, 2.471 s into the run (interval 3, from 2.000 s)": where a
    // failure happened, for the one line a user reads.
    std::string where(const load_flow& flow) const {
        const auto elapsed_s = std::chrono::duration<double>(clock::now() - shared_.t0).count();
        if (!shared_.interval) {
            return fmt::format("flow {}, {:.3f} s into the run", flow.index(), elapsed_s);
        }
        const double interval_s = std::chrono::duration<double>(*shared_.interval).count();
        return fmt::format("flow {}, {:.3f} s into the run (interval {}, from {:.3f} s)",
                           flow.index(), elapsed_s, interval_index_ + 1,
                           static_cast<double>(interval_index_) * interval_s);
    }

    std::vector<load_flow*> flows_;
    sample_sink& sink_;
    const load_plan& plan_;
    shared_run& shared_;
    std::uint64_t interval_index_ = 0;  // the interval the loop is in
    unique_fd epoll_fd_;
    std::vector<bool> wants_out_;  // per flow: waits for room to send (EPOLLOUT)
    // The flows' next steps, earliest first, equal times in flow order. An
    // entry counts while its time is its flow's scheduled_ time; one left
    // behind by a flow scheduled earlier is dropped when it comes up.
    using due_entry = std::pair<clock::time_point, std::size_t>;
    std::priority_queue<due_entry, std::vector<due_entry>, std::greater<>> due_;
    std::vector<clock::time_point> scheduled_;  // per flow; max(): not queued
};

// The worker threads of one run, joined on every way out of it: a thread
// that cannot start, or an output that fails while the others run, must not
// leave a joinable std::thread behind (its destructor would terminate).
class worker_threads {
  public:
    explicit worker_threads(shared_run& shared) : shared_(shared) {}
    worker_threads(const worker_threads&) = delete;
    worker_threads& operator=(const worker_threads&) = delete;
    ~worker_threads() {
        shared_.abort = true;  // a no-op after a normal join()
        shared_.start();       // workers still waiting to start see the abort
        join();
    }

    // Throws std::system_error when the thread cannot be made.
    template <typename Body>
    void start(Body body) {
        threads_.emplace_back(std::move(body));
    }
    void join() noexcept {
        for (auto& thread : threads_) {
            if (thread.joinable()) {
                thread.join();
            }
        }
    }

  private:
    shared_run& shared_;
    std::vector<std::thread> threads_;
};

// Writes one finished interval to every output that asked for it.
class interval_writer {
  public:
    interval_writer(const load_plan& plan, const load_outputs& outputs, clock::time_point t0,
                    std::chrono::system_clock::time_point wall_t0)
        : plan_(plan),
          outputs_(outputs),
          t0_(t0),
          previous_end_(t0),
          csv_file_(open_output_file(outputs.interval_csv, "--interval-csv file")),
          log_file_(open_output_file(outputs.histogram_log, "--histogram-log file")),
          usage_(read_process_usage()) {
        if (csv_file_.is_open()) {
            csv_.emplace(csv_file_);
        }
        if (log_file_.is_open()) {
            log_.emplace(log_file_, wall_t0);
        }
    }

    void write(const interval_slot& slot, rss_tracker& rss) {
        const auto usage = read_process_usage();
        rss.add(usage.rss_kib);
        const bool rate = plan_.mode == protocol::test_mode::rate;
        interval_sample sample;
        sample.elapsed_s = std::chrono::duration<double>(slot.end - t0_).count();
        sample.length_s = std::chrono::duration<double>(slot.end - previous_end_).count();
        sample.messages_sent = slot.sent;
        sample.messages_received = slot.replies;
        sample.bytes_sent = slot.sent * plan_.payload_bytes;
        sample.bytes_received = slot.replies * plan_.reply_bytes;
        sample.latency = rate ? &slot.corrected : &slot.uncorrected;
        sample.latency_corrected = rate;
        sample.cpu_percent = cpu_percent_between(usage_, usage);
        sample.rss_kib = usage.rss_kib;
        if (outputs_.progress != nullptr) {
            *outputs_.progress << format_interval_line(sample) << '\n' << std::flush;
        }
        if (csv_) {
            csv_->write(sample);
        }
        if (log_) {
            log_->write_interval(previous_end_ - t0_, slot.end - previous_end_, slot.corrected);
            log_->write_interval(previous_end_ - t0_, slot.end - previous_end_, slot.uncorrected,
                                 "uncorrected");
        }
        previous_end_ = slot.end;
        usage_ = usage;
    }

    void close() {
        close_output_file(csv_file_, outputs_.interval_csv, "--interval-csv file");
        close_output_file(log_file_, outputs_.histogram_log, "--histogram-log file");
    }

  private:
    const load_plan& plan_;
    const load_outputs& outputs_;
    clock::time_point t0_;
    clock::time_point previous_end_;
    std::ofstream csv_file_;
    std::ofstream log_file_;
    std::optional<interval_csv_writer> csv_;
    std::optional<histogram_log_writer> log_;
    process_usage usage_;
};

void add_account(server_account& total, const server_account& flow) {
    total.messages_received += flow.messages_received;
    total.bytes_received += flow.bytes_received;
    total.replies_sent += flow.replies_sent;
    total.bytes_sent += flow.bytes_sent;
    total.duration_s = std::max(total.duration_s, flow.duration_s);
    // Each flow's figure is the whole server's over that flow's test (its
    // sessions share worker threads), so the flows' figures are not added.
    total.cpu_percent = std::max(total.cpu_percent, flow.cpu_percent);
    total.rss_kib = std::max(total.rss_kib, flow.rss_kib);
    total.pr_abandoned += flow.pr_abandoned;
    if (flow.transport) {
        if (!total.transport) {
            total.transport.emplace();
        }
        add_counters(*total.transport, *flow.transport);
    }
}

// Every worker's replies per stream, and each stream's p99 where kept.
std::vector<stream_result> merge_streams(const std::vector<std::unique_ptr<sample_sink>>& sinks,
                                         std::uint16_t streams) {
    std::vector<stream_result> merged;
    if (streams <= 1) {
        return merged;
    }
    for (std::uint16_t s = 0; s < streams; ++s) {
        stream_result one;
        one.stream = s;
        log_linear_histogram latency;
        bool kept = false;
        for (const auto& sink : sinks) {
            one.replies += sink->per_stream.replies[s];
            if (s < sink->per_stream.latency.size()) {
                kept = true;
                if (const auto& h = sink->per_stream.latency[s]) {
                    latency.merge(*h);
                }
            }
        }
        if (kept && one.replies > 0) {
            one.p99_us = latency.percentile_ns(990'000) / 1000.0;
        }
        merged.push_back(one);
    }
    return merged;
}

// The primer of every flow, the flows in step: round trip k of each, then
// k + 1. Each flow still has one request in flight at a time, but the round
// trips of different flows overlap, so the primer takes 100 round trips
// plus the time to send and read 100 messages per flow, not 100 round trips
// per flow one after another: over a path of 1 ms that would be 1,000 s for
// 10,000 flows, and the first flows would wait far longer than a server's
// --io-timeout for their first measured message.
void run_primers(std::vector<std::unique_ptr<load_flow>>& flows, const load_plan& plan) {
    try {
        for (std::uint32_t round = 0; round < protocol::primer_iterations; ++round) {
            for (auto& flow : flows) {
                flow->send_primer(round);
            }
            for (auto& flow : flows) {
                flow->check_primer(round);
            }
        }
    } catch (const peer_error& e) {
        const auto waited = plan.setup_began ? clock::now() - *plan.setup_began : clock::duration{};
        if (flows.size() == 1 || waited < std::chrono::seconds(1)) {
            throw;
        }
        throw peer_error(fmt::format(
            "{} (the {} flows have been set up for {:.1f} s; a server ends a flow that waits "
            "longer than its --io-timeout, so for this many flows give it a longer one)",
            e.what(), flows.size(), std::chrono::duration<double>(waited).count()));
    }
}

// t0: a moment's head start from now, so that every worker is running
// before the first message is due, and the time a worker takes to start its
// flows' schedules (about 2 us each); one that is late only catches up.
// With --start-at, t0 is the instant itself, waited for until the head start
// before it; an interrupt during that wait starts at once, and the workers,
// seeing it, end with nothing measured.
clock::time_point choose_t0(const load_plan& plan, std::size_t flows_per_worker) {
    const std::chrono::nanoseconds head_start =
        std::chrono::milliseconds(2) + per_flow_start * static_cast<std::int64_t>(flows_per_worker);
    if (!plan.start) {
        return clock::now() + head_start;
    }
    check_start_ahead(*plan.start, clock::now(), "connected and primed");
    if (!wait_until(plan.start->steady - head_start, plan.stop)) {
        return clock::now() + head_start;
    }
    return plan.start->steady;
}

}  // namespace

load_result run_load_test(std::vector<std::unique_ptr<message_channel>> channels,
                          const load_plan& plan, const load_outputs& outputs) {
    std::optional<latency_file> latencies;
    if (!outputs.latency_file.empty()) {
        latencies.emplace(outputs.latency_file);
    }
    // The flows' channels spin alike or not at all, as the options set them.
    const bool spin = !channels.empty() && channels.front()->spins();
    std::vector<std::unique_ptr<load_flow>> flows;
    for (std::size_t i = 0; i < channels.size(); ++i) {
        flows.push_back(
            std::make_unique<load_flow>(static_cast<unsigned>(i), std::move(channels[i]), plan));
    }
    run_primers(flows, plan);
    std::optional<double> setup_s;
    if (plan.setup_began) {
        setup_s = std::chrono::duration<double>(clock::now() - *plan.setup_began).count();
    }

    const auto thread_count =
        static_cast<unsigned>(std::clamp<std::size_t>(plan.threads, 1, flows.size()));
    std::vector<std::unique_ptr<sample_sink>> sinks;
    std::vector<std::optional<latency_file::writer>> writers(thread_count);
    std::vector<std::vector<load_flow*>> groups(thread_count);
    for (unsigned t = 0; t < thread_count; ++t) {
        sinks.push_back(std::make_unique<sample_sink>());
        if (plan.streams > 1) {
            sinks[t]->per_stream.replies.resize(plan.streams);
            sinks[t]->per_stream.latency.resize(
                std::min<std::size_t>(plan.streams, stream_samples_with_latency));
        }
        if (latencies) {
            writers[t].emplace(latencies->make_writer());
            sinks[t]->file = &*writers[t];
        }
    }
    for (std::size_t i = 0; i < flows.size(); ++i) {
        groups[i % thread_count].push_back(flows[i].get());
    }

    interval_collector collector(thread_count);
    shared_run shared;
    shared.interval = plan.interval;
    shared.spin = spin;
    shared.collector = &collector;
    load_result result;
    result.setup_s = setup_s;
    const auto usage_start = read_process_usage();

    worker_threads threads(shared);
    for (unsigned t = 0; t < thread_count; ++t) {
        threads.start([&, t] { worker(groups[t], *sinks[t], plan, shared).run(); });
    }
    shared.wait_for_workers(thread_count);
    shared.t0 = choose_t0(plan, groups.front().size());
    const auto wall_t0 = wall_time_of(shared.t0);
    // Measuring begins at t0, or when the workers are let go if that is
    // later (a main thread woken late): the start is then that late.
    result.began = wall_time_of(std::max(shared.t0, clock::now()));
    if (plan.duration) {
        shared.stop_at = shared.t0 + *plan.duration;
    }
    for (auto& sink : sinks) {
        sink->t0 = shared.t0;
    }
    interval_writer intervals(plan, outputs, shared.t0, wall_t0);
    shared.start();
    // The main thread reports intervals while the workers run.
    while (!collector.drained()) {
        if (auto slot = collector.next(longest_wait)) {
            if (shared.interval) {
                intervals.write(*slot, result.client_rss);
            }
        }
    }
    threads.join();
    const auto usage_end = read_process_usage();
    if (shared.error) {
        std::rethrow_exception(shared.error);
    }

    result.mode = plan.mode;
    result.flows = static_cast<unsigned>(flows.size());
    result.threads = thread_count;
    result.echo_every = plan.echo_every;
    result.payload_bytes = plan.payload_bytes;
    result.reply_bytes = plan.reply_bytes;
    result.rate_asked_per_s = plan.rate_per_s;
    if (plan.mode == protocol::test_mode::rate) {
        result.arrivals = plan.arrivals;
        if (plan.arrivals == arrival_process::poisson) {
            result.seed = plan.seed;
        }
    }
    auto last_end = shared.t0;
    for (const auto& sink : sinks) {
        last_end = std::max(last_end, sink->finished_at);
    }
    result.duration_s = std::chrono::duration<double>(last_end - shared.t0).count();
    result.client_cpu_percent = cpu_percent_between(usage_start, usage_end);
    result.client_rss.add(usage_end.rss_kib);
    result.corrected = std::make_unique<log_linear_histogram>();
    result.uncorrected = std::make_unique<log_linear_histogram>();
    for (const auto& sink : sinks) {
        result.corrected->merge(sink->corrected_run);
        result.uncorrected->merge(sink->uncorrected_run);
        result.schedule_slip.merge(sink->slip);
        const auto active = sink->finished_at - shared.t0;
        result.worker_busy_percent.push_back(
            active.count() > 0 ? 100.0 * std::chrono::duration<double>(sink->busy) / active : 0.0);
    }
    double rate_sum = 0.0;
    for (auto& flow : flows) {
        auto flow_result = flow->finish();
        result.sending_s = std::max(result.sending_s, flow->sending_s());
        result.messages_sent += flow_result.messages_sent;
        result.messages_echo_requested += flow_result.messages_echo_requested;
        result.messages_replied += flow_result.messages_replied;
        result.bytes_sent += flow_result.bytes_sent;
        result.bytes_replied += flow_result.bytes_replied;
        result.messages_lost += flow_result.messages_lost;
        result.messages_abandoned += flow_result.messages_abandoned;
        result.requests_abandoned_by_client_kernel += flow_result.kernel_abandoned.total();
        result.replies_abandoned_by_server_kernel += flow_result.server.pr_abandoned;
        result.messages_duplicated += flow_result.messages_duplicated;
        if (flow_result.transport) {
            if (!result.transport) {
                result.transport.emplace();
            }
            add_counters(*result.transport, *flow_result.transport);
        }
        // The server counts the primer too.
        const auto primer = std::uint64_t{protocol::primer_iterations};
        result.messages_received_by_server += flow_result.server.messages_received > primer
                                                  ? flow_result.server.messages_received - primer
                                                  : 0;
        add_account(result.server, flow_result.server);
        rate_sum += flow_result.rate_per_s;
        result.per_flow.push_back(std::move(flow_result));
    }
    result.rate_achieved_per_s = rate_sum / static_cast<double>(flows.size());
    result.partially_reliable = plan.partially_reliable();
    result.per_stream = merge_streams(sinks, plan.streams);

    writers.clear();
    if (latencies) {
        latencies->close();
    }
    intervals.close();
    return result;
}

}  // namespace sctp_perf
