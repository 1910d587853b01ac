// SPDX-License-Identifier: Apache-2.0
// The JSON of report/paths_report.hpp. Times carry their unit in their key
// (_s, _ms, _us), from the start of the measurement unless the key says
// "after" (the fault, or its undoing); a figure not known is null.
#include <nlohmann/json.hpp>

#include "report/paths_report.hpp"

namespace sctp_perf {
namespace {

using json = nlohmann::ordered_json;

double s_of(std::int64_t ns) {
    return static_cast<double>(ns) / 1e9;
}

double ms_of(std::int64_t ns) {
    return static_cast<double>(ns) / 1e6;
}

template <typename T>
json or_null(const std::optional<T>& v) {
    return v ? json(*v) : json(nullptr);
}

json events_json(const path_end_events& end) {
    if (!end.known) {
        return {{"known", false}, {"note", end.note}};
    }
    json events = json::array();
    for (const auto& e : end.events) {
        events.push_back({{"at_s", s_of(e.at_ns)},
                          {"event", e.event},
                          {"address", e.address},
                          {"error", e.error},
                          {"flow", e.flow}});
    }
    return {{"known", true},
            {"clock", end.clock},
            {"events", events},
            {"events_dropped", end.events_dropped},
            {"sends_failed", end.sends_failed}};
}

json association_json(const association_paths& paths) {
    json list = json::array();
    for (const auto& p : paths.paths) {
        list.push_back({{"address", p.address},
                        {"state", p.state},
                        {"srtt_ms", p.srtt_ms},
                        {"rto_ms", p.rto_ms},
                        {"cwnd_bytes", p.cwnd_bytes},
                        {"mtu_bytes", p.mtu_bytes}});
    }
    return {{"primary", paths.primary.empty() ? json(nullptr) : json(paths.primary)},
            {"paths", list}};
}

json figure_json(const std::optional<timed_figure>& f) {
    if (!f) {
        return nullptr;
    }
    return {{"after_ms", ms_of(f->after_ns)}, {"what", f->what}};
}

json prediction_json(const failure_figures& f) {
    if (!f.prediction || !f.inputs) {
        return nullptr;
    }
    const auto& p = *f.prediction;
    const auto& in = *f.inputs;
    return {{"formula", detection_formula},
            {"rto_ms", in.rto_ms},
            {"rto_source", f.rto_source},
            {"rto_max_ms", in.rto_max_ms},
            {"path_max_retrans", in.path_max_retrans},
            {"pf_enabled", in.pf_enabled},
            {"pf_threshold", or_null(in.pf_threshold)},
            {"unreachable_expiries", p.unreachable_expiries},
            {"unreachable_ms", p.unreachable_ms},
            {"pf_expiries", or_null(p.pf_expiries)},
            {"pf_ms", or_null(p.pf_ms)},
            {"first_ms", p.first_ms()}};
}

}  // namespace

json path_settings_requested_json(const sctp_path_request& a) {
    return {{"hb_interval_ms", a.hb_off ? json("off") : or_null(a.hb_interval_ms)},
            {"path_max_retrans", or_null(a.path_max_retrans)},
            {"assoc_max_retrans", or_null(a.assoc_max_retrans)},
            {"pf_threshold", or_null(a.pf_threshold)},
            {"primary", a.primary.empty() ? json(nullptr) : json(a.primary)}};
}

json path_settings_json(const sctp_path_values& v) {
    return {{"hb_interval_ms", v.hb_interval_ms},
            {"hb_enabled", v.hb_enabled},
            {"path_max_retrans", v.path_max_retrans},
            {"assoc_max_retrans", v.assoc_max_retrans},
            {"pf_threshold", or_null(v.pf_threshold)},
            {"primary", v.primary.empty() ? json(nullptr) : json(v.primary)},
            {"pf_exposed", or_null(v.pf_exposed)}};
}

json path_system_json(const sctp_path_system& s) {
    return {{"pf_enable", or_null(s.pf_enable)},
            {"pf_expose", or_null(s.pf_expose)},
            {"pf_retrans", or_null(s.pf_retrans)},
            {"ps_retrans", or_null(s.ps_retrans)},
            {"path_max_retrans", or_null(s.path_max_retrans)},
            {"association_max_retrans", or_null(s.association_max_retrans)},
            {"hb_interval_ms", or_null(s.hb_interval_ms)},
            {"rto_initial_ms", or_null(s.rto_initial_ms)},
            {"rto_min_ms", or_null(s.rto_min_ms)},
            {"rto_max_ms", or_null(s.rto_max_ms)}};
}

json paths_json(const path_failure_report& r) {
    if (!r.paths_watched) {
        return nullptr;
    }
    json readings = json::array();
    for (const auto& reading : r.readings) {
        json one = {{"at_s", s_of(reading.at_ns)}, {"why", reading.why}};
        one.update(association_json(reading.paths));
        readings.push_back(one);
    }
    return {
        {"client", events_json(r.client)},
        {"server", events_json(r.server)},
        {"final", r.readings.empty() ? json(nullptr) : association_json(r.readings.back().paths)},
        {"readings", readings}};
}

json faults_json(const path_failure_report& r) {
    if (r.faults.empty()) {
        return nullptr;
    }
    json faults = json::array();
    for (const auto& f : r.faults) {
        faults.push_back({{"index", f.index},
                          {"at_s", f.at_s},
                          {"command", f.command},
                          {"output_file", f.output_file},
                          {"started", f.started},
                          {"started_s", f.started ? json(s_of(f.started_ns)) : json(nullptr)},
                          {"started_utc", f.started ? json(f.started_utc) : json(nullptr)},
                          {"duration_s", or_null(f.duration_s)},
                          {"exit_status", or_null(f.exit_status)},
                          {"signal", or_null(f.signal)},
                          {"timed_out", f.timed_out},
                          {"not_started", f.started ? json(nullptr) : json(f.not_started)}});
    }
    return faults;
}

json failure_json(const path_failure_report& r) {
    if (!r.failure) {
        return nullptr;
    }
    const auto& f = *r.failure;
    const auto& c = f.cost;
    const auto name = [&f](std::uint16_t path) {
        return path != 0 && path < f.path_names.size() ? json(f.path_names[path]) : json(nullptr);
    };
    json carried = json::object();
    for (std::size_t k = 0; k < c.replies_per_path.size(); ++k) {
        if (c.replies_per_path[k] > 0) {
            carried[k < f.path_names.size() ? f.path_names[k] : "?"] = c.replies_per_path[k];
        }
    }
    return {
        {"fault_source", f.fault_source},
        {"fault_s", s_of(c.fault_ns)},
        {"fault_inferred", c.fault_inferred},
        {"fault_command_s", or_null(f.fault_command_s)},
        {"faulted_path", name(c.fault_path)},
        {"other_path_reply_after_ms",
         c.other_path_reply_ns ? json(ms_of(*c.other_path_reply_ns)) : json(nullptr)},
        {"client_detection", figure_json(f.client_detection)},
        {"server_detection", figure_json(f.server_detection)},
        {"predicted", prediction_json(f)},
        {"undone_source", f.undone_ns ? json(f.undone_source) : json(nullptr)},
        {"undone_s", f.undone_ns ? json(s_of(*f.undone_ns)) : json(nullptr)},
        {"client_available", figure_json(f.client_available)},
        {"server_available", figure_json(f.server_available)},
        {"back_on_path_after_ms",
         c.back_on_path_ns ? json(ms_of(*c.back_on_path_ns)) : json(nullptr)},
        {"longest_gap_ms", c.longest_gap ? json(ms_of(c.longest_gap->length_ns())) : json(nullptr)},
        {"longest_gap_from_s", c.longest_gap ? json(s_of(c.longest_gap->from_ns)) : json(nullptr)},
        {"longest_gap_to_s", c.longest_gap ? json(s_of(c.longest_gap->to_ns)) : json(nullptr)},
        {"unfaulted_replies", c.unfaulted_replies},
        {"unfaulted_p99_9_us", c.unfaulted_p999_ns
                                   ? json(static_cast<double>(*c.unfaulted_p999_ns) / 1e3)
                                   : json(nullptr)},
        {"later_replies", c.later_replies},
        {"later_slower_than_p99_9", c.later_slower_than_p999},
        {"replies_by_path", carried},
        {"replies_not_kept", f.replies_not_kept},
    };
}

}  // namespace sctp_perf
