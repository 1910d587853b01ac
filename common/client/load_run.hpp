// SPDX-License-Identifier: Apache-2.0
#pragma once
// A load test from the command line's side (--rate, --throughput, or
// ping-pong over several flows): each run connects its flows and runs the
// load engine over them (client/load/load_engine.hpp); the runs of --repeat
// pool into one report (client/load/pooled_load.hpp).

#include <optional>

#include "client/client_output.hpp"
#include "client/flow_connection.hpp"
#include "client/start_wait.hpp"
#include "options/client_options.hpp"
#include "report/run_report.hpp"

namespace sctp_perf {

// Runs the test, --repeat times, and writes the reports. Returns the exit
// status; throws when the first run fails, as a single run would.
int run_load(const client_options& options, run_report& report, const client_connectors& connect,
             const std::optional<start_instant>& start, client_output_files& files);

}  // namespace sctp_perf
