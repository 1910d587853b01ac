// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a server session saw of its association's paths (transport/
// sctp_path_events.hpp): in the account it sends a load-mode client, and in
// its log, where a plain ping-pong client, which gets no account, can find it.

#include <chrono>
#include <optional>
#include <string>

#include "protocol/sctp_paths_blob.hpp"
#include "server/server_settings.hpp"
#include "transport/message_channel.hpp"
#include "transport/sctp_path_events.hpp"

namespace sctp_perf {

// The most events one account carries: with the rest of the account they
// stay well inside a blob's 64 KiB (an event is about 150 bytes); those
// beyond are counted as dropped.
inline constexpr std::size_t max_account_path_events = 200;

// Where the server watches paths (server_identity::watches_paths: asked
// with a path option, or multi-homed with several addresses): subscribes
// the session's association to path events and gives `channel` a watch of
// them, for the account and the log. Any other association reads as it
// would without the watch, at no cost per message. A subscription that
// fails is logged, and the session goes on unwatched.
void watch_session_paths(message_channel& channel, const std::string& client,
                         const server_identity& identity);

// The account's "paths" from `watch`; unset without a watch (TCP, or an
// association not watched).
std::optional<protocol::path_events_blob> account_paths(const sctp_path_watch* watch);

// One log line per event, "client C: path A unreachable 2.153 s into the
// session", then one for send failures if any; nothing without a watch.
void log_path_events(const std::string& client, std::chrono::steady_clock::time_point started,
                     const sctp_path_watch* watch);

}  // namespace sctp_perf
