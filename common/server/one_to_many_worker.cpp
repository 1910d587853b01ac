// SPDX-License-Identifier: Apache-2.0
#include "server/one_to_many_worker.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "protocol/wire_protocol.hpp"
#include "server/server_log.hpp"
#include "server/spin_yield.hpp"
#include "transport/poll_before_sleep.hpp"
#include "transport/sctp_addresses.hpp"
#include "transport/sctp_delivery.hpp"
#include "transport/sctp_receive.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {
namespace {

// Large enough for the largest request whole; a longer message comes in
// parts, and its session refuses it as too long.
constexpr std::size_t receive_buffer_bytes = protocol::max_payload_bytes;

// While a session's replies wait for room in the send buffer, they are
// tried again this often: the socket says it is writable for the socket as
// a whole, not for one association, so waiting for that could spin.
constexpr auto write_retry = std::chrono::milliseconds(1);

// Associations remembered as ended, whose late data is dropped quietly.
constexpr std::size_t unserved_bound = 100'000;

// A failed read (out of memory, say) is tried again after this long, not
// at once: at once would spin.
constexpr auto failure_pause = std::chrono::milliseconds(10);

}  // namespace

one_to_many_worker::one_to_many_worker(unique_fd socket, const server_identity& identity,
                                       unsigned max_sessions, events on)
    : socket_(std::move(socket)),
      identity_(identity),
      max_sessions_(max_sessions),
      on_(std::move(on)),
      buffer_(receive_buffer_bytes),
      scratch_(session::scratch_bytes) {
    // The wait's bound (see receive_wait); the socket stays blocking.
    set_io_timeout(socket_.get(),
                   std::chrono::duration_cast<std::chrono::milliseconds>(receive_wait));
}

one_to_many_worker::~one_to_many_worker() {
    stop();
}

void one_to_many_worker::start() {
    thread_ = std::thread([this] { run(); });
}

void one_to_many_worker::stop() noexcept {
    stopping_ = true;
    if (thread_.joinable()) {
        thread_.join();
    }
}

void one_to_many_worker::run() {
    unsigned empty_polls = 0;
    auto now = clock::now();
    bool got_last = false;  // the last turn read a message: a bounded poll may follow
    while (!stopping_) {
        bool got = false;
        try {
            if (identity_.spin) {
                got = receive_one(false, now);
                if (!got && ++empty_polls % spin_polls_per_yield == 0) {
                    ::sched_yield();
                }
            } else if (!writers_.empty()) {
                // Replies wait for room: a short wait, then try them again.
                pollfd readable{socket_.get(), POLLIN, 0};
                if (::poll(&readable, 1, static_cast<int>(write_retry.count())) > 0) {
                    got = receive_one(false, now);
                }
            } else {
                // A bounded poll after a message (--poll-before-sleep), then
                // the read that sleeps; a wait that timed out sleeps again at once.
                if (got_last) {
                    poll_readable(socket_.get(), identity_.poll_before_sleep);
                }
                got = receive_one(true, now);
            }
        } catch (const std::exception& e) {
            // The kernel refused a read, or memory ran out: nothing a peer
            // does gets here.
            log_error("serving the one-to-many socket failed: {}; trying again", e.what());
            std::this_thread::sleep_for(failure_pause);
        }
        got_last = got;
        if (!got) {
            now = clock::now();
        }
        if (!writers_.empty() && now >= next_write_retry_) {
            retry_writers(now);
        }
        if (now >= next_check_) {
            check_deadlines(now);
        }
    }
    sessions_.clear();
}

bool one_to_many_worker::receive_one(bool wait, clock::time_point& now) {
    sctp_delivery how;
    // SCTP_FUTURE_ASSOC (0) is never an association's id: left as it is,
    // the message came without one.
    sctp_assoc_t id = SCTP_FUTURE_ASSOC;
    int msg_flags = 0;
    // The kernel's receive stamp, for the sessions that take them (0 until
    // one of them turns stamping on for this socket).
    std::int64_t arrival_ns = 0;
    const ssize_t n = receive_sctp(socket_.get(), buffer_, wait ? 0 : MSG_DONTWAIT, msg_flags, &how,
                                   &id, nullptr, nullptr, &arrival_ns);
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            return false;
        }
        throw std::system_error(errno, std::generic_category(), "recvmsg failed");
    }
    now = clock::now();
    if (n == 0) {
        return false;  // only after a shutdown() of this socket, which is never done
    }
    const auto bytes = std::span(buffer_).first(static_cast<std::size_t>(n));
    const bool message_end = (msg_flags & MSG_EOR) != 0;
    if ((msg_flags & MSG_NOTIFICATION) != 0) {
        // Its first bytes say what it is; the rest of a long one (an
        // abort's error causes) is read and dropped.
        notification_head head(bytes);
        if (!message_end) {
            // A failed read or a shut-down socket ends the notification too:
            // what came of it is all there is to decode.
            head.read_rest(socket_.get(), 0);
        }
        take_notification(head.bytes(), now);
        return true;
    }
    // A long message may come in parts; the kernel delivers them one after
    // the other, each with its association's id.
    if (id == SCTP_FUTURE_ASSOC) {
        if (!partial_of_) {
            log_error("dropped a {}-byte message that came without its association's id",
                      bytes.size());
            return true;
        }
        id = *partial_of_;
    }
    partial_of_ = message_end ? std::nullopt : std::optional<sctp_assoc_t>(id);
    take_data(id, bytes, message_end, how, arrival_ns, now);
    return true;
}

void one_to_many_worker::take_notification(std::span<const std::byte> head, clock::time_point now) {
    const auto notice = decode_sctp_notification(head);
    if (!notice) {
        return;
    }
    const auto id = static_cast<sctp_assoc_t>(notice->assoc_id);
    if (notice->event == association_event::up) {
        open_session(id, now);
        return;
    }
    const auto found = sessions_.find(id);
    if (found == sessions_.end()) {
        unserved_.erase(id);
        return;
    }
    if (notice->path) {  // a path of the association changed: its session's to report
        if (const auto& watch = found->second.channel->path_watch()) {
            watch->record(*notice->path);
        }
    }
    found->second.gone = notice->event != association_event::other;
    switch (notice->event) {
        case association_event::shutdown:
            found->second.channel->end(true, "the peer closed the association");
            break;
        case association_event::lost:
            found->second.channel->end(
                false, "the association was lost: the peer aborted it or stopped answering");
            break;
        case association_event::restart:
            // Same addresses and ports, but a new peer: whatever it sends
            // next belongs to a test of its own, not to this one.
            found->second.channel->end(false, "the peer restarted the association");
            break;
        default:
            return;
    }
    drive(id, found->second, now);
}

void one_to_many_worker::open_session(sctp_assoc_t id, clock::time_point now) {
    if (sessions_.contains(id)) {
        return;  // announced twice: keep the session it has
    }
    std::string peer = fmt::format("association {}", id);
    std::vector<std::string> peers;
    std::vector<std::string> local;
    try {
        peers = association_peer_addresses(socket_.get(), id);
        local = association_local_addresses(socket_.get(), id);
    } catch (const std::system_error&) {
        // It has ended already: its session learns so from the next
        // notification, or from its header timeout.
    }
    if (!peers.empty()) {
        peer = peers.front();
    }
    on_.client_arrived(peer);
    if (peers.size() > 1) {
        log_info("client {}: association with client addresses {}; server addresses {}", peer,
                 fmt::join(peers, ", "), fmt::join(local, ", "));
    }
    auto channel = std::make_unique<association_channel>(socket_.get(), id);
    entry e;
    e.channel = channel.get();
    e.s = std::make_unique<session>(std::move(channel), peer, identity_, now);
    if (serving_ >= max_sessions_) {
        e.s->refuse_as_busy();
    } else {
        e.counted = true;
        ++serving_;
        on_.session_started();
    }
    auto& placed = sessions_.emplace(id, std::move(e)).first->second;
    next_check_ = std::min(next_check_, placed.s->deadline());
}

void one_to_many_worker::take_data(sctp_assoc_t id, std::span<const std::byte> bytes,
                                   bool message_end, const sctp_delivery& how,
                                   std::int64_t arrival_ns, clock::time_point now) {
    const auto found = sessions_.find(id);
    if (found == sessions_.end()) {
        // The rest of what an association sent before its session ended
        // (and closed it) is dropped. Data of an association that was
        // never announced has no one to answer it: the client is told at
        // once rather than at its I/O timeout.
        if (unserved_.insert(id).second) {
            log_error("dropped a {}-byte message of association {}, which has no test; aborting it",
                      bytes.size(), id);
            close_association(id, /*abort=*/true);
        }
        return;
    }
    auto& e = found->second;
    e.channel->deliver(bytes, message_end, how, arrival_ns);
    if (e.channel->queued_bytes() > queued_bytes_bound) {
        // The session reads no more while its replies wait (its client
        // does not take them), and this reader cannot stop reading one
        // association: end it rather than queue without bound.
        e.channel->end(false,
                       fmt::format("the client sent more than {} KiB of requests while its replies "
                                   "could not be sent",
                                   queued_bytes_bound / 1024));
    }
    drive(id, e, now);
}

void one_to_many_worker::drive(sctp_assoc_t id, entry& e, clock::time_point now) {
    e.s->advance(now, scratch_);
    if (e.s->done()) {
        end(id);
        return;
    }
    if (e.s->wants_to_write() && !e.writing) {
        e.writing = true;
        writers_.push_back(id);
    }
    next_check_ = std::min(next_check_, e.s->deadline());
}

void one_to_many_worker::retry_writers(clock::time_point now) {
    next_write_retry_ = now + write_retry;
    const auto waiting = std::exchange(writers_, {});
    for (const auto id : waiting) {
        const auto found = sessions_.find(id);
        if (found == sessions_.end()) {
            continue;
        }
        found->second.writing = false;
        drive(id, found->second, now);
    }
}

void one_to_many_worker::check_deadlines(clock::time_point now) {
    next_check_ = clock::time_point::max();
    std::vector<sctp_assoc_t> due;
    for (auto& [id, e] : sessions_) {
        if (now >= e.s->deadline()) {
            due.push_back(id);
        } else {
            next_check_ = std::min(next_check_, e.s->deadline());
        }
    }
    for (const auto id : due) {
        const auto found = sessions_.find(id);
        if (found != sessions_.end()) {
            drive(id, found->second, now);
        }
    }
}

void one_to_many_worker::end(sctp_assoc_t id) {
    const auto found = sessions_.find(id);
    auto& e = found->second;
    log_session_end(*e.s);
    if (!e.gone) {
        // Gracefully, so that what the session sent last (its verdict, its
        // account) still reaches the client, unless the client left
        // replies untaken or requests unread: then at once, as close()
        // would, so that its queued data frees the socket's buffers.
        close_association(id, e.s->wants_to_write() || e.channel->queued_bytes() > 0);
    }
    const bool counted = e.counted;
    sessions_.erase(found);
    // Known from now on: what the client had sent before the end is dropped
    // without a word. Forgotten when the kernel says the association ended,
    // or all at once should that word never come for very many.
    if (unserved_.size() >= unserved_bound) {
        unserved_.clear();
    }
    unserved_.insert(id);
    if (counted) {
        --serving_;
        on_.session_ended();
    }
}

void one_to_many_worker::close_association(sctp_assoc_t id, bool abort) noexcept {
    sctp_sndrcvinfo info{};
    info.sinfo_flags = abort ? SCTP_ABORT : SCTP_EOF;
    info.sinfo_assoc_id = id;
    ::sctp_send(socket_.get(), nullptr, 0, &info, MSG_DONTWAIT | MSG_NOSIGNAL);
}

}  // namespace sctp_perf
