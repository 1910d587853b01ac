// SPDX-License-Identifier: Apache-2.0
#pragma once
// The parts of a report about SCTP's own features and the transport's
// counters, for both formats: what each end asked for and got, the share of
// each stream, what PR-SCTP gave up, and the retransmissions behind a tail.

#include <nlohmann/json.hpp>
#include <ostream>

#include "report/run_report.hpp"

namespace sctp_perf {

// Run-description lines (ace format): "sctp (client): ...", "sctp (server):
// ...", "transport (client, TCP_INFO): ...", "transport (server, ...): ...".
void write_sctp_and_transport_lines(std::ostream& out, const run_report& report);

// Load summary lines (ace format): what PR-SCTP abandoned, and the table of
// replies and p99 per stream. Nothing when neither applies.
void write_abandoned_line(std::ostream& out, const load_result& load);
void write_stream_table(std::ostream& out, const load_result& load);

// JSON: the client's "sctp" object (null over TCP) and its "transport".
nlohmann::ordered_json client_sctp_json(const run_report& report);
nlohmann::ordered_json client_transport_json(const run_report& report);
// The load object's "per_stream" array (empty with one stream).
nlohmann::ordered_json per_stream_json(const load_result& load);

}  // namespace sctp_perf
