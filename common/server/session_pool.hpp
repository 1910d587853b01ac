// SPDX-License-Identifier: Apache-2.0
#pragma once
// The server's sessions, served by a fixed pool of worker threads, each an
// event loop over many sessions (server/event_worker.hpp), with a bound on
// how many run at once and a clean stop. A new session goes to the worker
// serving the fewest. Each session ends with one log line: the client, how
// many iterations (or messages) it did, how long it took and how it ended.
//
// A thread per session, as before, cannot serve the thousands of
// associations an MME or a RAN simulator holds, and its scheduling is
// itself measured; a few event loops is how the servers this tool stands
// in for are built.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "server/event_worker.hpp"
#include "server/server_settings.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

class session_pool {
  public:
    // `session_ended` is called on a worker's thread once a session's log
    // line is written and its connection closed; it must not block.
    // Starts `workers` threads (at least one). Throws std::system_error.
    session_pool(unsigned workers, unsigned max_sessions, server_identity identity,
                 std::function<void()> session_ended);
    ~session_pool() { stop_all(); }
    session_pool(const session_pool&) = delete;
    session_pool& operator=(const session_pool&) = delete;

    // Serves a test on `channel` (a blocking socket: the session passes
    // MSG_DONTWAIT). Gives the channel back when the pool is full, for the
    // caller to refuse as busy. `client` names the peer in the log.
    [[nodiscard]] std::unique_ptr<message_channel> start(std::unique_ptr<message_channel> channel,
                                                         std::string client);

    // Ends every worker; the sessions still open are closed. Safe to call
    // more than once.
    void stop_all() noexcept;

    unsigned workers() const noexcept { return static_cast<unsigned>(workers_.size()); }
    const server_identity& identity() const noexcept { return identity_; }

  private:
    unsigned max_sessions_;
    server_identity identity_;  // the workers and sessions refer to it
    std::vector<std::unique_ptr<event_worker>> workers_;
};

}  // namespace sctp_perf
