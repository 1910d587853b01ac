// SPDX-License-Identifier: Apache-2.0
#pragma once
// The steps of client/failure_watch.hpp's finish(), each on data alone:
// both ends' path events put on the measurement's timeline, and the
// failure's figures from the replies, the events, the path readings and the
// --at commands (report/paths_report.hpp says what each figure is).

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "client/run_watch.hpp"
#include "protocol/sctp_paths_blob.hpp"
#include "report/paths_report.hpp"
#include "transport/sctp_path_events.hpp"

namespace sctp_perf {

// The most events each end's timeline keeps, all flows together; the rest
// are counted as dropped. 1,000 flows failing over make several thousand.
inline constexpr std::size_t max_report_path_events = 4000;

// The client's events, every flow's, on the timeline of a measurement that
// began at `t0_ns` (CLOCK_MONOTONIC).
path_end_events client_path_events(const std::vector<std::shared_ptr<sctp_path_watch>>& flows,
                                   std::int64_t t0_ns);

// The server's, from each flow's account (flow k's at k), placed with its
// clocks as flow k's server's settings state them (`server_settings`, flow
// k's at k modulo their number): on one host by CLOCK_MONOTONIC, which the
// client shares, else by CLOCK_REALTIME from the measurement's start on the
// wall clock, `t0_wall_ns`. `accounts`: whether the server sent accounts
// at all (not in plain ping-pong).
path_end_events server_path_events(
    const std::vector<std::optional<protocol::path_events_blob>>& server_paths, bool accounts,
    const std::vector<nlohmann::json>& server_settings, std::int64_t t0_ns,
    std::int64_t t0_wall_ns);

// Everything the failure figures are measured from.
struct failure_inputs {
    std::vector<reply_timeline*> timelines;
    // Each flow's path addresses (sctp_path_watch::path_addresses), flow k's
    // at k, to put every flow's replies on one numbering of the paths.
    std::vector<std::vector<std::string>> flow_path_addresses;
    std::int64_t t0_ns = 0;  // the measurement's start, CLOCK_MONOTONIC
    const path_end_events* client = nullptr;
    const path_end_events* server = nullptr;
    const std::vector<path_reading>* readings = nullptr;
    const std::vector<fault_row>* faults = nullptr;
    // For the prediction (SCTP only): unset leaves it out.
    std::optional<std::uint64_t> rto_max_ms;
    std::optional<sctp_path_values> in_use;
    sctp_path_system system;
};

// Whether there is a failure to measure: an --at command started, or a path
// went potentially failed or unreachable at either end while measuring.
bool failure_to_measure(const failure_inputs& in);

failure_figures measure_failure(const failure_inputs& in);

}  // namespace sctp_perf
