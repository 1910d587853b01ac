// SPDX-License-Identifier: Apache-2.0
// The text (ace format) of report/paths_report.hpp: the path settings lines
// of the run description, and the paths, faults and failure blocks.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "protocol/server_settings_blob.hpp"
#include "report/paths_report.hpp"
#include "transport/sctp_notification.hpp"

namespace sctp_perf {
namespace {

// Events listed per end in text; the JSON report has them all.
constexpr std::size_t events_in_text = 20;

std::string or_system(bool given, const std::string& value) {
    return given ? value : "the system's";
}

std::string ms(std::int64_t ns) {
    return fmt::format("{:.3f} ms", static_cast<double>(ns) / 1e6);
}

std::string seconds_text(std::int64_t ns) {
    return fmt::format("{:.3f} s", static_cast<double>(ns) / 1e9);
}

template <typename T>
std::string value_or_dash(const std::optional<T>& v) {
    return v ? fmt::format("{}", *v) : "-";
}

std::string asked_hb(const sctp_path_request& a) {
    if (a.hb_off) {
        return "off";
    }
    return or_system(a.hb_interval_ms.has_value(),
                     a.hb_interval_ms ? fmt::format("{} ms", *a.hb_interval_ms) : "");
}

std::string asked_number(const std::optional<std::uint16_t>& v) {
    return or_system(v.has_value(), v ? fmt::format("{}", *v) : "");
}

void write_system_line(std::ostream& out, const sctp_path_system& s) {
    fmt::print(out,
               "\tsctp paths (system, client's namespace): net.sctp.pf_enable {}, pf_expose {}, "
               "pf_retrans {}, ps_retrans {}, path_max_retrans {}, association_max_retrans {}, "
               "hb_interval {} ms, rto_initial {} rto_min {} rto_max {} ms\n",
               value_or_dash(s.pf_enable), value_or_dash(s.pf_expose), value_or_dash(s.pf_retrans),
               value_or_dash(s.ps_retrans), value_or_dash(s.path_max_retrans),
               value_or_dash(s.association_max_retrans), value_or_dash(s.hb_interval_ms),
               value_or_dash(s.rto_initial_ms), value_or_dash(s.rto_min_ms),
               value_or_dash(s.rto_max_ms));
}

void write_events(std::ostream& out, const char* end, const path_end_events& events,
                  bool several_flows) {
    if (!events.known) {
        fmt::print(out, "\tevents ({}): not known: {}\n", end, events.note);
        return;
    }
    fmt::print(out, "\tevents ({}; clock: {}):{}\n", end, events.clock,
               events.events.empty() ? " none" : "");
    for (std::size_t i = 0; i < events.events.size() && i < events_in_text; ++i) {
        const auto& e = events.events[i];
        fmt::print(out, "\t\t{:9.3f} s {} {}{}{}\n", static_cast<double>(e.at_ns) / 1e9, e.address,
                   e.event, path_change_reason(static_cast<std::int32_t>(e.error)),
                   several_flows ? fmt::format(" (flow {})", e.flow + 1) : "");
    }
    const auto more = events.events.size() > events_in_text
                          ? events.events.size() - events_in_text + events.events_dropped
                          : events.events_dropped;
    if (more > 0) {
        fmt::print(out, "\t\t... {} more (the JSON report lists those kept)\n", more);
    }
}

std::string fault_outcome_text(const fault_row& f) {
    if (!f.started) {
        return "not started: " + f.not_started;
    }
    std::string text = fmt::format("started {} ({})", seconds_text(f.started_ns), f.started_utc);
    if (f.timed_out) {
        text += fmt::format(", killed with its process group after {:.3f} s (--at-timeout)",
                            f.duration_s.value_or(0.0));
    } else if (f.exit_status) {
        text += fmt::format(", took {:.3f} s, exit status {}", f.duration_s.value_or(0.0),
                            *f.exit_status);
    } else if (f.signal) {
        text += fmt::format(", took {:.3f} s, ended by signal {}", f.duration_s.value_or(0.0),
                            *f.signal);
    }
    return text;
}

void write_detection(std::ostream& out, const char* end, const std::optional<timed_figure>& f) {
    fmt::print(out, "\tdetected ({}): {}\n", end,
               f ? fmt::format("{} after the fault ({})", ms(f->after_ns), f->what)
                 : std::string("no potentially-failed or unreachable event after the fault"));
}

void write_prediction(std::ostream& out, const failure_figures& f) {
    if (!f.prediction || !f.inputs) {
        fmt::print(out, "\tpredicted: not known (no RTO of the faulted path was read)\n");
        return;
    }
    const auto& p = *f.prediction;
    const auto& in = *f.inputs;
    std::string pf = p.pf_ms ? fmt::format("potentially failed after {} expiries, {} ms; ",
                                           *p.pf_expiries, *p.pf_ms)
                             : std::string();
    fmt::print(out,
               "\tpredicted: {}unreachable after {} expiries, {} ms (RTO {} ms, {}; rto_max {} "
               "ms; path-max-retrans {}; pf {}{})\n",
               pf, p.unreachable_expiries, p.unreachable_ms, in.rto_ms, f.rto_source, in.rto_max_ms,
               in.path_max_retrans, in.pf_enabled ? "on" : "off",
               in.pf_threshold ? fmt::format(", threshold {}", *in.pf_threshold) : "");
    fmt::print(out, "\tformula: {}\n", detection_formula);
}

std::string path_name(const failure_figures& f, std::uint16_t path) {
    return path < f.path_names.size() ? f.path_names[path] : "?";
}

void write_failure(std::ostream& out, const failure_figures& f) {
    const auto& c = f.cost;
    fmt::print(
        out, "failure (measured from {} at {}{}):\n", f.fault_source, seconds_text(c.fault_ns),
        f.fault_command_s ? fmt::format(", its command took {:.3f} s", *f.fault_command_s) : "");
    fmt::print(out, "\tfaulted path: {}\n",
               c.fault_path != 0
                   ? path_name(f, c.fault_path) + " (it carried the last reply before the fault)"
                   : std::string("not known (no reply tells its path)"));
    fmt::print(out, "\tfirst reply on another path: {}\n",
               c.other_path_reply_ns ? fmt::format("{} after the fault", ms(*c.other_path_reply_ns))
                                     : std::string("none"));
    write_detection(out, "client", f.client_detection);
    write_detection(out, "server", f.server_detection);
    write_prediction(out, f);
    if (f.undone_ns) {
        const auto available = [](const std::optional<timed_figure>& a) {
            return a ? fmt::format("{} after ({})", ms(a->after_ns), a->what)
                     : std::string("no available event");
        };
        fmt::print(out,
                   "\tundone by {} at {}: client {}; server {}; replies back on the faulted "
                   "path {}\n",
                   f.undone_source, seconds_text(*f.undone_ns), available(f.client_available),
                   available(f.server_available),
                   c.back_on_path_ns ? ms(*c.back_on_path_ns) + " after" : std::string("never"));
    }
    if (c.longest_gap) {
        fmt::print(out, "\tlongest gap between replies: {}, from {} to {}\n",
                   ms(c.longest_gap->length_ns()), seconds_text(c.longest_gap->from_ns),
                   seconds_text(c.longest_gap->to_ns));
    }
    if (c.unfaulted_p999_ns) {
        fmt::print(out,
                   "\tunfaulted p99.9: {:.3f} us (nearest rank of the {} replies before the "
                   "fault); from the fault on, {} of {} replies took longer\n",
                   static_cast<double>(*c.unfaulted_p999_ns) / 1e3, c.unfaulted_replies,
                   c.later_slower_than_p999, c.later_replies);
    }
    std::string carried;
    for (std::size_t k = 0; k < c.replies_per_path.size(); ++k) {
        if (c.replies_per_path[k] > 0) {
            carried +=
                fmt::format("{}{} {}", carried.empty() ? "" : ", ",
                            path_name(f, static_cast<std::uint16_t>(k)), c.replies_per_path[k]);
        }
    }
    if (!carried.empty()) {
        fmt::print(out, "\treplies carried, by path: {}\n", carried);
    }
    if (f.replies_not_kept > 0) {
        fmt::print(out, "\tnote: {} replies beyond the bound kept are not in these figures\n",
                   f.replies_not_kept);
    }
}

}  // namespace

void write_path_settings_lines(std::ostream& out, const path_failure_report& r,
                               const nlohmann::json& server_settings) {
    if (!r.sctp) {
        return;
    }
    if (r.in_use) {
        const auto& u = *r.in_use;
        fmt::print(out,
                   "\tsctp paths (client, read back): heartbeat {} (asked {}), path-max-retrans "
                   "{} (asked {}), assoc-max-retrans {} (asked {}), pf threshold {} (asked {}), "
                   "primary {} (asked {}), potentially-failed events {}\n",
                   u.hb_enabled ? fmt::format("{} ms", u.hb_interval_ms) : "off", asked_hb(r.asked),
                   u.path_max_retrans, asked_number(r.asked.path_max_retrans), u.assoc_max_retrans,
                   asked_number(r.asked.assoc_max_retrans), value_or_dash(u.pf_threshold),
                   asked_number(r.asked.pf_threshold), u.primary.empty() ? "-" : u.primary,
                   or_system(!r.asked.primary.empty(), r.asked.primary),
                   u.pf_exposed ? (*u.pf_exposed ? "told" : "not told") : "not available");
    }
    write_system_line(out, r.system);
    if (const auto s = protocol::decode_server_settings(server_settings).sctp_paths) {
        fmt::print(out,
                   "\tsctp paths (server, read back): heartbeat {}, path-max-retrans {}, "
                   "assoc-max-retrans {}, pf threshold {}, primary {}; net.sctp.pf_enable {}, "
                   "pf_expose {}\n",
                   s->hb_enabled ? fmt::format("{} ms", s->hb_interval_ms) : "off",
                   s->path_max_retrans, s->assoc_max_retrans, value_or_dash(s->pf_threshold),
                   s->primary.empty() ? "-" : s->primary, value_or_dash(s->pf_enable),
                   value_or_dash(s->pf_expose));
    }
}

void write_paths_blocks(std::ostream& out, const path_failure_report& r) {
    if (r.paths_watched) {
        fmt::print(out,
                   "paths (the first flow's association, SCTP_GET_PEER_ADDR_INFO at the end; "
                   "times in s from the start of the measurement):\n");
        const path_reading* last = r.readings.empty() ? nullptr : &r.readings.back();
        for (const auto& p : last != nullptr ? last->paths.paths : std::vector<peer_path_info>{}) {
            fmt::print(out, "\t{}: {}, srtt {} ms, rto {} ms, cwnd {} bytes, mtu {}{}\n", p.address,
                       p.state, p.srtt_ms, p.rto_ms, p.cwnd_bytes, p.mtu_bytes,
                       p.address == last->paths.primary ? ", primary" : "");
        }
        bool several_flows = false;
        for (const auto* end : {&r.client, &r.server}) {
            for (const auto& e : end->events) {
                several_flows = several_flows || e.flow > 0;
            }
        }
        write_events(out, "client", r.client, several_flows);
        write_events(out, "server", r.server, several_flows);
        fmt::print(out, "\tmessages not delivered (SCTP_SEND_FAILED_EVENT): client {}, server {}\n",
                   r.client.sends_failed,
                   r.server.known ? fmt::format("{}", r.server.sends_failed) : "-");
        fmt::print(out, "\n");
    }
    if (!r.faults.empty()) {
        fmt::print(out, "faults (--at; times from the start of the measurement):\n");
        for (const auto& f : r.faults) {
            fmt::print(out, "\t{}: at {:.3f} s: {}; output {}: {}\n", f.index, f.at_s,
                       fault_outcome_text(f), f.output_file, f.command);
        }
        fmt::print(out, "\n");
    }
    if (r.failure) {
        write_failure(out, *r.failure);
        fmt::print(out, "\n");
    }
}

}  // namespace sctp_perf
