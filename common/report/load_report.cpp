// SPDX-License-Identifier: Apache-2.0
#include "report/load_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <ostream>
#include <utility>

#include "report/defined_statistics.hpp"
#include "report/histogram_log.hpp"
#include "report/run_notes.hpp"
#include "report/sctp_report.hpp"
#include "report/transport_json.hpp"
#include "stats/latency_recorder.hpp"

namespace sctp_perf {
namespace {

using json = nlohmann::ordered_json;

double us(double ns) {
    return ns / 1000.0;
}

// Beyond flows_listed_in_full flows, the text names this many of the worst.
constexpr std::size_t worst_flows_listed = 10;

// A flow's p50, p99 and max in microseconds; none when no timed message of
// the flow was answered.
struct flow_figures {
    std::optional<double> p50_us, p99_us, max_us;
};

flow_figures figures_of(const flow_result& f) {
    const auto& h = f.latency;
    if (h.count() == 0) {
        return {};
    }
    return {us(h.percentile_ns(500'000)), us(h.percentile_ns(990'000)),
            us(static_cast<double>(h.max_ns()))};
}

void write_latency(std::ostream& out, const char* title, const log_linear_histogram& h) {
    fmt::print(out, "{}\n", title);
    if (h.count() == 0) {
        fmt::print(out, "\tno timed message was answered\n\n");
        return;
    }
    const auto stddev = defined_stddev_us(h);
    fmt::print(out, "\tnum_points {}  min {:.3f}  mean {:.3f}  stddev {}\n", h.count(),
               us(static_cast<double>(h.min_ns())), us(h.mean_ns()),
               stddev ? fmt::format("{:.3f}", *stddev) : "-");
    for (const auto& p : reported_percentiles) {
        fmt::print(out, "\t{:<8}{:12.3f}\n", p.label, us(h.percentile_ns(p.parts_per_million)));
    }
    fmt::print(out, "\t{:<8}{:12.3f}\n\n", "max", us(static_cast<double>(h.max_ns())));
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
               us(slip.percentile_ns(500'000)), us(slip.percentile_ns(990'000)),
               us(static_cast<double>(slip.max_ns())));
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

// The value at rank ceil(n / 2), and the ends, of unsorted `values` (n > 0).
spread_us spread_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return {values.front(), values[(values.size() + 1) / 2 - 1], values.back()};
}

}  // namespace

flow_spread spread_over_flows(const load_result& l, std::size_t worst_count) {
    flow_spread spread;
    std::vector<double> p50s;
    std::vector<double> p99s;
    std::vector<std::size_t> timed;
    for (std::size_t i = 0; i < l.per_flow.size(); ++i) {
        const auto figures = figures_of(l.per_flow[i]);
        if (figures.p50_us) {
            p50s.push_back(*figures.p50_us);
            p99s.push_back(*figures.p99_us);
            timed.push_back(i);
        }
    }
    spread.timed_flows = timed.size();
    if (timed.empty()) {
        return spread;
    }
    spread.p50 = spread_of(p50s);
    spread.p99 = spread_of(p99s);
    // p99s[k] belongs to per_flow[timed[k]]; sort positions k, worst first.
    std::vector<std::size_t> order(timed.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto shown = std::min(worst_count, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown),
                      order.end(), [&](std::size_t a, std::size_t b) {
                          return p99s[a] != p99s[b] ? p99s[a] > p99s[b] : a < b;
                      });
    for (std::size_t k = 0; k < shown; ++k) {
        spread.worst.push_back(timed[order[k]]);
    }
    return spread;
}

void write_flow_csv(std::ostream& out, const load_result& l) {
    // Fan-out adds the flow's server as a last column.
    const bool fan_out = !l.per_server.empty();
    fmt::print(out,
               "flow,messages_sent,messages_replied,messages_lost,rate_per_s,p50_us,p99_us,"
               "max_us{}\n",
               fan_out ? ",server" : "");
    const auto field = [](const std::optional<double>& v) {
        return v ? fmt::format("{:.3f}", *v) : std::string();
    };
    for (const auto& f : l.per_flow) {
        const auto figures = figures_of(f);
        fmt::print(out, "{},{},{},{},{:.3f},{},{},{}{}\n", f.flow, f.messages_sent,
                   f.messages_replied, f.messages_lost, f.rate_per_s, field(figures.p50_us),
                   field(figures.p99_us), field(figures.max_us),
                   fan_out ? "," + l.per_server[f.flow % l.per_server.size()].server : "");
    }
}

json optional_json(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

json latency_summary_json(const log_linear_histogram& h) {
    if (h.count() == 0) {
        return {{"num_points", 0}};
    }
    return {
        {"num_points", h.count()},
        {"min_us", us(static_cast<double>(h.min_ns()))},
        {"mean_us", us(h.mean_ns())},
        {"stddev_us", optional_json(defined_stddev_us(h))},
        {"max_us", us(static_cast<double>(h.max_ns()))},
    };
}

json latency_percentiles_json(const log_linear_histogram& h) {
    json doc = json::object();
    if (h.count() == 0) {
        return doc;
    }
    for (const auto& p : reported_percentiles) {
        doc[percentile_json_key(p)] = us(h.percentile_ns(p.parts_per_million));
    }
    doc["max_us"] = us(static_cast<double>(h.max_ns()));
    return doc;
}

json latency_json(const log_linear_histogram& h) {
    json doc = latency_summary_json(h);
    doc.update(latency_percentiles_json(h));
    doc["hdr_histogram"] = encode_compressed_histogram(h);
    return doc;
}

namespace {

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

// Fan-out: a server's p50, p99, p99.9 and max in microseconds, of the
// run's headline latency; none when no timed message of its flows was
// answered.
struct server_figures {
    std::optional<double> p50_us, p99_us, p99_9_us, max_us;
};

server_figures figures_of(const server_result& server) {
    const auto& h = *server.latency;
    if (h.count() == 0) {
        return {};
    }
    return {us(h.percentile_ns(500'000)), us(h.percentile_ns(990'000)),
            us(h.percentile_ns(999'000)), us(static_cast<double>(h.max_ns()))};
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

// Every flow's counts and figures, in flow order.
json per_flow_json(const load_result& l) {
    json flows = json::array();
    for (const auto& f : l.per_flow) {
        const auto figures = figures_of(f);
        flows.push_back({{"flow", f.flow},
                         {"messages_sent", f.messages_sent},
                         {"messages_replied", f.messages_replied},
                         {"messages_lost", f.messages_lost},
                         {"messages_abandoned", f.messages_abandoned},
                         {"rate_per_s", f.rate_per_s},
                         {"p50_us", optional_json(figures.p50_us)},
                         {"p99_us", optional_json(figures.p99_us)},
                         {"max_us", optional_json(figures.max_us)}});
    }
    return flows;
}

// A percentile of the schedule slip; null when no message was sent.
json slip_percentile_json(const compact_histogram& slip, std::uint32_t parts_per_million) {
    return slip.count() > 0 ? json(us(slip.percentile_ns(parts_per_million))) : json(nullptr);
}

// The server's account of the run, its flows' accounts added up.
json server_account_json(const server_account& s) {
    return {{"messages_received", s.messages_received},
            {"bytes_received", s.bytes_received},
            {"replies_sent", s.replies_sent},
            {"bytes_sent", s.bytes_sent},
            {"duration_s", s.duration_s},
            {"cpu_percent", s.cpu_percent},
            {"rss_kib", s.rss_kib},
            {"transport", s.transport ? transport_counters_json(*s.transport) : json(nullptr)}};
}

// Fan-out: every server's share, in -H order.
json per_server_json(const load_result& l) {
    json servers = json::array();
    for (const auto& server : l.per_server) {
        const auto figures = figures_of(server);
        servers.push_back({{"server", server.server},
                           {"flows", server.flows},
                           {"messages_sent", server.messages_sent},
                           {"messages_received_by_server", server.messages_received_by_server},
                           {"messages_echo_requested", server.messages_echo_requested},
                           {"messages_replied", server.messages_replied},
                           {"messages_lost", server.messages_lost},
                           {"bytes_sent", server.bytes_sent},
                           {"bytes_replied", server.bytes_replied},
                           {"p50_us", optional_json(figures.p50_us)},
                           {"p99_us", optional_json(figures.p99_us)},
                           {"p99_9_us", optional_json(figures.p99_9_us)},
                           {"max_us", optional_json(figures.max_us)},
                           {"server_account", server_account_json(server.account)}});
    }
    return servers;
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

json load_json(const load_result& l) {
    const bool rate = l.mode == protocol::test_mode::rate;
    json doc = {
        {"mode", std::string(protocol::name_of(l.mode))},
        {"duration_s", l.duration_s},
        {"sending_s", l.sending_s},
        {"setup_s", l.setup_s ? json(*l.setup_s) : json(nullptr)},
        {"flows", l.flows},
        {"threads", l.threads},
        {"worker_cpus", l.worker_cpus.empty() ? json(nullptr) : json(l.worker_cpus)},
        {"echo_every", l.echo_every},
        {"rate_asked_per_s", rate ? json(l.rate_asked_per_s) : json(nullptr)},
        {"arrivals", l.arrivals ? json(std::string(name_of(*l.arrivals))) : json(nullptr)},
        {"seed", l.seed ? json(*l.seed) : json(nullptr)},
        {"tick_rate_per_s", l.tick_rate_per_s ? json(*l.tick_rate_per_s) : json(nullptr)},
        {"batch", l.batch},
        {"send_calls", l.send_calls},
        {"messages_per_send_call", l.messages_per_send_call()},
        {"rate_achieved_per_s", l.rate_achieved_per_s},
        {"messages_sent", l.messages_sent},
        {"messages_received_by_server", l.messages_received_by_server},
        {"messages_echo_requested", l.messages_echo_requested},
        {"messages_replied", l.messages_replied},
        {"bytes_sent", l.bytes_sent},
        {"bytes_replied", l.bytes_replied},
        {"messages_lost", l.messages_lost},
        {"partially_reliable", l.partially_reliable},
        {"messages_abandoned", l.messages_abandoned},
        {"requests_abandoned_by_client_kernel", l.requests_abandoned_by_client_kernel},
        {"replies_abandoned_by_server_kernel", l.replies_abandoned_by_server_kernel},
        {"messages_duplicated", l.messages_duplicated},
        {"payload_mb_per_s_sent", l.payload_mb_per_s_sent()},
        {"payload_mb_per_s_received_by_server", l.payload_mb_per_s_received_by_server()},
        {"schedule_slip_p50_us",
         rate ? slip_percentile_json(l.schedule_slip, 500'000) : json(nullptr)},
        {"schedule_slip_p99_us",
         rate ? slip_percentile_json(l.schedule_slip, 990'000) : json(nullptr)},
        {"schedule_slip_max_us",
         rate ? json(us(static_cast<double>(l.schedule_slip.max_ns()))) : json(nullptr)},
        {"latency_corrected", rate ? latency_json(*l.corrected) : json(nullptr)},
        {"latency_uncorrected", latency_json(*l.uncorrected)},
        {"client_cpu_percent", l.client_cpu_percent},
        {"client_worker_busy_percent", l.worker_busy_percent},
        {"client_rss_kib",
         {{"min", l.client_rss.min_kib()},
          {"avg", l.client_rss.avg_kib()},
          {"max", l.client_rss.max_kib()}}},
        {"server", server_account_json(l.server)},
        {"per_flow", per_flow_json(l)},
        {"per_stream", per_stream_json(l)},
    };
    if (!l.per_server.empty()) {  // fan-out only: one server's reports are as they were
        doc["per_server"] = per_server_json(l);
    }
    return doc;
}

}  // namespace sctp_perf
