#include "client/load/load_engine.hpp"

#include <fmt/format.h>
#include <sys/epoll.h>
#include <sys/prctl.h>

#include <atomic>
#include <cerrno>
#include <ctime>
#include <exception>
#include <fstream>
#include <mutex>
#include <ostream>
#include <string>
#include <system_error>
#include <thread>

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

// What the workers share with the main thread.
struct shared_run {
    clock::time_point t0;
    clock::time_point stop_at = clock::time_point::max();
    std::optional<std::chrono::nanoseconds> interval;
    bool spin = false;  // the channels spin (--spin): the workers never sleep in epoll
    interval_collector* collector = nullptr;
    std::atomic<bool> abort{false};
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
        try {
            loop();
        } catch (...) {
            {
                const std::lock_guard lock(shared_.error_mutex);
                if (!shared_.error) {
                    shared_.error = std::current_exception();
                }
            }
            shared_.abort = true;
        }
        // Also after a failure: the interval this worker was in is where its
        // last part goes, so that the main thread's account drains.
        if (shared_.collector != nullptr) {
            shared_.collector->hand_in_last(interval_index_, clock::now(), sink_);
        }
    }

  private:
    void loop() {
        // The timer slack would otherwise add up to 50 us to every sleep.
        ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
        unique_fd epoll_fd(::epoll_create1(EPOLL_CLOEXEC));
        if (!epoll_fd) {
            throw std::system_error(errno, std::generic_category(), "epoll_create1 failed");
        }
        std::vector<bool> wants_out(flows_.size(), false);
        for (std::size_t i = 0; i < flows_.size(); ++i) {
            epoll_event event{};
            event.events = EPOLLIN;
            event.data.u64 = i;
            if (::epoll_ctl(epoll_fd.get(), EPOLL_CTL_ADD, flows_[i]->native_handle(), &event) !=
                0) {
                throw std::system_error(errno, std::generic_category(), "epoll_ctl failed");
            }
        }
        for (auto* flow : flows_) {
            flow->begin(send_schedule(shared_.t0, plan_.rate_per_s, plan_.arrivals, flow->index(),
                                      plan_.flow_count, plan_.seed),
                        shared_.stop_at);
        }
        const auto interval = shared_.interval.value_or(clock::duration::max());
        auto interval_end = shared_.interval ? shared_.t0 + interval : clock::time_point::max();
        std::size_t unfinished = flows_.size();
        std::vector<epoll_event> events(flows_.size());

        bool stopping = false;
        while (unfinished > 0 && !shared_.abort) {
            auto now = clock::now();
            if (!stopping && plan_.stop != nullptr &&
                plan_.stop->load(std::memory_order_relaxed) != 0) {
                stopping = true;
                for (auto* flow : flows_) {
                    flow->stop_sending();
                }
            }
            if (now >= interval_end) {
                shared_.collector->hand_in(interval_index_++, interval_end, sink_);
                interval_end += interval;
            }
            auto wake = std::min(interval_end, now + longest_wait);
            for (std::size_t i = 0; i < flows_.size(); ++i) {
                auto& flow = *flows_[i];
                if (flow.finished()) {
                    continue;
                }
                const bool blocked = on_flow(flow, [&] { return flow.send_due(now, sink_); });
                if (blocked != wants_out[i]) {
                    wants_out[i] = blocked;
                    epoll_event event{};
                    event.events = blocked ? EPOLLIN | EPOLLOUT : EPOLLIN;
                    event.data.u64 = i;
                    ::epoll_ctl(epoll_fd.get(), EPOLL_CTL_MOD, flow.native_handle(), &event);
                }
                if (!blocked) {
                    wake = std::min(wake, flow.next_due());
                }
                if (flow.waiting_on_peer() && now - flow.peer_owes_since() > plan_.io_timeout) {
                    throw peer_error(fmt::format(
                        "{}: no whole reply and no room to send for {:.1f} s (--io-timeout): "
                        "the server stopped reading or answering",
                        where(flow), std::chrono::duration<double>(plan_.io_timeout).count()));
                }
            }
            now = clock::now();
            const auto timeout = shared_.spin || wake <= now + spin_before_due
                                     ? clock::duration::zero()
                                     : wake - spin_before_due - now;
            const int n = wait_events(epoll_fd.get(), events.data(),
                                      static_cast<int>(events.size()), timeout);
            for (int e = 0; e < n; ++e) {
                const auto i = events[static_cast<std::size_t>(e)].data.u64;
                auto& flow = *flows_[i];
                if ((events[static_cast<std::size_t>(e)].events & ~EPOLLOUT) == 0 ||
                    flow.finished()) {
                    continue;
                }
                on_flow(flow, [&] { flow.receive(sink_); });
                if (flow.finished()) {
                    sink_.finished_at = clock::now();
                    --unfinished;
                    ::epoll_ctl(epoll_fd.get(), EPOLL_CTL_DEL, flow.native_handle(), nullptr);
                }
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
        sample.bytes_received = slot.replies * protocol::load_reply_size;
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
    for (auto& flow : flows) {
        flow->run_primer();
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
    // A moment's head start, so that every worker is up before the first
    // message is due; one that is late only catches up.
    shared.t0 = clock::now() + std::chrono::milliseconds(2);
    const auto wall_t0 = std::chrono::system_clock::now() + std::chrono::milliseconds(2);
    if (plan.duration) {
        shared.stop_at = shared.t0 + *plan.duration;
    }
    for (auto& sink : sinks) {
        sink->t0 = shared.t0;
    }
    interval_writer intervals(plan, outputs, shared.t0, wall_t0);
    load_result result;
    const auto usage_start = read_process_usage();

    worker_threads threads(shared);
    for (unsigned t = 0; t < thread_count; ++t) {
        threads.start([&, t] { worker(groups[t], *sinks[t], plan, shared).run(); });
    }
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
    std::chrono::nanoseconds max_slip{0};
    for (const auto& sink : sinks) {
        result.corrected->merge(sink->corrected_run);
        result.uncorrected->merge(sink->uncorrected_run);
        max_slip = std::max(max_slip, sink->max_slip);
    }
    result.schedule_slip_max_us = static_cast<double>(max_slip.count()) / 1000.0;
    double rate_sum = 0.0;
    for (auto& flow : flows) {
        auto flow_result = flow->finish();
        result.sending_s = std::max(result.sending_s, flow->sending_s());
        result.messages_sent += flow_result.messages_sent;
        result.messages_echo_requested += flow_result.messages_echo_requested;
        result.messages_replied += flow_result.messages_replied;
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
