// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one-to-many data path: every association served on the one
// SOCK_SEQPACKET socket it arrived on, as the SCTP servers this tool stands
// in for do (Kamailio's SIP over SCTP, an MME on usrsctp), rather than each
// peeled off onto a socket of its own (SOCK_SEQPACK_srv --peel-off).
//
// One thread reads the socket. Each message comes with its association's
// id (SCTP_RCVINFO) and goes to that association's session
// (server/session.hpp, the same state machine every server uses) through an
// association_channel; the session's replies go out on the same socket,
// naming the association and the request's stream, ordering and PR-SCTP
// policy (SCTP_SNDINFO, SCTP_PRINFO). Notifications (SCTP_ASSOC_CHANGE,
// SCTP_SHUTDOWN_EVENT) start a session for a new association and end the
// session of one that went away.
//
// Why one thread: the messages of one association must be taken in order,
// and the parts of a long message by one reader, so several readers of one
// socket would have to hand messages to each other; one reader that never
// waits for anything but the socket keeps the path as short as the
// peeled-off one's (one recvmsg and one sendmsg per request).
//
// What one-to-many cannot do: stop reading one association. A socket's
// receive queue holds every association's messages in arrival order, so
// the reader takes them all, and a session that cannot send its replies
// (its client stopped reading) keeps its requests queued in user space, up
// to queued_bytes_bound; beyond it the session ends. Nor may the reader
// wait for one association: every send is MSG_DONTWAIT (a send that
// waited for one association's room would leave every other association's
// requests unread meanwhile). How a stalled association affects the
// others' sends is the kernel's choice: net.sctp.sndbuf_policy 0 (the
// default) charges every association's unsent data to the one socket's
// send buffer, so they wait for room too until the stalled session ends;
// 1 gives each association a buffer of its own (see man SOCK_SEQPACK_srv).
//
// The wait is a blocking recvmsg() with a short receive timeout
// (receive_wait): the deadlines of the sessions (--header-timeout,
// --io-timeout) are looked at when it returns, so they may be overrun by up
// to that much, and a stop takes effect within it. With --spin the loop
// polls instead (MSG_DONTWAIT), a whole CPU; with --poll-before-sleep it
// polls for that long after each message, before the read that sleeps.

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "server/session.hpp"
#include "transport/association_channel.hpp"
#include "transport/sctp_notification.hpp"
#include "transport/unique_fd.hpp"

namespace sctp_perf {

class one_to_many_worker {
  public:
    using clock = std::chrono::steady_clock;

    // A session that cannot send its replies keeps at most this many bytes
    // of its client's requests; beyond, it ends (see the top of this file).
    static constexpr std::size_t queued_bytes_bound = 1024 * 1024;
    static constexpr auto receive_wait = std::chrono::milliseconds(100);

    // Called on the worker's thread; none may block.
    struct events {
        std::function<void(const std::string& peer)> client_arrived;
        std::function<void()> session_started;  // a served (not refused) session began
        std::function<void()> session_ended;    // and ended, after its log line
    };

    // `socket`: the listening SOCK_SEQPACKET socket, subscribed to
    // association events and to SCTP_RCVINFO. At most `max_sessions` are
    // served at once; the rest are told the server is busy.
    one_to_many_worker(unique_fd socket, const server_identity& identity, unsigned max_sessions,
                       events on);
    ~one_to_many_worker();
    one_to_many_worker(const one_to_many_worker&) = delete;
    one_to_many_worker& operator=(const one_to_many_worker&) = delete;

    // Starts the thread. Throws std::system_error.
    void start();
    // Ends the loop and joins the thread; the sessions still open are
    // dropped without their log line. Safe to call more than once.
    void stop() noexcept;

  private:
    struct entry {
        std::unique_ptr<session> s;
        association_channel* channel = nullptr;  // owned by s
        bool counted = false;                    // served, not refused as busy
        bool writing = false;                    // in writers_
        bool gone = false;                       // the kernel said the association ended
    };

    void run();
    // One recvmsg(); false when nothing came.
    bool receive_one(bool wait, clock::time_point& now);
    void take_notification(std::span<const std::byte> head, clock::time_point now);
    // `arrival_ns`: the kernel's receive stamp of the read (0: none).
    void take_data(sctp_assoc_t id, std::span<const std::byte> bytes, bool message_end,
                   const sctp_delivery& how, std::int64_t arrival_ns, clock::time_point now);
    void open_session(sctp_assoc_t id, clock::time_point now);
    void drive(sctp_assoc_t id, entry& e, clock::time_point now);
    void retry_writers(clock::time_point now);
    void check_deadlines(clock::time_point now);
    void end(sctp_assoc_t id);
    // Ends association `id` on the shared socket: gracefully (SCTP_EOF,
    // after what is queued has gone) or at once (SCTP_ABORT).
    void close_association(sctp_assoc_t id, bool abort) noexcept;

    unique_fd socket_;
    const server_identity& identity_;
    unsigned max_sessions_;
    events on_;
    std::thread thread_;
    std::atomic<bool> stopping_{false};

    std::unordered_map<sctp_assoc_t, entry> sessions_;
    unsigned serving_ = 0;  // sessions counted against max_sessions_
    std::vector<sctp_assoc_t> writers_;
    // Associations with no session: ended ones, whose late data is dropped
    // quietly, and unknown ones, aborted once.
    std::unordered_set<sctp_assoc_t> unserved_;
    std::optional<sctp_assoc_t> partial_of_;  // the association of a message read in part
    clock::time_point next_check_ = clock::time_point::max();
    clock::time_point next_write_retry_ = clock::time_point::min();
    std::vector<std::byte> buffer_;   // one message, or a part of a longer one
    std::vector<std::byte> scratch_;  // lent to every session's advance()
};

}  // namespace sctp_perf
