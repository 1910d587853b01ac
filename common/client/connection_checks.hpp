// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the client reads of a connection and of the server's answer before it
// measures anything: the addresses, socket settings and SCTP state the
// report describes, and the server's settings, decoded once and kept in the
// run report, from which the checks and the run's plan take what they need.

#include <chrono>
#include <optional>

#include "client/client_main.hpp"
#include "client/one_way_timing.hpp"
#include "options/client_options.hpp"
#include "protocol/server_settings_blob.hpp"
#include "protocol/wire_protocol.hpp"
#include "report/run_report.hpp"
#include "transport/sctp_features.hpp"

namespace sctp_perf {

// Reads into `report` what the connection and its socket are: addresses,
// SCTP timers and features, buffers, device, segment size, interfaces.
void describe_connection(run_report& report, const client_options& options,
                         const client_connection& connection);

// The connection the report describes (the first flow's, or the first
// server's first flow's): describes it, opens the test with `header`, keeps
// the server's settings in `report` (as it said them, and decoded) and checks
// them (check_stream_counts). Throws as negotiate_test does, and
// test_refused when the stream counts fall short.
void open_described_test(run_report& report, const client_options& options,
                         const client_connection& connection, const protocol::test_header& header);

// Each flow uses streams 0..S-1 both ways (the server answers on the stream
// a request came in on), so both ends must have S outbound streams: throws
// test_refused saying which end to start with --streams S when the
// association (`features`, none over TCP) or the server (`settings`) has
// fewer.
void check_stream_counts(const client_options& options, const program_info& program,
                         const std::optional<sctp_feature_state>& features,
                         const protocol::server_settings_blob& settings);

// The server's PR-SCTP policy for its replies, as its settings state it.
pr_sctp server_pr_sctp(const protocol::server_settings_blob& settings);

// The server's --io-timeout, as its settings state it, at most a day (as the
// server's option is); unset when they do not.
std::optional<std::chrono::milliseconds> server_io_timeout(
    const protocol::server_settings_blob& settings);

// --one-way: both ends' clocks, the client's read now and the server's as
// its settings state them.
one_way_clocks one_way_clocks_of(const protocol::server_settings_blob& settings);

}  // namespace sctp_perf
