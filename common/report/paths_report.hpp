// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a run saw of its paths and faults, for the reports: each end's path
// events on one timeline, the first flow's paths as read at each interval,
// at each fault and at the end, what each --at command did, and what the
// fault cost beside what the timers predict (stats/failover_cost.hpp,
// stats/detection_prediction.hpp). Made by client/failure_watch.hpp; the
// writers (paths_text.cpp, paths_json.cpp) only print it.
//
// Every time is in nanoseconds from the start of the measurement (negative:
// before it), printed in seconds or milliseconds as the key or label says.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "stats/detection_prediction.hpp"
#include "stats/failover_cost.hpp"
#include "transport/sctp_path_info.hpp"
#include "transport/sctp_path_settings.hpp"

namespace sctp_perf {

struct path_event_row {
    std::int64_t at_ns = 0;
    std::string event;    // "unreachable", "available", ... (sctp_path_change's names)
    std::string address;  // the peer address, from that end
    std::int64_t error = 0;
    unsigned flow = 0;  // from 0
};

// One end's events, all flows, in time order.
struct path_end_events {
    bool known = false;  // false: this end did not say (see `note`)
    // How the times were put on the client's: "client", or for the server
    // its CLOCK_MONOTONIC (one host) or CLOCK_REALTIME (two: then as good
    // as the clocks' synchronization).
    std::string clock;
    std::string note;  // why an end is not known
    std::vector<path_event_row> events;
    std::uint64_t events_dropped = 0;
    std::uint64_t sends_failed = 0;
};

// The first flow's paths at one instant.
struct path_reading {
    std::int64_t at_ns = 0;
    std::string why;  // "interval", "--at 1", "end"
    association_paths paths;
};

// What one --at command did (client/fault_schedule.hpp's fault_outcome, as
// the report states it).
struct fault_row {
    unsigned index = 0;
    double at_s = 0.0;
    std::string command;
    std::string output_file;
    bool started = false;
    std::int64_t started_ns = 0;  // from the start of the measurement
    std::string started_utc;
    std::optional<double> duration_s;
    std::optional<int> exit_status;
    std::optional<int> signal;
    bool timed_out = false;
    std::string not_started;
};

// A figure measured from the fault (or its undoing), with what it is.
struct timed_figure {
    std::int64_t after_ns = 0;
    std::string what;  // the event or path behind it, e.g. "unreachable 10.0.0.2:45453"
};

struct failure_figures {
    failover_cost cost;
    std::vector<std::string> path_names;  // path k's address at k; "?" for 0 (unknown)
    // "--at 1", or "the first request left unanswered": the first command
    // to start of those at the earliest instant, which make the fault.
    std::string fault_source;
    std::optional<double> fault_command_s;  // how long that command took
    // The first command to start at a later instant: the fault's undoing.
    std::optional<std::int64_t> undone_ns;
    std::string undone_source;  // "--at 3"
    std::optional<timed_figure> client_detection;
    std::optional<timed_figure> server_detection;
    std::optional<timed_figure> client_available;  // from the undoing
    std::optional<timed_figure> server_available;
    // The prediction, where the inputs are known (SCTP); `rto_source` says
    // when the RTO was read.
    std::optional<detection_inputs> inputs;
    std::optional<detection_prediction> prediction;
    std::string rto_source;
    std::uint64_t replies_not_kept = 0;  // beyond the timeline's bound: not in the figures
};

struct path_failure_report {
    bool sctp = false;
    // Some flow's paths were watched (client/sctp_path_setup.hpp): the
    // events, readings and "paths" block are there only then.
    bool paths_watched = false;
    // The settings asked for, in use on the first flow, and the system's.
    sctp_path_request asked;
    std::optional<sctp_path_values> in_use;
    sctp_path_system system;
    path_end_events client;
    path_end_events server;
    std::vector<path_reading> readings;
    std::vector<fault_row> faults;
    std::optional<failure_figures> failure;
};

// Text (the ace format's run description): "sctp paths (client): ..." and,
// from the server's settings, "sctp paths (server): ...".
void write_path_settings_lines(std::ostream& out, const path_failure_report& report,
                               const nlohmann::json& server_settings);
// Text: the "paths:", "faults (--at):" and "failure:" blocks, each only
// where it has something to say.
void write_paths_blocks(std::ostream& out, const path_failure_report& report);

// JSON: "sctp_paths_requested" for the config, "sctp_paths_socket" and
// "sctp_paths_system" for the environment, and the "paths", "faults" and
// "failure" members of the document (null where they have nothing).
nlohmann::ordered_json path_settings_requested_json(const sctp_path_request& asked);
nlohmann::ordered_json path_settings_json(const sctp_path_values& values);
nlohmann::ordered_json path_system_json(const sctp_path_system& system);
nlohmann::ordered_json paths_json(const path_failure_report& report);
nlohmann::ordered_json faults_json(const path_failure_report& report);
nlohmann::ordered_json failure_json(const path_failure_report& report);

}  // namespace sctp_perf
