// SPDX-License-Identifier: Apache-2.0
#pragma once
// What client/failure_watch.hpp is given of a run, taken from the run's own
// types: the flows' channels before the load engine takes them, each flow's
// account's paths after, and what the servers said of themselves.

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "client/load/load_result.hpp"
#include "protocol/sctp_paths_blob.hpp"
#include "report/run_report.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

std::vector<message_channel*> channels_of(
    const std::vector<std::unique_ptr<message_channel>>& channels);

// Flow k's account's "paths" at k.
std::vector<std::optional<protocol::path_events_blob>> server_paths_of(const load_result& result);

// The settings of each server, in -H order (one without fan-out).
std::vector<nlohmann::json> server_settings_of(const run_report& described);

}  // namespace sctp_perf
