// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a finished client run hands to the report writers: the configuration,
// where and how it ran, and the recorded round trips. One writer per format,
// each writing to any std::ostream.

#include <chrono>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/load/load_result.hpp"
#include "options/client_options.hpp"
#include "protocol/server_settings_blob.hpp"
#include "report/paths_report.hpp"
#include "report/repeat_report.hpp"
#include "runtime/clock_probe.hpp"
#include "runtime/host_environment.hpp"
#include "stats/latency_recorder.hpp"
#include "stats/one_way_split.hpp"
#include "stats/round_trip_split.hpp"
#include "transport/network_interface.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {

// The machine a result was measured on, so a result file says how it was made.
struct environment_info {
    std::string hostname;
    std::string kernel;               // "Linux 6.1.0-28-cloud-amd64 x86_64"
    unsigned cpu_count = 0;           // online CPUs
    std::string client_cpu_affinity;  // CPUs the client may run on, e.g. "0-1" or "1"
    std::string started_at;           // UTC, ISO 8601
};

// The client's machine as runtime/ read it, and the moment the run started,
// written as UTC in ISO 8601 ("2026-11-26T01:41:08Z").
environment_info describe_environment(const host_environment& host,
                                      std::chrono::system_clock::time_point started_at);

// Fan-out: one of the servers the flows were dealt over, as its first flow
// found it.
struct fan_out_server {
    std::string address;                      // as asked: "host:port"
    std::vector<std::string> peer_addresses;  // connected to
    nlohmann::json settings;                  // what it said of itself
};

struct run_report {
    program_info program;
    client_options options;
    environment_info environment;
    std::vector<std::string> local_addresses;
    std::vector<std::string> peer_addresses;
    std::optional<sctp_rto_values> sctp_rto_socket;  // read back from the socket (SCTP only)
    std::optional<sctp_rto_values> sctp_rto_system;  // net.sctp.rto_* (SCTP only)
    double duration_s = 0.0;                         // wall time of the measured iterations
    // Ping-pong with --warmup: the round trips of the warm-up, not recorded
    // (summed over the runs of --repeat).
    std::uint64_t warmup_round_trips = 0;
    // Ping-pong: the client's CPU time over the measured iterations (summed
    // over the runs of --repeat, as duration_s is), user and system.
    double client_cpu_user_s = 0.0;
    double client_cpu_system_s = 0.0;
    const latency_recorder* recorder = nullptr;
    // --one-way: each measured round trip split by the server's stamps.
    const one_way_split* one_way = nullptr;
    // --timestamps: where each round trip went, by the kernel's stamps.
    const round_trip_split* kernel_split = nullptr;
    const load_result* load = nullptr;                  // set for --rate and --throughput runs
    std::optional<socket_buffer_sizes> client_buffers;  // read back, when --sndbuf/--rcvbuf given
    // Read back from the (first flow's) socket, when --bind-device or
    // --max-seg was given: the device it is tied to, and the segment size
    // the kernel uses on the connection (TCP_MAXSEG, SCTP_MAXSEG).
    std::optional<std::string> client_bind_device;
    std::optional<std::uint32_t> client_max_seg_bytes;
    // The -i entries that name a network interface, with every address
    // each has; the addresses bound are local_addresses.
    std::vector<interface_addresses> client_interfaces;
    // What the server said of itself, as it said it: the JSON report echoes
    // it whole; the rest reads it through protocol::decode_server_settings.
    nlohmann::json server_settings;
    // The same, decoded once as the server accepted the test, for what the
    // client's run takes from it (client/connection_checks.hpp).
    protocol::server_settings_blob decoded_server_settings;
    // Fan-out (several -H servers): each server in -H order, the first
    // being the one server_settings and peer_addresses describe; empty
    // with one server.
    std::vector<fan_out_server> servers;
    std::optional<sctp_feature_state> sctp_features;  // read back from the first flow (SCTP only)
    std::optional<transport_counters> transport;      // ping-pong: its connection's, at the end
    std::optional<clock_info> clock;                  // measured at start
    // When the measurement began, on the wall clock (the first run's with
    // --repeat): the first measured round trip, or the load's t0. Unset when
    // it never did (interrupted before). Reports from several hosts are
    // aligned on it; --start-at asked for options.start_at.
    std::optional<wall_time> measurement_began;
    // The signal (SIGINT, SIGTERM) that ended the measurement early, 0 when
    // it ran to its end: the figures then cover only what came before it.
    int interrupted_by = 0;
    // With --repeat above 1: each run's own figures, from which the reports
    // add the spread over runs; every other member then describes the runs
    // pooled (recorder, load, duration_s and transport over all of them;
    // addresses, server settings and SCTP state those of the first run).
    // nullptr for a single run, whose reports are as they always were.
    const repeat_account* repeats = nullptr;
    // The paths (SCTP), the --at commands and what the fault cost, as the
    // first run saw them (report/paths_report.hpp); unset in unit tests.
    std::optional<path_failure_report> path_failure;
};

// The size of each reply: 2 bytes in ping-pong, a 16-byte copy of the
// request's message header in the load modes.
inline std::size_t reply_bytes_of(const client_options& options) noexcept {
    return options.reply_size();
}

// Ping-pong: the client's CPU time as a share of one CPU over duration_s
// (100 is one CPU kept busy); 0 when nothing was measured.
inline double client_cpu_percent(double cpu_s, const run_report& report) noexcept {
    return report.duration_s > 0.0 ? 100.0 * cpu_s / report.duration_s : 0.0;
}

// Why a plain ping-pong report has no server CPU: its server never sends
// an account (the framed modes end with one, server_account_blob.hpp).
inline constexpr std::string_view plain_ping_pong_server_cpu =
    "not reported in plain ping-pong, whose wire protocol has no end-of-test message to carry "
    "it (--threads 1 runs ping-pong framed, whose end does)";

// How far the measurement's start was from --start-at, in microseconds
// (positive: late); unset without --start-at or without a start.
inline std::optional<double> start_late_us(const run_report& report) {
    if (!report.options.start_at || !report.measurement_began) {
        return std::nullopt;
    }
    return std::chrono::duration<double, std::micro>(*report.measurement_began -
                                                     *report.options.start_at)
        .count();
}

// A description of the run and its percentiles, then ACE's histogram report
// in ACE's layout (its flaws fixed), last, so that a reader of ACE's output
// finds the values it expects after "outliers:" and nothing else.
void write_ace_report(std::ostream& out, const run_report& report);

// One JSON document for scripts (see README.SCTP_PERF_TEST for its fields).
inline constexpr int json_format_version = 2;
void write_json_report(std::ostream& out, const run_report& report);
// The one JSON document of a run that failed, as `iperf3 -J` does: the
// error's sentence and the exit status the program returns.
void write_json_error(std::ostream& out, const program_info& program, const std::string& error,
                      int exit_code);

}  // namespace sctp_perf
