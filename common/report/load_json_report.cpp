// SPDX-License-Identifier: Apache-2.0
// The load section of the JSON report (load_json, load_report.hpp), and the
// latency objects every JSON report writes.
#include <optional>
#include <string>

#include "report/defined_statistics.hpp"
#include "report/histogram_log.hpp"
#include "report/load_figures.hpp"
#include "report/load_report.hpp"
#include "report/reconnect_report.hpp"
#include "report/run_notes.hpp"
#include "report/sctp_report.hpp"
#include "report/transport_json.hpp"
#include "stats/latency_recorder.hpp"

namespace sctp_perf {

using json = nlohmann::ordered_json;

namespace {

json optional_json(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

}  // namespace

json latency_summary_json(const log_linear_histogram& h) {
    if (h.count() == 0) {
        return {{"num_points", 0}};
    }
    return {
        {"num_points", h.count()},
        {"min_us", us_of_ns(static_cast<double>(h.min_ns()))},
        {"mean_us", us_of_ns(h.mean_ns())},
        {"stddev_us", optional_json(defined_stddev_us(h))},
        {"max_us", us_of_ns(static_cast<double>(h.max_ns()))},
    };
}

json latency_percentiles_json(const log_linear_histogram& h) {
    json doc = json::object();
    if (h.count() == 0) {
        return doc;
    }
    for (const auto& p : reported_percentiles) {
        doc[percentile_json_key(p)] = us_of_ns(h.percentile_ns(p.parts_per_million));
    }
    doc["max_us"] = us_of_ns(static_cast<double>(h.max_ns()));
    return doc;
}

json latency_json(const log_linear_histogram& h) {
    json doc = latency_summary_json(h);
    doc.update(latency_percentiles_json(h));
    doc["hdr_histogram"] = encode_compressed_histogram(h);
    return doc;
}

namespace {

// Every flow's counts and figures, in flow order.
json per_flow_json(const load_result& l) {
    json flows = json::array();
    for (const auto& f : l.per_flow) {
        const auto figures = figures_of(f);
        json flow = {{"flow", f.flow},
                     {"messages_sent", f.messages_sent},
                     {"messages_replied", f.messages_replied},
                     {"messages_lost", f.messages_lost},
                     {"messages_abandoned", f.messages_abandoned},
                     {"rate_per_s", f.rate_per_s},
                     {"p50_us", optional_json(figures.p50_us)},
                     {"p99_us", optional_json(figures.p99_us)},
                     {"max_us", optional_json(figures.max_us)}};
        if (l.reconnect.enabled) {
            flow["outages"] = flow_outages_json(f);
        }
        flows.push_back(std::move(flow));
    }
    return flows;
}

// A percentile of the schedule slip; null when no message was sent.
json slip_percentile_json(const compact_histogram& slip, std::uint32_t parts_per_million) {
    return slip.count() > 0 ? json(us_of_ns(slip.percentile_ns(parts_per_million))) : json(nullptr);
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
         rate ? json(us_of_ns(static_cast<double>(l.schedule_slip.max_ns()))) : json(nullptr)},
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
    if (l.reconnect.enabled) {
        doc["reconnect"] = reconnect_json(l);
    }
    return doc;
}

}  // namespace sctp_perf
