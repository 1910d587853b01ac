// SPDX-License-Identifier: Apache-2.0
// The main thread's part of a load test: the flows made and primed, dealt
// out to the worker threads (load_worker.hpp), let go at t0, each interval
// written as the workers hand it in, and the run's figures gathered from the
// workers and the flows.
#include "client/load/load_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "client/load/interval_collector.hpp"
#include "client/load/load_worker.hpp"
#include "client/reply_stream.hpp"
#include "errors.hpp"
#include "report/histogram_log.hpp"
#include "report/interval_report.hpp"
#include "report/output_file.hpp"
#include "runtime/cpu_affinity.hpp"
#include "transport/kernel_timestamps.hpp"

namespace sctp_perf {
namespace {

using clock = std::chrono::steady_clock;

// What a worker spends starting one flow's schedule, generously: a copy of
// its send_schedule (with the poisson generator's state, 2.5 KB) and a place
// in the due queue.
constexpr auto per_flow_start = std::chrono::microseconds(2);

// How long a run that has just turned the kernel's stamps on waits for the
// kernel to stamp arrivals, as ping-pong does (client/ping_pong_run.cpp).
constexpr std::chrono::milliseconds receive_stamping_bound{2000};

// Writes one finished interval to every output that asked for it.
class interval_writer {
  public:
    interval_writer(const load_plan& plan, const load_outputs& outputs, clock::time_point t0,
                    std::chrono::system_clock::time_point wall_t0)
        : plan_(plan),
          outputs_(outputs),
          t0_(t0),
          wall_t0_(wall_t0),
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
        if (slot.end < t0_) {
            return;  // the run ended in the warm-up: no interval was measured
        }
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
        sample.ends_at = wall_t0_ + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                        slot.end - t0_);
        sample.paths = plan_.watch != nullptr ? plan_.watch->interval_ends(slot.end) : nullptr;
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
    std::chrono::system_clock::time_point wall_t0_;
    clock::time_point previous_end_;
    std::ofstream csv_file_;
    std::ofstream log_file_;
    std::optional<interval_csv_writer> csv_;
    std::optional<histogram_log_writer> log_;
    process_usage usage_;
};

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
// trips of different flows overlap, so a primer of 100 takes 100 round trips
// plus the time to send and read 100 messages per flow, not 100 round trips
// per flow one after another: over a path of 1 ms that would be 1,000 s for
// 10,000 flows, and the first flows would wait far longer than a server's
// --io-timeout for their first measured message.
void run_primers(std::vector<std::unique_ptr<load_flow>>& flows, const load_plan& plan) {
    try {
        for (std::uint32_t round = 0; round < plan.primer_iterations; ++round) {
            for (auto& flow : flows) {
                flow->send_primer(round);
            }
            for (auto& flow : flows) {
                flow->check_primer(round);
            }
        }
    } catch (const reply_on_wrong_stream&) {
        throw;  // the server's answer, not a wait that ran out
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

// --timestamps: once the primer is over, with nothing in flight (so that
// each flow's transmit stamps count the stream's bytes from its first
// measured message), every flow's stamps are turned on; then the run waits
// until the kernel stamps arrivals (transport/kernel_timestamps.hpp).
void start_stamps(std::vector<std::unique_ptr<load_flow>>& flows, const std::string& program) {
    for (auto& flow : flows) {
        flow->start_stamps();
    }
    if (const auto unseen = await_receive_stamping(receive_stamping_bound)) {
        std::cerr << program << ": warning: " << *unseen
                  << "; a round trip whose reply arrives unstamped is counted missing\n";
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

std::vector<std::unique_ptr<load_flow>> make_flows(
    std::vector<std::unique_ptr<message_channel>> channels, const load_plan& plan) {
    std::vector<std::unique_ptr<load_flow>> flows;
    for (std::size_t i = 0; i < channels.size(); ++i) {
        flows.push_back(
            std::make_unique<load_flow>(static_cast<unsigned>(i), std::move(channels[i]), plan));
    }
    return flows;
}

// Adds one flow's counts, and the server's account of it, to the run's.
void add_flow_counts(load_result& result, const flow_result& flow) {
    static_cast<message_counts&>(result) += flow;
    add_counters(result.transport, flow.transport);
    add_flow_account(result.server, flow.server);
}

// Fan-out: adds one flow's counts, and the server's account of it, to its
// server's.
void add_server_counts(server_result& server, const flow_result& flow) {
    ++server.flows;
    static_cast<message_counts&>(server) += flow;
    add_flow_account(server.account, flow.server);
}

// One load test, in the steps run() takes. What lives here lives as long as
// the run: the latency file outlives its writers, and every output is closed
// only once each flow's account is in.
class load_run {
  public:
    load_run(std::vector<std::unique_ptr<message_channel>> channels, const load_plan& plan,
             const load_outputs& outputs)
        : plan_(plan), outputs_(outputs) {
        if (!outputs.latency_file.empty()) {
            latencies_.emplace(outputs.latency_file);
        }
        // The flows' channels spin alike or not at all, as the options set them.
        spin_ = !channels.empty() && channels.front()->spins();
        poll_before_sleep_ =
            channels.empty() ? std::chrono::microseconds(0) : channels.front()->poll_before_sleep();
        flows_ = make_flows(std::move(channels), plan);
    }

    load_result run() {
        run_primers(flows_, plan_);
        if (plan_.timestamps) {
            start_stamps(flows_, outputs_.program);
        }
        if (plan_.setup_began) {
            result_.setup_s =
                std::chrono::duration<double>(clock::now() - *plan_.setup_began).count();
        }
        deal_out_flows();
        run_workers();
        record_plan();
        add_workers();
        add_flows();
        result_.partially_reliable = plan_.partially_reliable();
        result_.per_stream = merge_streams(sinks_, plan_.streams);
        add_servers();
        close_outputs();
        return std::move(result_);
    }

  private:
    // Flow i goes to worker i mod T; each worker records into a sink of its
    // own, and writes the latency file's rows through a writer of its own.
    void deal_out_flows() {
        thread_count_ =
            static_cast<unsigned>(std::clamp<std::size_t>(plan_.threads, 1, flows_.size()));
        writers_.resize(thread_count_);
        groups_.resize(thread_count_);
        for (unsigned t = 0; t < thread_count_; ++t) {
            sinks_.push_back(std::make_unique<sample_sink>());
            if (plan_.one_way) {
                sinks_[t]->one_way = std::make_unique<one_way_split>();
            }
            if (plan_.timestamps) {
                sinks_[t]->split = new_split();
            }
            if (plan_.streams > 1) {
                sinks_[t]->per_stream.replies.resize(plan_.streams);
                sinks_[t]->per_stream.latency.resize(
                    std::min<std::size_t>(plan_.streams, stream_samples_with_latency));
            }
            for (std::size_t s = 0; plan_.servers.size() > 1 && s < plan_.servers.size(); ++s) {
                sinks_[t]->per_server.push_back(std::make_unique<log_linear_histogram>());
            }
            if (latencies_) {
                writers_[t].emplace(latencies_->make_writer());
                sinks_[t]->file = &*writers_[t];
            }
            if (plan_.watch != nullptr) {
                sinks_[t]->timeline = plan_.watch->timeline(t, thread_count_);
            }
        }
        for (std::size_t i = 0; i < flows_.size(); ++i) {
            groups_[i % thread_count_].push_back(flows_[i].get());
        }
    }

    // Starts the workers, lets them go at t0, writes each interval while
    // they run, and joins them; throws the first failure of any of them.
    void run_workers() {
        interval_collector collector(thread_count_);
        shared_run shared;
        shared.interval = plan_.interval;
        shared.spin = spin_;
        shared.poll_before_sleep = poll_before_sleep_;
        shared.collector = &collector;
        usage_start_ = read_process_usage();

        worker_threads threads(shared);
        worker_cpus_ = worker_cpus(plan_.cpus, thread_count_);
        for (unsigned t = 0; t < thread_count_; ++t) {
            threads.start([&, t] { run_worker(groups_[t], *sinks_[t], plan_, shared); });
            // Before the start: a worker only registers its flows until then.
            if (!worker_cpus_.empty()) {
                threads.pin_last(worker_cpus_[t]);
            }
        }
        shared.wait_for_workers(thread_count_);
        start_at_t0(shared);
        // The main thread reports intervals while the workers run.
        while (!collector.drained()) {
            if (auto slot = collector.next(longest_wait)) {
                if (shared.interval) {
                    intervals_->write(*slot, result_.client_rss);
                }
            }
        }
        threads.join();
        usage_end_ = read_process_usage();
        if (plan_.watch != nullptr) {
            plan_.watch->measurement_ended(clock::now());
        }
        if (shared.error) {
            std::rethrow_exception(shared.error);
        }
    }

    // Once every worker is ready: sets t0, opens the interval outputs, and
    // lets the workers go. The warm-up (--warmup) runs from t0 unrecorded;
    // the measurement, its intervals and the latency file's times begin
    // after it.
    void start_at_t0(shared_run& shared) {
        shared.t0 = choose_t0(plan_, groups_.front().size());
        t0_ = shared.t0;
        shared.measure_from = shared.t0 + plan_.warmup;
        measure_from_ = shared.measure_from;
        // Measuring begins after the warm-up from t0, or from when the
        // workers are let go if that is later (a main thread woken late):
        // the start is then that late.
        result_.began = wall_time_of(std::max(shared.t0, clock::now()) + plan_.warmup);
        if (plan_.duration) {
            shared.stop_at = shared.measure_from + *plan_.duration;
        }
        for (auto& sink : sinks_) {
            sink->t0 = shared.measure_from;
        }
        intervals_.emplace(plan_, outputs_, shared.measure_from, wall_time_of(shared.measure_from));
        if (plan_.watch != nullptr) {
            plan_.watch->measuring_from(shared.measure_from);
        }
        shared.start();
    }

    // --timestamps: a split of this run's kind. Only TCP's kernel stamps
    // what it sends; the server's stamps come with --one-way, and so do its
    // transmit stamps over TCP (stats/round_trip_split.hpp).
    std::unique_ptr<round_trip_split> new_split() const {
        return std::make_unique<round_trip_split>(plan_.transport == transport_protocol::tcp,
                                                  plan_.one_way.has_value(),
                                                  plan_.server_transmit_stamps);
    }

    // What was asked for, as the report states it.
    void record_plan() {
        result_.mode = plan_.mode;
        result_.flows = static_cast<unsigned>(flows_.size());
        result_.threads = thread_count_;
        result_.worker_cpus = worker_cpus_;
        result_.echo_every = plan_.echo_every;
        result_.payload_bytes = plan_.payload_bytes;
        result_.reply_bytes = plan_.reply_bytes;
        result_.rate_asked_per_s = plan_.rate_per_s;
        result_.batch = plan_.batch;
        result_.reconnect = plan_.reconnect;
        if (plan_.mode == protocol::test_mode::rate) {
            result_.tick_rate_per_s = plan_.tick_rate_per_s;
            result_.arrivals = plan_.arrivals;
            if (plan_.arrivals == arrival_process::poisson) {
                result_.seed = plan_.seed;
            }
        }
    }

    // The run's length, the client's CPU and memory, and the latency of
    // every worker's flows merged.
    void add_workers() {
        auto last_end = measure_from_;
        for (const auto& sink : sinks_) {
            last_end = std::max(last_end, sink->finished_at);
        }
        result_.duration_s = std::chrono::duration<double>(last_end - measure_from_).count();
        result_.client_cpu_percent = cpu_percent_between(usage_start_, usage_end_);
        result_.client_rss.add(usage_end_.rss_kib);
        result_.corrected = std::make_unique<log_linear_histogram>();
        result_.uncorrected = std::make_unique<log_linear_histogram>();
        if (plan_.one_way) {
            result_.one_way = std::make_unique<one_way_split>();
        }
        if (plan_.timestamps) {
            result_.split = new_split();
        }
        for (const auto& sink : sinks_) {
            if (result_.one_way) {
                result_.one_way->merge(*sink->one_way);
            }
            if (result_.split) {
                result_.split->merge(*sink->split);
            }
            result_.corrected->merge(sink->corrected_run);
            result_.uncorrected->merge(sink->uncorrected_run);
            result_.schedule_slip.merge(sink->slip);
            const auto active = sink->finished_at - t0_;
            result_.worker_busy_percent.push_back(
                active.count() > 0 ? 100.0 * std::chrono::duration<double>(sink->busy) / active
                                   : 0.0);
        }
    }

    // Reads each flow's account from the server (blocking), in flow order.
    void add_flows() {
        double rate_sum = 0.0;
        for (auto& flow : flows_) {
            auto flow_result = flow->finish();
            result_.sending_s = std::max(result_.sending_s, flow->sending_s());
            add_flow_counts(result_, flow_result);
            rate_sum += flow_result.rate_per_s;
            result_.per_flow.push_back(std::move(flow_result));
        }
        result_.rate_achieved_per_s = rate_sum / static_cast<double>(flows_.size());
    }

    // Fan-out: each server's share, from its flows' counts and accounts and
    // the workers' latencies of its flows.
    void add_servers() {
        const auto count = plan_.servers.size();
        if (count <= 1) {
            return;
        }
        for (std::size_t s = 0; s < count; ++s) {
            server_result server;
            server.server = plan_.servers[s];
            server.latency = std::make_unique<log_linear_histogram>();
            for (const auto& sink : sinks_) {
                server.latency->merge(*sink->per_server[s]);
            }
            result_.per_server.push_back(std::move(server));
        }
        for (const auto& flow : result_.per_flow) {
            add_server_counts(result_.per_server[flow.flow % count], flow);
        }
    }

    // Throws std::system_error when a file's last writes fail.
    void close_outputs() {
        writers_.clear();
        if (latencies_) {
            latencies_->close();
        }
        intervals_->close();
    }

    const load_plan& plan_;
    const load_outputs& outputs_;
    std::optional<latency_file> latencies_;
    bool spin_ = false;
    std::chrono::microseconds poll_before_sleep_{0};
    std::vector<std::unique_ptr<load_flow>> flows_;
    unsigned thread_count_ = 0;
    std::vector<unsigned> worker_cpus_;  // worker t's CPU at t; empty: not pinned one by one
    // Per worker: its sink, its writer of the latency file, its flows.
    std::vector<std::unique_ptr<sample_sink>> sinks_;
    std::vector<std::optional<latency_file::writer>> writers_;
    std::vector<std::vector<load_flow*>> groups_;
    clock::time_point t0_;            // the load's start, the warm-up's if any
    clock::time_point measure_from_;  // t0 + the warm-up
    process_usage usage_start_;       // as the workers start
    process_usage usage_end_;         // once they are joined
    std::optional<interval_writer> intervals_;
    load_result result_;
};

}  // namespace

load_result run_load_test(std::vector<std::unique_ptr<message_channel>> channels,
                          const load_plan& plan, const load_outputs& outputs) {
    return load_run(std::move(channels), plan, outputs).run();
}

}  // namespace sctp_perf
