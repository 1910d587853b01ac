// SPDX-License-Identifier: Apache-2.0
#include "protocol/sctp_paths_blob.hpp"

#include "protocol/blob_member.hpp"

namespace sctp_perf::protocol {

nlohmann::ordered_json encode_sctp_paths(const sctp_paths_blob& p) {
    nlohmann::ordered_json doc = {
        {"hb_interval_ms", p.hb_interval_ms},
        {"hb_enabled", p.hb_enabled},
        {"path_max_retrans", p.path_max_retrans},
        {"assoc_max_retrans", p.assoc_max_retrans},
    };
    if (p.pf_threshold) {
        doc["pf_threshold"] = *p.pf_threshold;
    }
    if (p.pf_exposed) {
        doc["pf_exposed"] = *p.pf_exposed;
    }
    doc["primary"] = p.primary;
    if (p.pf_enable) {
        doc["pf_enable"] = *p.pf_enable;
    }
    if (p.pf_expose) {
        doc["pf_expose"] = *p.pf_expose;
    }
    return doc;
}

sctp_paths_blob decode_sctp_paths(const nlohmann::json& doc) {
    sctp_paths_blob p;
    p.hb_interval_ms = blob_member<std::uint64_t>(doc, "hb_interval_ms").value_or(0);
    p.hb_enabled = blob_member<bool>(doc, "hb_enabled").value_or(false);
    p.path_max_retrans = blob_member<std::uint64_t>(doc, "path_max_retrans").value_or(0);
    p.assoc_max_retrans = blob_member<std::uint64_t>(doc, "assoc_max_retrans").value_or(0);
    p.pf_threshold = blob_member<std::uint64_t>(doc, "pf_threshold");
    p.pf_exposed = blob_member<bool>(doc, "pf_exposed");
    p.primary = blob_member<std::string>(doc, "primary").value_or("");
    p.pf_enable = blob_member<std::uint64_t>(doc, "pf_enable");
    p.pf_expose = blob_member<std::uint64_t>(doc, "pf_expose");
    return p;
}

nlohmann::ordered_json encode_path_events(const path_events_blob& p) {
    auto events = nlohmann::ordered_json::array();
    for (const auto& e : p.events) {
        events.push_back({{"monotonic_ns", e.monotonic_ns},
                          {"realtime_ns", e.realtime_ns},
                          {"event", e.event},
                          {"address", e.address},
                          {"error", e.error}});
    }
    return {
        {"events", events}, {"events_dropped", p.events_dropped}, {"sends_failed", p.sends_failed}};
}

namespace {

// An error code may be negative; blob_member reads counts only.
std::int64_t error_of(const nlohmann::json& event) {
    const auto it = event.find("error");
    if (it == event.end() || !it->is_number_integer()) {
        return 0;
    }
    return it->get<std::int64_t>();
}

}  // namespace

path_events_blob decode_path_events(const nlohmann::json& doc) {
    path_events_blob p;
    p.events_dropped = blob_member<std::uint64_t>(doc, "events_dropped").value_or(0);
    p.sends_failed = blob_member<std::uint64_t>(doc, "sends_failed").value_or(0);
    if (!doc.is_object()) {
        return p;
    }
    const auto events = doc.find("events");
    if (events == doc.end() || !events->is_array()) {
        return p;
    }
    for (const auto& e : *events) {
        if (!e.is_object()) {
            continue;
        }
        if (p.events.size() >= max_path_events) {
            ++p.events_dropped;
            continue;
        }
        path_event_blob event;
        event.monotonic_ns = blob_member<std::uint64_t>(e, "monotonic_ns").value_or(0);
        event.realtime_ns = blob_member<std::uint64_t>(e, "realtime_ns").value_or(0);
        event.event = blob_member<std::string>(e, "event").value_or("unknown");
        event.address = blob_member<std::string>(e, "address").value_or("");
        event.error = error_of(e);
        p.events.push_back(std::move(event));
    }
    return p;
}

}  // namespace sctp_perf::protocol
