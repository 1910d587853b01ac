// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a server tells each accepted client about itself, as the settings blob
// that follows the verdict, so that the client's report describes both ends:
// a server started with another -n, RTO, buffer size or CPU shows up there.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "options/server_options.hpp"
#include "transport/sctp_path_settings.hpp"

namespace sctp_perf {

// The parts that are the same for every session, read once at start.
struct server_identity {
    std::string program;  // "SOCK_STREAM_srv"
    std::string host;
    std::string kernel;
    std::string cpu_affinity;  // CPUs the server may run on, e.g. "0-1", after --cpu
    unsigned cpu_count = 0;
    bool spin = false;  // sessions poll their sockets (--spin)
    // Without spin: how long a wait polls before it sleeps (--poll-before-sleep).
    std::chrono::microseconds poll_before_sleep{0};
    unsigned threads = 1;  // worker threads, each an event loop over many sessions
    // The CPU each worker is pinned to (--cpu with more than one worker),
    // worker i's at i; empty when they run where the process may.
    std::vector<unsigned> worker_cpus;
    // How requests reach the sessions: "one-to-one" sockets, or associations
    // peeled off a one-to-many socket.
    std::string data_path;
    std::optional<std::string> boot_id;  // this boot's id, for one-way latency
    transport_protocol transport = transport_protocol::sctp;
    bool nagle = false;
    std::optional<std::uint32_t> max_seg_bytes;  // --max-seg, as asked
    sctp_feature_request sctp;                   // also how its replies travel (PR-SCTP)
    // net.sctp.pf_enable and pf_expose, read once at start: each session's
    // settings state them, and a server of a thousand associations must
    // not read /proc a thousand times over.
    std::optional<std::uint32_t> sctp_pf_enable;
    std::optional<std::uint32_t> sctp_pf_expose;
    // Every association's paths are watched (server/session_paths.hpp): a
    // path option was given, or several addresses to listen on.
    bool watches_paths = false;
    std::chrono::milliseconds header_timeout{2000};  // for the whole test header
    std::chrono::milliseconds io_timeout{10'000};    // for every later message
    // A test hook (server_options::test_reply_delay): each ping-pong reply
    // is held this long; 0 for every server a user runs.
    std::chrono::microseconds test_reply_delay{0};
    std::chrono::microseconds test_wake_delay{0};  // likewise (--test-wake-delay)
};

// Call after --cpu has been applied (pin_process), so that the affinity
// read here is the one the sessions run with.
server_identity read_server_identity(const server_options& options, const program_info& program);

// The settings blob for a session on `fd` (JSON text): the identity plus what
// the session's socket really uses, read back from it. Its keys: "version"
// (sctp-perf's), "protocol_version", "program", "host", "kernel",
// "cpu_count", "cpu_affinity", "spin", "poll_before_sleep_us", "threads", "worker_cpus",
// "data_path", "transport", "nagle", "sndbuf_bytes", "rcvbuf_bytes", "bind_device",
// "max_seg_requested_bytes", "max_seg_bytes", "sctp_rto" and "sctp" (null over TCP), "boot_id" and
// "realtime_minus_monotonic_ns" (sampled as the settings are made). `assoc_id` names the test's
// association on a shared one-to-many socket.
std::string server_settings_json(const server_identity& identity, int fd,
                                 std::int32_t assoc_id = 0);

}  // namespace sctp_perf
