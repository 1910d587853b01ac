// SPDX-License-Identifier: Apache-2.0
// The load section of the text report (write_load_summary, load_report.hpp).
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "report/defined_statistics.hpp"
#include "report/load_figures.hpp"
#include "report/load_report.hpp"
#include "report/reconnect_report.hpp"
#include "report/sctp_report.hpp"
#include "stats/latency_recorder.hpp"

namespace sctp_perf {
namespace {

// Beyond flows_listed_in_full flows, the text names this many of the worst.
constexpr std::size_t worst_flows_listed = 10;

void write_latency(std::ostream& out, const char* title, const log_linear_histogram& h) {
    fmt::print(out, "{}\n", title);
    if (h.count() == 0) {
        fmt::print(out, "\tno timed message was answered\n\n");
        return;
    }
    const auto stddev = defined_stddev_us(h);
    fmt::print(out, "\tnum_points {}  min {:.3f}  mean {:.3f}  stddev {}\n", h.count(),
               us_of_ns(static_cast<double>(h.min_ns())), us_of_ns(h.mean_ns()),
               stddev ? fmt::format("{:.3f}", *stddev) : "-");
    for (const auto& p : reported_percentiles) {
        fmt::print(out, "\t{:<8}{:12.3f}\n", p.label,
                   us_of_ns(h.percentile_ns(p.parts_per_million)));
    }
    fmt::print(out, "\t{:<8}{:12.3f}\n\n", "max", us_of_ns(static_cast<double>(h.max_ns())));
}

// "p50 12.000 us, p99 80.000 us, max 3360.868 us" of the schedule slip.
void write_slip_line(std::ostream& out, const compact_histogram& slip) {
    if (slip.count() == 0) {
        fmt::print(out, "\tschedule slip: no message was sent\n");
        return;
    }
    fmt::print(out,
               "\tschedule slip: p50 {:.3f} us, p99 {:.3f} us, max {:.3f} us behind a message's "
               "due time\n",
               us_of_ns(slip.percentile_ns(500'000)), us_of_ns(slip.percentile_ns(990'000)),
               us_of_ns(static_cast<double>(slip.max_ns())));
}

// "the busiest of 2 worker threads 15.2 % busy".
std::string describe_worker_busy(const load_result& l) {
    const auto& busy = l.worker_busy_percent;
    if (busy.empty()) {
        return "worker threads not measured";
    }
    const double busiest = *std::max_element(busy.begin(), busy.end());
    if (busy.size() == 1) {
        return fmt::format("its worker thread {:.1f} % busy", busiest);
    }
    return fmt::format("the busiest of {} worker threads {:.1f} % busy", busy.size(), busiest);
}

std::string text_us(const std::optional<double>& v) {
    return v ? fmt::format("{:.3f}", *v) : std::string("-");
}

// One row per flow, under a header row.
template <typename Flows>
void write_flow_rows(std::ostream& out, const Flows& flows) {
    fmt::print(out, "\t{:>5} {:>12} {:>12} {:>14} {:>12} {:>12} {:>12}\n", "flow", "sent",
               "replied", "rate msg/s", "p50 us", "p99 us", "max us");
    for (const flow_result& f : flows) {
        const auto figures = figures_of(f);
        fmt::print(out, "\t{:>5} {:>12} {:>12} {:>14.3f} {:>12} {:>12} {:>12}\n", f.flow,
                   f.messages_sent, f.messages_replied, f.rate_per_s, text_us(figures.p50_us),
                   text_us(figures.p99_us), text_us(figures.max_us));
    }
}

// Many flows: how their p50 and p99 spread, then the ten worst by p99.
void write_flow_spread(std::ostream& out, const load_result& l) {
    const auto spread = spread_over_flows(l, worst_flows_listed);
    const auto untimed = l.per_flow.size() - spread.timed_flows;
    fmt::print(out, "flows: {}, {} latency per flow, microseconds", l.per_flow.size(),
               l.mode == protocol::test_mode::rate ? "corrected" : "uncorrected");
    if (spread.timed_flows == 0) {
        fmt::print(out, ": no flow had a timed reply\n");
        return;
    }
    fmt::print(out, ", spread over the {} flows with a timed reply{}:\n", spread.timed_flows,
               untimed > 0 ? fmt::format(" ({} had none)", untimed) : "");
    fmt::print(out, "\t{:<5} {:>12} {:>12} {:>12}\n", "", "min", "median", "max");
    for (const auto& [label, figure] :
         {std::pair{"p50", spread.p50}, std::pair{"p99", spread.p99}}) {
        fmt::print(out, "\t{:<5} {:>12.3f} {:>12.3f} {:>12.3f}\n", label, figure.min_us,
                   figure.median_us, figure.max_us);
    }
    fmt::print(out,
               "worst flows: the {} with the highest p99 (every flow: --flow-csv FILE, or "
               "load.per_flow in the JSON)\n",
               spread.worst.size());
    std::vector<std::reference_wrapper<const flow_result>> worst;
    for (const auto i : spread.worst) {
        worst.push_back(std::cref(l.per_flow[i]));
    }
    write_flow_rows(out, worst);
}

// The arrival process in words, with what it means for F flows at R each.
std::string describe_arrivals(const load_result& l) {
    const double every_us = 1e6 / (l.rate_asked_per_s * static_cast<double>(l.flows));
    switch (l.arrivals.value_or(arrival_process::uniform)) {
        case arrival_process::uniform:
            return fmt::format(
                "uniform: each flow at its constant rate, the flows' phases spread evenly, so "
                "one message every {:.3f} us in all",
                every_us);
        case arrival_process::poisson:
            if (!l.seed) {  // the runs of --repeat, each with a seed of its own
                return fmt::format(
                    "poisson, a seed drawn for each run (runs[].load.seed in the JSON): "
                    "exponential gaps, one message every {:.3f} us in all on average",
                    every_us);
            }
            return fmt::format(
                "poisson, seed {}: exponential gaps, one message every {:.3f} us in all on "
                "average (--seed {} repeats them)",
                l.seed.value_or(0), every_us, l.seed.value_or(0));
        case arrival_process::in_step:
            return fmt::format(
                "in-step: message k of every flow due at the same instant, a burst of {} every "
                "{:.3f} us (the latencies include the burst's own queue)",
                l.flows, 1e6 / l.rate_asked_per_s);
    }
    return "?";
}

// The title, ACE's two centred lines.
void write_load_title(std::ostream& out, const load_result& l) {
    if (l.mode == protocol::test_mode::framed_ping_pong) {
        fmt::print(out, "\n\n\t\t\t\tsctp-perf ping-pong over {} flow{} (closed loop)\n", l.flows,
                   l.flows == 1 ? "" : "s");
    } else {
        fmt::print(out, "\n\n\t\t\t\tsctp-perf latency under load ({} mode)\n",
                   protocol::name_of(l.mode));
    }
    fmt::print(out, "\t\t\t\t\t(Message Size {}, {} flow{})\n", l.payload_bytes, l.flows,
               l.flows == 1 ? "" : "s");
}

// What the rate was asked to be and what it came to, each mode in its terms.
void write_rate_lines(std::ostream& out, const load_result& l) {
    if (l.mode == protocol::test_mode::rate) {
        fmt::print(out, "\trate: asked {:g} msg/s per flow{}, achieved {:.3f} msg/s per flow\n",
                   l.rate_asked_per_s,
                   l.flows > 1 ? fmt::format(" ({:g} in all)",
                                             l.rate_asked_per_s * static_cast<double>(l.flows))
                               : "",
                   l.rate_achieved_per_s);
        fmt::print(out, "\tarrivals: {}\n", describe_arrivals(l));
        if (l.tick_rate_per_s) {
            fmt::print(out,
                       "\tticks: {:g} per second: the messages due within each tick of {:.3f} us "
                       "go together at its start, and are timed from it\n",
                       *l.tick_rate_per_s, 1e6 / *l.tick_rate_per_s);
        }
    } else if (l.mode == protocol::test_mode::framed_ping_pong) {
        fmt::print(out,
                   "\trate: each flow waits for each reply (a stall counts once; --rate shows "
                   "what an open loop sees), achieved {:.1f} round trips/s per flow\n",
                   l.rate_achieved_per_s);
    } else {
        fmt::print(out, "\trate: as fast as the transport takes, achieved {:.1f} msg/s per flow\n",
                   l.rate_achieved_per_s);
    }
}

// The load modes' system calls per message (--batch): how many messages
// each send call carried, the warm-up's included.
void write_send_calls_line(std::ostream& out, const load_result& l) {
    if (l.mode != protocol::test_mode::rate && l.mode != protocol::test_mode::throughput) {
        return;
    }
    fmt::print(out,
               "\tsend calls: {:.3f} messages per system call, up to {} (--batch): {} messages "
               "in {} calls\n",
               l.messages_per_send_call(), l.batch, l.messages_sent + l.warmup_messages,
               l.send_calls);
}

// The client's and the server's CPU and memory; the server's line closes
// the load block.
void write_ends_lines(std::ostream& out, const load_result& l) {
    fmt::print(out,
               "\tclient: cpu {:.1f} % of one CPU, {}, rss {} KiB (min {} avg {:.0f} max {})\n",
               l.client_cpu_percent, describe_worker_busy(l), l.client_rss.max_kib(),
               l.client_rss.min_kib(), l.client_rss.avg_kib(), l.client_rss.max_kib());
    fmt::print(out,
               "\tserver: received {} messages ({} bytes, primer included), sent {} replies "
               "({} bytes), cpu {:.1f} % of one CPU, rss {} KiB\n\n",
               l.server.messages_received, l.server.bytes_received, l.server.replies_sent,
               l.server.bytes_sent, l.server.cpu_percent, l.server.rss_kib);
}

// The latency blocks (corrected first, the headline, in rate mode), then
// every flow's row, or with many flows their spread and the worst.
void write_load_latency(std::ostream& out, const load_result& l) {
    if (l.mode == protocol::test_mode::rate) {
        write_latency(
            out,
            "latency corrected (from each message's due time to its reply; the headline), "
            "microseconds:",
            *l.corrected);
    }
    write_latency(out, "latency uncorrected (from each message's send to its reply), microseconds:",
                  *l.uncorrected);
    if (l.per_flow.size() <= flows_listed_in_full) {
        fmt::print(out, "flows:\n");
        write_flow_rows(out, l.per_flow);
    } else {
        write_flow_spread(out, l);
    }
    fmt::print(out, "\n");
}

// Fan-out: a row per server, its share of the run.
void write_server_rows(std::ostream& out, const load_result& l) {
    if (l.per_server.empty()) {
        return;
    }
    fmt::print(out,
               "servers: {}, flow k to server k modulo {}; messages as in the load block "
               "(received: the server's own account), {} latency, microseconds:\n",
               l.per_server.size(), l.per_server.size(),
               l.mode == protocol::test_mode::rate ? "corrected" : "uncorrected");
    fmt::print(out, "\t{:<24} {:>6} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "server",
               "flows", "sent", "received", "replied", "p50 us", "p99 us", "p99.9 us", "max us");
    for (const auto& server : l.per_server) {
        const auto figures = figures_of(server);
        fmt::print(out, "\t{:<24} {:>6} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}\n",
                   server.server, server.flows, server.messages_sent,
                   server.messages_received_by_server, server.messages_replied,
                   text_us(figures.p50_us), text_us(figures.p99_us), text_us(figures.p99_9_us),
                   text_us(figures.max_us));
    }
    fmt::print(out, "\n");
}

}  // namespace

void write_load_summary(std::ostream& out, const load_result& l) {
    write_load_title(out, l);
    fmt::print(out, "load:\n");
    fmt::print(out, "\tsizes: request {} bytes, reply {} bytes{}\n", l.payload_bytes, l.reply_bytes,
               l.reply_bytes == l.payload_bytes ? " (an echo)" : "");
    write_rate_lines(out, l);
    fmt::print(out, "\tflows: {} on {} thread{}{}, {} timed\n", l.flows, l.threads,
               l.threads == 1 ? "" : "s",
               l.worker_cpus.empty() ? std::string()
                                     : fmt::format(" pinned one each to CPUs {} (--cpu)",
                                                   fmt::join(l.worker_cpus, ", ")),
               l.echo_every == 1 ? std::string("every message")
                                 : fmt::format("one message in {}", l.echo_every));
    write_send_calls_line(out, l);
    fmt::print(out, "\tduration: {:.3f} s (sending {:.3f} s)\n", l.duration_s, l.sending_s);
    if (l.setup_s) {
        fmt::print(out, "\tset-up: {:.3f} s to connect, negotiate and prime {} flow{}\n",
                   *l.setup_s, l.flows, l.flows == 1 ? "" : "s");
    }
    fmt::print(out,
               "\tmessages: sent {}, received by the server {}, replies asked {}, replied {}, "
               "lost {}, duplicated {}\n",
               l.messages_sent, l.messages_received_by_server, l.messages_echo_requested,
               l.messages_replied, l.messages_lost, l.messages_duplicated);
    write_abandoned_line(out, l);
    write_reconnect_lines(out, l);
    fmt::print(
        out, "\tpayload: {:.3f} MB/s sent, {:.3f} MB/s received by the server (MB = 10^6 bytes)\n",
        l.payload_mb_per_s_sent(), l.payload_mb_per_s_received_by_server());
    if (l.mode == protocol::test_mode::rate) {
        write_slip_line(out, l.schedule_slip);
    }
    write_ends_lines(out, l);
    write_load_latency(out, l);
    write_server_rows(out, l);
    write_stream_table(out, l);
}

}  // namespace sctp_perf
