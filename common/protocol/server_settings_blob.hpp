// SPDX-License-Identifier: Apache-2.0
#pragma once
// The settings blob: what a server tells each accepted client about itself,
// after the verdict (wire_protocol.hpp), so that the client's report
// describes both ends. JSON text, one object, its members in this order:
//
//   "protocol_version", "version" (sctp-perf's), "program", "host", "kernel",
//   "cpu_count", "cpu_affinity", "spin", "poll_before_sleep_us", "threads", "worker_cpus" (worker
//   i's CPU at i, only when --cpu pins them one each), "data_path",
//   "transport", "nagle", "io_timeout_ms", "sndbuf_bytes", "rcvbuf_bytes",
//   "bind_device" ("" when none), "max_seg_requested_bytes" (only when
//   --max-seg was given), "max_seg_bytes" (TCP_MAXSEG or SCTP_MAXSEG read back),
//   "sctp_rto" ({"initial_ms", "min_ms", "max_ms"}, null over TCP),
//   "sctp" (the object below, null over TCP), "sctp_paths" (its path
//   settings in use, sctp_paths_blob.hpp; left out over TCP), "test_reply_delay_us" and
//   "test_wake_delay_us" (only from a server started with its test hooks
//   --test-reply-delay and --test-wake-delay), "boot_id" (the kernel's id
//   of the server's boot: a client with the same one shares its CLOCK_MONOTONIC) and
//   "realtime_minus_monotonic_ns" (its CLOCK_REALTIME minus its CLOCK_MONOTONIC when it sent the
//   settings), for one-way latency.
//
// The "sctp" object, which the client's JSON report writes for its own end
// too: "streams_used", "outbound_streams", "inbound_streams", "unordered",
// "pr_sctp", "pr_supported", "sack_delay_ms", "sack_freq", "scheduler",
// "interleaving".
//
// A client reads a peer it does not trust and servers older than itself:
// each member may be missing, and one of the wrong type or range reads as
// missing (blob_member.hpp).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "protocol/sctp_paths_blob.hpp"

namespace sctp_perf::protocol {

// SCTP's features at one end: what it asked for and what the association
// got. A member the peer left out or got wrong reads as the default here,
// which is what the report prints for it.
struct sctp_features_blob {
    std::uint32_t streams_used = 0;  // asked for (--streams)
    std::uint32_t outbound_streams = 0;
    std::uint32_t inbound_streams = 0;
    bool unordered = false;
    std::string pr_sctp = "none";  // its replies' PR-SCTP policy, as --pr-sctp spells it
    bool pr_supported = false;     // both ends agreed to PR-SCTP
    std::uint32_t sack_delay_ms = 0;
    std::uint32_t sack_freq = 0;
    std::string scheduler = "?";
    bool interleaving = false;  // I-DATA in use
    friend bool operator==(const sctp_features_blob&, const sctp_features_blob&) = default;
};

// The association's retransmission timeouts, as the server's socket has them.
struct sctp_rto_blob {
    std::uint64_t initial_ms = 0;
    std::uint64_t min_ms = 0;
    std::uint64_t max_ms = 0;
    friend bool operator==(const sctp_rto_blob&, const sctp_rto_blob&) = default;
};

// Every member optional, since a client may read an older server's blob; a
// server fills all but the two SCTP ones over TCP.
struct server_settings_blob {
    std::optional<std::uint64_t> protocol_version;
    std::optional<std::string> version;
    std::optional<std::string> program;  // "SOCK_STREAM_srv"
    std::optional<std::string> host;
    std::optional<std::string> kernel;
    std::optional<unsigned> cpu_count;
    std::optional<std::string> cpu_affinity;  // CPUs it may run on, e.g. "0-1"
    std::optional<bool> spin;
    // How long its waits poll before they sleep (--poll-before-sleep); 0:
    // they sleep at once. Missing from servers older than the option.
    std::optional<std::uint64_t> poll_before_sleep_us;
    std::optional<std::uint64_t> threads;  // worker threads
    // The CPU each worker is pinned to, worker i's at i; missing when they
    // are not pinned one each (and read as missing unless every element is
    // a CPU number).
    std::optional<std::vector<unsigned>> worker_cpus;
    std::optional<std::string> data_path;  // how requests reach its sessions
    std::optional<std::string> transport;  // "tcp" or "sctp"
    std::optional<bool> nagle;
    std::optional<std::uint64_t> io_timeout_ms;
    std::optional<std::uint64_t> sndbuf_bytes;  // read back from the session's socket
    std::optional<std::uint64_t> rcvbuf_bytes;
    std::optional<std::string> bind_device;  // SO_BINDTODEVICE read back; "" when none
    std::optional<std::uint64_t> max_seg_requested_bytes;  // --max-seg
    std::optional<std::uint64_t> max_seg_bytes;            // read back from the session's socket
    std::optional<sctp_rto_blob> sctp_rto;
    std::optional<sctp_features_blob> sctp;
    std::optional<sctp_paths_blob> sctp_paths;
    // How long the server holds each ping-pong reply (its test hook
    // --test-reply-delay); missing from every other server.
    std::optional<std::uint64_t> test_reply_delay_us;
    // How late it takes each read's requests (--test-wake-delay), likewise.
    std::optional<std::uint64_t> test_wake_delay_us;
    std::optional<std::string> boot_id;
    std::optional<std::int64_t> realtime_minus_monotonic_ns;
    friend bool operator==(const server_settings_blob&, const server_settings_blob&) = default;
};

// The JSON text, members in the order above. A member without a value is
// left out, except "sctp_rto" and "sctp", which are null then.
std::string encode_server_settings(const server_settings_blob& settings);

// `doc` as the client parsed the text (anything, an object when well formed).
server_settings_blob decode_server_settings(const nlohmann::json& doc);

// The "sctp" object alone.
nlohmann::ordered_json encode_sctp_features(const sctp_features_blob& features);
sctp_features_blob decode_sctp_features(const nlohmann::json& doc);

}  // namespace sctp_perf::protocol
