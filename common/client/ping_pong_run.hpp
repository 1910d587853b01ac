// SPDX-License-Identifier: Apache-2.0
#pragma once
// A ping-pong test from the command line's side: each run connects, agrees
// on the test with the server and measures (client/ping_pong.hpp, the loop
// itself); the runs of --repeat pool into one report.

#include <optional>

#include "client/client_main.hpp"
#include "client/client_output.hpp"
#include "client/start_wait.hpp"
#include "options/client_options.hpp"
#include "report/run_report.hpp"

namespace sctp_perf {

// Runs the test, --repeat times, and writes the report. Returns the exit
// status; throws when the first run fails, as a single run would.
int run_ping_pong_test(const client_options& options, run_report& report,
                       const client_connector& connect, const std::optional<start_instant>& start,
                       client_output_files& files);

}  // namespace sctp_perf
