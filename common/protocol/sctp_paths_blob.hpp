// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a server tells the client of its SCTP paths, in two blobs it already
// sends: its path settings in use, in the settings blob's "sctp_paths"
// (server_settings_blob.hpp), and the path events of the client's
// association, in the account blob's "paths" (server_account_blob.hpp).
// Both are added members: a client that does not know them ignores them,
// and one that knows them reads a server that sends none as before.
//
// "sctp_paths": {"hb_interval_ms", "hb_enabled", "path_max_retrans",
//   "assoc_max_retrans", "pf_threshold" (left out where the kernel has no
//   SCTP_PEER_ADDR_THLDS), "pf_exposed" (left out where it cannot tell of
//   potentially-failed paths), "primary", "pf_enable", "pf_expose" (the
//   server's net.sctp.* settings, left out where unreadable)}
//
// "paths": {"events": [{"monotonic_ns", "realtime_ns", "event", "address",
//   "error"}, ...], "events_dropped", "sends_failed"}: each event stamped on
//   the server's CLOCK_MONOTONIC and CLOCK_REALTIME as its reader took it
//   (sctp_path_events.hpp); "event" is one of the names of
//   transport/sctp_notification.hpp's name_of(sctp_path_change).
//
// The peer is not trusted (blob_member.hpp): a member missing or of the
// wrong type reads as its default, an event that is not an object is
// skipped, and at most max_path_events are read.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sctp_perf::protocol {

struct sctp_paths_blob {
    std::uint64_t hb_interval_ms = 0;
    bool hb_enabled = false;
    std::uint64_t path_max_retrans = 0;
    std::uint64_t assoc_max_retrans = 0;
    std::optional<std::uint64_t> pf_threshold;
    std::optional<bool> pf_exposed;
    std::string primary;
    std::optional<std::uint64_t> pf_enable;
    std::optional<std::uint64_t> pf_expose;
    friend bool operator==(const sctp_paths_blob&, const sctp_paths_blob&) = default;
};

nlohmann::ordered_json encode_sctp_paths(const sctp_paths_blob& paths);
sctp_paths_blob decode_sctp_paths(const nlohmann::json& doc);

// The most events read from one account: a server keeps fewer
// (sctp_path_watch::max_events), so only a broken peer sends more.
inline constexpr std::size_t max_path_events = 4096;

struct path_event_blob {
    std::uint64_t monotonic_ns = 0;
    std::uint64_t realtime_ns = 0;
    std::string event;  // "unreachable", "available", ...
    std::string address;
    std::int64_t error = 0;
    friend bool operator==(const path_event_blob&, const path_event_blob&) = default;
};

struct path_events_blob {
    std::vector<path_event_blob> events;
    std::uint64_t events_dropped = 0;
    std::uint64_t sends_failed = 0;
    friend bool operator==(const path_events_blob&, const path_events_blob&) = default;
};

nlohmann::ordered_json encode_path_events(const path_events_blob& paths);
path_events_blob decode_path_events(const nlohmann::json& doc);

}  // namespace sctp_perf::protocol
