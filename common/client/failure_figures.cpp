// SPDX-License-Identifier: Apache-2.0
#include "client/failure_figures.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "client/one_way_timing.hpp"
#include "protocol/server_settings_blob.hpp"

namespace sctp_perf {
namespace {

void sort_and_bound(path_end_events& end) {
    std::stable_sort(
        end.events.begin(), end.events.end(),
        [](const path_event_row& a, const path_event_row& b) { return a.at_ns < b.at_ns; });
    if (end.events.size() > max_report_path_events) {
        end.events_dropped += end.events.size() - max_report_path_events;
        end.events.resize(max_report_path_events);
    }
}

bool is_failure(const std::string& event) {
    return event == name_of(sctp_path_change::unreachable) ||
           event == name_of(sctp_path_change::potentially_failed);
}

// The first event of `end` at or after `from_ns` that `wanted` takes, on
// `address` (any address when empty).
template <typename Wanted>
std::optional<timed_figure> first_event(const path_end_events* end, std::int64_t from_ns,
                                        const std::string& address, Wanted wanted) {
    if (end == nullptr) {
        return std::nullopt;
    }
    for (const auto& e : end->events) {
        if (e.at_ns >= from_ns && wanted(e.event) && (address.empty() || e.address == address)) {
            return timed_figure{e.at_ns - from_ns, e.event + " " + e.address};
        }
    }
    return std::nullopt;
}

// Every flow's replies on one numbering of the paths: path k of the result
// is names[k], names[0] being the unknown path.
std::vector<reply_sample> replies_on_one_numbering(const failure_inputs& in,
                                                   std::vector<std::string>& names) {
    names = {"?"};
    std::vector<std::vector<std::uint16_t>> global(in.flow_path_addresses.size());
    for (std::size_t flow = 0; flow < in.flow_path_addresses.size(); ++flow) {
        global[flow].push_back(0);
        for (const auto& address : in.flow_path_addresses[flow]) {
            auto found = std::find(names.begin(), names.end(), address);
            if (found == names.end()) {
                names.push_back(address);
                found = names.end() - 1;
            }
            global[flow].push_back(static_cast<std::uint16_t>(found - names.begin()));
        }
    }
    std::vector<reply_sample> replies;
    for (const auto* timeline : in.timelines) {
        for (const auto& r : timeline->replies()) {
            std::uint16_t path = 0;
            if (r.flow < global.size() && r.path < global[r.flow].size()) {
                path = global[r.flow][r.path];
            }
            replies.push_back({r.start_ns, r.arrived_ns, path});
        }
    }
    return replies;
}

// The --at commands that started, by when they started.
std::vector<const fault_row*> started_faults(const std::vector<fault_row>* faults) {
    std::vector<const fault_row*> started;
    if (faults != nullptr) {
        for (const auto& f : *faults) {
            if (f.started) {
                started.push_back(&f);
            }
        }
    }
    std::stable_sort(started.begin(), started.end(), [](const fault_row* a, const fault_row* b) {
        return a->started_ns < b->started_ns;
    });
    return started;
}

// The faulted path's RTO when the fault came: read at the fault's own --at
// command where there is one, else at the last reading before it.
std::optional<std::pair<std::uint64_t, std::string>> rto_at_fault(
    const std::vector<path_reading>& readings, std::int64_t fault_ns, const std::string& why,
    const std::string& address) {
    const path_reading* chosen = nullptr;
    for (const auto& r : readings) {
        if (!why.empty() && r.why == why) {
            chosen = &r;
            break;
        }
        if (r.at_ns <= fault_ns && (chosen == nullptr || r.at_ns >= chosen->at_ns)) {
            chosen = &r;
        }
    }
    if (chosen == nullptr) {
        return std::nullopt;
    }
    const auto& wanted = address.empty() ? chosen->paths.primary : address;
    for (const auto& p : chosen->paths.paths) {
        if (p.address == wanted) {
            return std::pair{std::uint64_t{p.rto_ms},
                             fmt::format("{}'s, read {} at {:.3f} s", p.address, chosen->why,
                                         static_cast<double>(chosen->at_ns) / 1e9)};
        }
    }
    return std::nullopt;
}

}  // namespace

path_end_events client_path_events(const std::vector<std::shared_ptr<sctp_path_watch>>& flows,
                                   std::int64_t t0_ns) {
    path_end_events end;
    end.clock = "client";
    for (std::size_t flow = 0; flow < flows.size(); ++flow) {
        if (!flows[flow]) {
            continue;
        }
        end.known = true;
        end.events_dropped += flows[flow]->events_dropped();
        end.sends_failed += flows[flow]->sends_failed();
        for (const auto& e : flows[flow]->events()) {
            end.events.push_back({e.monotonic_ns - t0_ns, name_of(e.change), e.address, e.error,
                                  static_cast<unsigned>(flow)});
        }
    }
    sort_and_bound(end);
    return end;
}

path_end_events server_path_events(
    const std::vector<std::optional<protocol::path_events_blob>>& server_paths, bool accounts,
    const std::vector<nlohmann::json>& server_settings, std::int64_t t0_ns,
    std::int64_t t0_wall_ns) {
    path_end_events end;
    if (!accounts) {
        end.note =
            "plain ping-pong has no end-of-test account to carry them: the server logs them "
            "(the framed modes, --rate, --throughput or ping-pong with --interval, bring them "
            "here)";
        return end;
    }
    bool one_host = true;
    for (std::size_t flow = 0; flow < server_paths.size(); ++flow) {
        if (!server_paths[flow]) {
            continue;
        }
        const auto& settings = server_settings.empty()
                                   ? nlohmann::json()
                                   : server_settings[flow % server_settings.size()];
        const auto s = protocol::decode_server_settings(settings);
        const auto clocks = clocks_of(s.boot_id, s.realtime_minus_monotonic_ns);
        one_host = one_host && clocks.same_host;
        end.known = true;
        end.events_dropped += server_paths[flow]->events_dropped;
        end.sends_failed += server_paths[flow]->sends_failed;
        for (const auto& e : server_paths[flow]->events) {
            const auto at = clocks.same_host
                                ? static_cast<std::int64_t>(e.monotonic_ns) - t0_ns
                                : static_cast<std::int64_t>(e.realtime_ns) - t0_wall_ns;
            end.events.push_back({at, e.event, e.address, e.error, static_cast<unsigned>(flow)});
        }
    }
    if (!end.known) {
        end.note =
            "the server kept none: it watches paths when given a path option or several "
            "addresses to listen on (or it is older than this client)";
        return end;
    }
    end.clock = one_host ? "server CLOCK_MONOTONIC (same host as the client)"
                         : "server CLOCK_REALTIME (another host: as good as the clocks' "
                           "synchronization)";
    sort_and_bound(end);
    return end;
}

bool failure_to_measure(const failure_inputs& in) {
    if (!started_faults(in.faults).empty()) {
        return true;
    }
    for (const auto* end : {in.client, in.server}) {
        if (end == nullptr) {
            continue;
        }
        for (const auto& e : end->events) {
            if (e.at_ns >= 0 && is_failure(e.event)) {
                return true;
            }
        }
    }
    return false;
}

failure_figures measure_failure(const failure_inputs& in) {
    failure_figures figures;
    const auto started = started_faults(in.faults);
    failover_window window;
    std::string fault_why;
    if (!started.empty()) {
        // The commands of the earliest instant are the fault (one per host
        // or namespace, say), measured from the first of them to start;
        // the first command of a later instant is its undoing.
        const auto& fault = *started[0];
        window.fault_ns = fault.started_ns;
        fault_why = fmt::format("--at {}", fault.index);
        figures.fault_source = fault_why;
        figures.fault_command_s = fault.duration_s;
        const auto first_at = std::min_element(
            started.begin(), started.end(),
            [](const fault_row* a, const fault_row* b) { return a->at_s < b->at_s; });
        for (const auto* f : started) {
            if (f->at_s > (*first_at)->at_s) {
                window.undone_ns = f->started_ns;
                figures.undone_ns = window.undone_ns;
                figures.undone_source = fmt::format("--at {}", f->index);
                break;
            }
        }
    } else {
        figures.fault_source = "the first request left unanswered";
    }
    for (const auto* timeline : in.timelines) {
        figures.replies_not_kept += timeline->dropped();
    }
    figures.cost = measure_failover_cost(replies_on_one_numbering(in, figures.path_names), window);
    const auto fault_ns = figures.cost.fault_ns;
    // Events of the faulted path at the client; where the replies' paths
    // are unknown, of any path.
    const std::string faulted =
        figures.cost.fault_path != 0 ? figures.path_names[figures.cost.fault_path] : "";
    figures.client_detection = first_event(in.client, fault_ns, faulted, is_failure);
    figures.server_detection = first_event(in.server, fault_ns, "", is_failure);
    if (window.undone_ns) {
        const auto available = [](const std::string& e) {
            return e == name_of(sctp_path_change::available);
        };
        figures.client_available = first_event(in.client, *window.undone_ns, faulted, available);
        figures.server_available = first_event(in.server, *window.undone_ns, "", available);
    }
    if (in.rto_max_ms && in.in_use && in.readings != nullptr) {
        if (const auto rto = rto_at_fault(*in.readings, fault_ns, fault_why, faulted)) {
            detection_inputs inputs;
            inputs.rto_ms = rto->first;
            inputs.rto_max_ms = *in.rto_max_ms;
            inputs.path_max_retrans = in.in_use->path_max_retrans;
            inputs.pf_enabled = in.system.pf_enable.value_or(0) == 1;
            inputs.pf_threshold = in.in_use->pf_threshold;
            figures.inputs = inputs;
            figures.prediction = predict_detection(inputs);
            figures.rto_source = rto->second;
        }
    }
    return figures;
}

}  // namespace sctp_perf
