// SPDX-License-Identifier: Apache-2.0
// The JSON report: every number of the ACE report plus the configuration and
// the environment, in one document, so a script never parses the text layout.
// Keys keep their documented order (ordered_json) so that diffs of two result
// files line up. Format version 2: no key contains a dot, every time carries
// its unit in its key, lists are always lists, floats carry no binary noise
// (json_numbers.hpp), and empty bins are left out unless --all-bins is given.
// "hdr_histogram" beside "percentiles" (and in each load-mode latency) is the
// full-resolution histogram they come from, in HdrHistogram's V2 compressed
// base64 encoding (histogram_log.hpp), so that runs can be merged later; an
// added key, so the version stays.
// With --repeat the figures are those of every run pooled, and "runs" and
// "aggregate" (repeat_report.hpp) follow at the end: keys a single run's
// report does not have, so the version stays.

#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

#include "errors.hpp"
#include "protocol/wire_protocol.hpp"
#include "report/defined_statistics.hpp"
#include "report/histogram_log.hpp"
#include "report/json_numbers.hpp"
#include "report/load_report.hpp"
#include "report/one_way_report.hpp"
#include "report/round_trip_split_report.hpp"
#include "report/run_notes.hpp"
#include "report/run_report.hpp"
#include "report/sctp_report.hpp"
#include "runtime/cpu_affinity.hpp"
#include "runtime/interrupt.hpp"
#include "version.hpp"

namespace sctp_perf {
namespace {

using json = nlohmann::ordered_json;

json rto_json(const sctp_rto_values& v) {
    return {{"initial_ms", v.initial_ms}, {"min_ms", v.min_ms}, {"max_ms", v.max_ms}};
}

// --warmup: its length and what ran in it, round trips (ping-pong) or
// messages (a load mode, all flows); null without a warm-up.
json warmup_json(const run_report& r) {
    if (r.options.warmup.count() == 0) {
        return nullptr;
    }
    const bool load = r.load != nullptr;
    return {
        {"duration_s", std::chrono::duration<double>(r.options.warmup).count()},
        {"round_trips", load ? json(nullptr) : json(r.warmup_round_trips)},
        {"messages", load ? json(r.load->warmup_messages) : json(nullptr)},
    };
}

json config_json(const run_report& r) {
    const auto& o = r.options;
    json config = {
        {"service", std::string(name_of(r.program.service))},
        {"transport", std::string(name_of(o.common.transport))},
        {"nagle", o.common.nagle},
        {"spin", o.common.spin},
        {"poll_before_sleep_us", o.common.poll_before_sleep.count()},
        {"cpu", o.common.cpus.empty() ? json(nullptr) : json(describe_cpus(o.common.cpus))},
        {"payload_power_of_2", o.payload_power_of_2() ? json(o.payload_power) : json(nullptr)},
        {"payload_bytes", o.payload_bytes()},
        {"reply_bytes", reply_bytes_of(o)},
        {"echo", o.echo},
        {"one_way", o.one_way},
        {"timestamps", o.timestamps},
        {"half_rtt", o.half_rtt},
        {"mode", std::string(protocol::name_of(o.mode))},
        {"iterations", o.iterations},
        {"duration_s",
         o.duration ? json(std::chrono::duration<double>(*o.duration).count()) : json(nullptr)},
        {"primer_iterations", o.primer_iterations},
        {"warmup_s", std::chrono::duration<double>(o.warmup).count()},
        {"server_hosts", o.server_hosts},
        {"server_port", o.server_port},
        {"client_port", o.client_port},
        {"client_addresses", o.client_addresses},
        {"io_timeout_s", static_cast<double>(o.common.io_timeout.count()) / 1000.0},
        {"histogram",
         {{"min_us", o.histogram.min_us},
          {"max_us", o.histogram.max_us},
          {"bin_count", o.histogram.bin_count},
          {"max_outliers", o.histogram.max_outliers}}},
    };
    if (o.fan_out()) {  // one server's reports are as they were
        json servers = json::array();
        for (const auto& server : o.servers) {
            servers.push_back(endpoint_text(server));
        }
        config["servers"] = servers;
    }
    if (o.load_mode()) {
        config["rate_per_s"] =
            o.mode == protocol::test_mode::rate ? json(o.rate_per_s) : json(nullptr);
        config["echo_every"] = o.echo_every;
        config["batch"] = o.batch;
        config["tick_rate_per_s"] = o.tick_rate_per_s ? json(*o.tick_rate_per_s) : json(nullptr);
        config["flows"] = o.flows;
        config["threads"] = o.threads;
    }
    const auto buffer = [](const std::optional<int>& v) { return v ? json(*v) : json(nullptr); };
    if (r.repeats != nullptr) {
        config["repeat"] = o.repeat;
        config["pause_s"] = std::chrono::duration<double>(o.pause).count();
    }
    config["all_bins"] = o.all_bins;
    config["sndbuf_requested_bytes"] = buffer(o.common.buffers.send_bytes);
    config["rcvbuf_requested_bytes"] = buffer(o.common.buffers.receive_bytes);
    config["bind_device"] =
        o.common.bind_device.empty() ? json(nullptr) : json(o.common.bind_device);
    config["max_seg_requested_bytes"] =
        o.common.max_seg_bytes ? json(*o.common.max_seg_bytes) : json(nullptr);
    if (o.common.transport == transport_protocol::sctp) {
        const auto& rto = o.common.sctp_rto;
        const auto optional_ms = [](const std::optional<std::uint32_t>& v) {
            return v ? json(*v) : json(nullptr);
        };
        config["sctp_rto_requested"] = {{"initial_ms", optional_ms(rto.initial_ms)},
                                        {"min_ms", optional_ms(rto.min_ms)},
                                        {"max_ms", optional_ms(rto.max_ms)}};
    }
    return config;
}

json environment_json(const run_report& r) {
    const auto& env = r.environment;
    json environment = {
        {"hostname", env.hostname},
        {"kernel", env.kernel},
        {"cpu_count", env.cpu_count},
        {"client_cpu_affinity", env.client_cpu_affinity},
        {"client_pinned", client_placement(r).pinned},
        {"local_addresses", r.local_addresses},
        {"peer_addresses", r.peer_addresses},
        {"started_at", env.started_at},
        {"measurement_began_at",
         r.measurement_began ? json(utc_iso_text(*r.measurement_began)) : json(nullptr)},
    };
    if (r.client_buffers) {
        environment["client_sndbuf_bytes"] = r.client_buffers->send_bytes;
        environment["client_rcvbuf_bytes"] = r.client_buffers->receive_bytes;
    }
    if (r.client_bind_device) {
        environment["client_bind_device"] = *r.client_bind_device;
    }
    if (r.client_max_seg_bytes) {
        environment["client_max_seg_bytes"] = *r.client_max_seg_bytes;
    }
    if (!r.client_interfaces.empty()) {
        json interfaces = json::array();
        for (const auto& device : r.client_interfaces) {
            interfaces.push_back({{"name", device.name}, {"addresses", device.host_list()}});
        }
        environment["client_interfaces"] = interfaces;
    }
    if (r.sctp_rto_socket) {
        environment["sctp_rto_socket"] = rto_json(*r.sctp_rto_socket);
    }
    if (r.sctp_rto_system) {
        environment["sctp_rto_system"] = rto_json(*r.sctp_rto_system);
    }
    return environment;
}

json clock_json(const run_report& r) {
    if (!r.clock) {
        return nullptr;
    }
    const auto overhead = loop_overhead_ns(r);
    return {
        {"source", r.clock->source.empty() ? json(nullptr) : json(r.clock->source)},
        {"resolution_ns", r.clock->resolution_ns},
        {"read_cost_ns", r.clock->read_cost_ns},
        {"loop_overhead_ns", overhead ? json(*overhead) : json(nullptr)},
    };
}

// --start-at: the instant asked for, when the measurement began, and how
// late that was; null without --start-at.
json start_at_json(const run_report& r) {
    if (!r.options.start_at) {
        return nullptr;
    }
    const auto late_us = start_late_us(r);
    return {
        {"requested", utc_iso_text(*r.options.start_at)},
        {"actual", r.measurement_began ? json(utc_iso_text(*r.measurement_began)) : json(nullptr)},
        {"late_us", late_us ? json(*late_us) : json(nullptr)},
    };
}

json header_json(const run_report& r) {
    const bool open_loop = r.load != nullptr && (r.options.mode == protocol::test_mode::rate ||
                                                 r.options.mode == protocol::test_mode::throughput);
    json doc = {
        {"tool", "sctp-perf"},
        {"tool_version", version_string},
        {"format_version", json_format_version},
        {"program", r.program.name},
        {"units", "microseconds"},
        {"loop", open_loop ? "open" : "closed"},
        {"interrupted", r.interrupted_by != 0},
        {"interrupted_by",
         r.interrupted_by != 0 ? json(signal_name(r.interrupted_by)) : json(nullptr)},
    };
    // Runs that a failure ended: the runs done are reported, with the error
    // and the exit status as a failed run's document has them.
    if (const auto failure = repeat_failure(r)) {
        doc["error"] = *failure;
        doc["exit_code"] = exit_runtime_failure;
    }
    doc["config"] = config_json(r);
    doc["environment"] = environment_json(r);
    doc["start_at"] = start_at_json(r);
    doc["warmup"] = warmup_json(r);
    doc["clock"] = clock_json(r);
    doc["warnings"] = run_warnings(r);
    return doc;
}

// With --repeat: each run's own figures, then the spread over the runs.
void add_repeats(json& doc, const run_report& r) {
    if (r.repeats != nullptr) {
        doc["runs"] = runs_json(*r.repeats);
        doc["aggregate"] = aggregate_json(*r.repeats);
    }
}

// Fan-out: what each server said of itself ("server" is the first's), and
// whether they differ in it.
void add_fan_out_servers(json& doc, const run_report& r) {
    if (r.servers.size() <= 1) {
        return;
    }
    json servers = json::array();
    for (const auto& server : r.servers) {
        servers.push_back({{"server", server.address},
                           {"connected_to", server.peer_addresses},
                           {"settings", server.settings}});
    }
    doc["servers"] = servers;
    doc["server_settings_differ"] = server_settings_differ(r);
}

// --one-way, --timestamps and --half-rtt: keys a run without them does not
// have.
void add_split(json& doc, const run_report& r, const log_linear_histogram& rtt) {
    if (r.one_way != nullptr) {
        doc["one_way"] = one_way_json(*r.one_way);
    }
    if (r.kernel_split != nullptr) {
        doc["round_trip_split"] = round_trip_split_json(*r.kernel_split);
    }
    if (r.options.half_rtt) {
        doc[half_rtt_json_key] = half_rtt_json(rtt);
    }
}

// The paths (SCTP), the --at commands and the failure, as keys a run
// without them does not have: the settings asked for in the config and
// those in use in the environment, as the RTOs are, and "paths" (SCTP),
// "faults" (--at) and "failure" (a fault, or a path that failed).
void add_paths(json& doc, const run_report& r) {
    if (!r.path_failure) {
        return;
    }
    const auto& p = *r.path_failure;
    if (p.sctp) {
        doc["config"]["sctp_paths_requested"] = path_settings_requested_json(p.asked);
        if (p.in_use) {
            doc["environment"]["sctp_paths_socket"] = path_settings_json(*p.in_use);
        }
        doc["environment"]["sctp_paths_system"] = path_system_json(p.system);
    }
    if (p.paths_watched) {
        doc["paths"] = paths_json(p);
    }
    if (!p.faults.empty()) {
        doc["faults"] = faults_json(p);
    }
    if (p.failure) {
        doc["failure"] = failure_json(p);
    }
}

void write_document(std::ostream& out, json& doc) {
    round_json_floats(doc);
    out << doc.dump(2) << '\n';
}

// A load run: `summary` and `percentiles` hold the headline latency (see
// load_result::headline), and there is no fixed-bin histogram.
void write_load_json(std::ostream& out, const run_report& r) {
    json doc = header_json(r);
    const auto& headline = r.load->headline();
    doc["summary"] = latency_summary_json(headline);
    doc["summary"]["duration_s"] = r.duration_s;
    doc["percentiles"] = latency_percentiles_json(headline);
    doc["hdr_histogram"] = encode_compressed_histogram(headline);
    add_split(doc, r, headline);
    doc["load"] = load_json(*r.load);
    doc["sctp"] = client_sctp_json(r);
    doc["transport"] = client_transport_json(r);
    doc["server"] = r.server_settings;
    add_fan_out_servers(doc, r);
    add_paths(doc, r);
    add_repeats(doc, r);
    write_document(out, doc);
}

json optional_number(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

// The closed loop's summary; the figures a count does not define are null
// (defined_statistics.hpp).
json ping_pong_summary_json(const latency_recorder& rec, double duration_s) {
    const auto& summary = rec.summary();
    const bool empty = summary.count() == 0;
    return {
        {"num_points", summary.count()},
        {"min_us", empty ? json(nullptr) : json(summary.min())},
        {"max_us", empty ? json(nullptr) : json(summary.max())},
        {"mean_us", empty ? json(nullptr) : json(summary.mean())},
        {"variance_us2", optional_number(defined_variance(summary))},
        {"stddev_us", optional_number(defined_stddev(summary))},
        {"duration_s", duration_s},
        {"beyond_range", rec.percentiles().beyond_range_count()},
    };
}

json ping_pong_percentiles_json(const latency_recorder& rec) {
    const auto& summary = rec.summary();
    const bool empty = summary.count() == 0;
    json percentiles = json::object();
    for (const auto& p : reported_percentiles) {
        percentiles[percentile_json_key(p)] =
            empty ? json(nullptr)
                  : json(rec.percentiles().percentile_ns(p.parts_per_million) / 1000.0);
    }
    percentiles["max_us"] = empty ? json(nullptr) : json(summary.max());
    return percentiles;
}

// The client's CPU over the measured iterations; the server's is null, and
// "server_note" says why.
json ping_pong_cpu_json(const run_report& r) {
    const double user = client_cpu_percent(r.client_cpu_user_s, r);
    const double system = client_cpu_percent(r.client_cpu_system_s, r);
    return {
        {"client_percent", user + system},
        {"client_user_percent", user},
        {"client_system_percent", system},
        {"server_percent", nullptr},
        {"server_note", std::string(plain_ping_pong_server_cpu)},
    };
}

// The fixed bins; those with a count of 0 only with --all-bins.
json bins_json(const binned_histogram& bins, bool all_bins) {
    json bin_rows = json::array();
    for (std::size_t i = 0; i < bins.layout().bin_count; ++i) {
        if (bins.bin(i) != 0 || all_bins) {
            bin_rows.push_back({{"low_us", bins.bin_low(i)},
                                {"high_us", bins.bin_high(i)},
                                {"count", bins.bin(i)}});
        }
    }
    return {{"below", bins.below()},
            {"above", bins.above()},
            {"bins_shown", all_bins ? "all" : "nonzero"},
            {"bins", bin_rows}};
}

// The kept outliers with their iteration numbers (with --repeat, their runs).
json outliers_json(const binned_histogram& bins, const repeat_account* repeats) {
    json outliers = json::array();
    for (const auto& o : bins.outliers()) {
        if (repeats != nullptr) {
            const auto where = locate_iteration(*repeats, o.iteration);
            outliers.push_back(
                {{"run", where.run}, {"iteration", where.iteration}, {"rtt_us", o.value_us}});
        } else {
            outliers.push_back({{"iteration", o.iteration}, {"rtt_us", o.value_us}});
        }
    }
    return outliers;
}

}  // namespace

void write_json_report(std::ostream& out, const run_report& r) {
    if (r.load != nullptr) {
        write_load_json(out, r);
        return;
    }
    const latency_recorder& rec = *r.recorder;
    json doc = header_json(r);
    doc["summary"] = ping_pong_summary_json(rec, r.duration_s);
    doc["percentiles"] = ping_pong_percentiles_json(rec);
    doc["hdr_histogram"] = encode_compressed_histogram(rec.percentiles());
    add_split(doc, r, rec.percentiles());
    doc["histogram"] = bins_json(rec.bins(), r.options.all_bins);
    doc["outliers"] = outliers_json(rec.bins(), r.repeats);
    doc["cpu"] = ping_pong_cpu_json(r);
    doc["sctp"] = client_sctp_json(r);
    doc["transport"] = client_transport_json(r);
    doc["server"] = r.server_settings;
    add_paths(doc, r);
    add_repeats(doc, r);
    write_document(out, doc);
}

void write_json_error(std::ostream& out, const program_info& program, const std::string& error,
                      int exit_code) {
    json doc = {
        {"tool", "sctp-perf"},
        {"tool_version", version_string},
        {"format_version", json_format_version},
        {"program", program.name},
        {"error", error},
        {"exit_code", exit_code},
    };
    out << doc.dump(2) << '\n';
}

}  // namespace sctp_perf
