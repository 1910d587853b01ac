// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every server shares around its own listening socket: the event loop,
// SIGINT/SIGTERM, the idle report ("select timed out", every --idle-report
// seconds while no test runs), the log lines of a new client, and the
// session pool whose worker threads serve the clients.
//
// The idle report's timer is armed only while no session runs: its wake-up
// would compete with a test for the CPU, above all with both ends on one
// CPU. The first session parks it; the end of the last one re-arms it, so
// during a test the event loop sleeps until a new connection, a signal or a
// busy refusal's deadline. The sessions themselves run on the session
// pool's worker threads.

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "options/server_options.hpp"
#include "server/session_pool.hpp"
#include "transport/message_channel.hpp"
#include "transport/unique_fd.hpp"

namespace sctp_perf {

class server_loop {
  public:
    server_loop(const server_options& options, const program_info& program);

    boost::asio::io_context& io() noexcept { return io_; }

    // Runs until SIGINT or SIGTERM; then calls `stop_listening`, closes
    // every session and joins the worker threads.
    void run(const std::function<void()>& stop_listening);

    // Logs a new client ("spawning server", "client HOST connected from
    // PORT") and, while no session runs, restarts the idle report's period.
    // `peer` is "HOST:PORT".
    void client_arrived(const std::string& peer);

    // Serves a test on `channel` on a worker thread (or refuses it as
    // busy); `peer` names the client in the log. A started session stops
    // the idle report until the last session has ended.
    void serve(std::unique_ptr<message_channel> channel, std::string peer);

    // For a listener whose accept or read failed (out of descriptors or
    // memory): logs the failure once per episode, not at every retry, and
    // calls `retry` after a delay that doubles from 10 ms up to 1 s. Trying
    // again at once would only spin; logging every try would flood the log.
    void retry_after_failure(const std::string& failure, std::function<void()> retry);
    // The listener works again: ends the episode with one line.
    void listener_recovered();

    // For a server that runs its sessions itself (the one-to-many data
    // path), on the event loop: a session began, a session ended. The idle
    // report is stopped while any runs.
    void session_started();
    void session_ended();
    const server_identity& identity() const noexcept { return sessions_.identity(); }

  private:
    void arm_idle_timer();
    // Stops the idle report until arm_idle_timer(), without a wake-up.
    void park_idle_timer();

    boost::asio::io_context io_;
    boost::asio::signal_set signals_;
    boost::asio::steady_timer idle_timer_;
    boost::asio::steady_timer retry_timer_;
    std::chrono::seconds idle_report_;
    unsigned running_sessions_ = 0;  // started and not yet ended; only on the event loop
    // Counts arm_idle_timer() and park_idle_timer() calls (on the event
    // loop): a wait whose timer expired before it was re-armed or parked
    // still completes without error, and must know it was superseded.
    std::uint64_t idle_arming_ = 0;
    session_pool sessions_;
    std::chrono::milliseconds header_timeout_;
    std::string listener_failure_;  // the failure of the episode, empty outside one
    unsigned listener_failures_ = 0;
    std::chrono::milliseconds listener_retry_delay_{0};
};

// The listening socket both servers start from (SOCK_STREAM for TCP or SCTP
// one-to-one, SOCK_SEQPACKET for SCTP one-to-many): SO_REUSEADDR, one socket
// for both families where `dual_stack` (IPV6_V6ONLY off), and, before it
// listens so that every connection or association starts with them, Nagle,
// the socket buffers, the device (--bind-device), the segment size
// (--max-seg) and for SCTP the retransmission timers and features.
// Throws std::system_error.
unique_fd open_listening_socket(int family, int type, bool dual_stack,
                                const common_options& options);

// Logs --bind-device and --max-seg as the listening socket `fd` reads them
// back, when they were given: what every session starts from.
void log_device_and_segment(int fd, const common_options& options);

// Makes an accepted or peeled-off socket ready for a session: blocking, with
// the I/O timeout, Nagle as asked, and for SCTP the requested retransmission
// timers. Throws std::system_error.
void prepare_session_socket(int fd, const common_options& options);

}  // namespace sctp_perf
