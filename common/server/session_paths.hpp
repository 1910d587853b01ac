// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a server session saw of its association's paths (transport/
// sctp_path_events.hpp): in the account it sends a load-mode client, and in
// its log, where a plain ping-pong client, which gets no account, can find it.

#include <chrono>
#include <optional>
#include <string>

#include "protocol/sctp_paths_blob.hpp"
#include "transport/sctp_path_events.hpp"

namespace sctp_perf {

// The most events one account carries: with the rest of the account they
// stay well inside a blob's 64 KiB (an event is about 150 bytes); those
// beyond are counted as dropped.
inline constexpr std::size_t max_account_path_events = 200;

// The account's "paths" from `watch`; unset without a watch (TCP).
std::optional<protocol::path_events_blob> account_paths(const sctp_path_watch* watch);

// One log line per event, "client C: path A unreachable 2.153 s into the
// session", then one for send failures if any; nothing without a watch.
void log_path_events(const std::string& client, std::chrono::steady_clock::time_point started,
                     const sctp_path_watch* watch);

}  // namespace sctp_perf
