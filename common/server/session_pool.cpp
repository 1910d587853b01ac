#include "server/session_pool.hpp"

#include <sys/socket.h>

#include "server/server_log.hpp"
#include "server/test_session.hpp"

namespace sctp_perf {

void session_pool::serve(session& s) const {
    const auto started = std::chrono::steady_clock::now();
    const auto outcome = serve_test(*s.channel, identity_);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    // After the duration come the words the line had before it was timed
    // ("finished N iterations", "closed after N iterations: why"): scripts
    // look for them, some at the end of the line.
    if (outcome.completed) {
        log_info("client {} ok in {:.3f} s: finished {} {}", s.client, took.count(),
                 outcome.messages_done, outcome.unit);
    } else {
        log_error("client {} failed in {:.3f} s: closed after {} {}: {}", s.client, took.count(),
                  outcome.messages_done, outcome.unit, outcome.reason);
    }
    {
        const std::lock_guard lock(s.channel_mutex);
        s.channel.reset();  // close now, not when the thread is reaped
    }
    s.done = true;
    // Not `s` after this point: reap() may join this thread and erase it.
    if (session_ended_) {
        session_ended_();
    }
}

std::unique_ptr<message_channel> session_pool::start(std::unique_ptr<message_channel> channel,
                                                     std::string client) {
    reap();
    const std::lock_guard lock(mutex_);
    if (sessions_.size() >= max_sessions_) {
        return channel;
    }
    auto& s = sessions_.emplace_back();
    s.channel = std::move(channel);
    s.client = std::move(client);
    try {
        s.thread = std::thread([this, &s] { serve(s); });
    } catch (const std::system_error& e) {
        // Out of threads or memory: this client is refused, the server goes on.
        log_error("client {}: cannot start a session thread ({}); refusing it", s.client, e.what());
        auto back = std::move(s.channel);
        sessions_.pop_back();
        return back;
    }
    return nullptr;
}

void session_pool::reap() {
    const std::lock_guard lock(mutex_);
    for (auto it = sessions_.begin(); it != sessions_.end();) {
        if (it->done) {
            it->thread.join();
            it = sessions_.erase(it);
        } else {
            ++it;
        }
    }
}

void session_pool::stop_all() {
    const std::lock_guard lock(mutex_);
    for (auto& s : sessions_) {
        const std::lock_guard session_lock(s.channel_mutex);
        if (s.channel) {
            // Wakes a blocked receive with end-of-stream; the descriptor stays
            // owned by the session until its thread lets go of it.
            ::shutdown(s.channel->native_handle(), SHUT_RDWR);
        }
    }
    for (auto& s : sessions_) {
        s.thread.join();
    }
    sessions_.clear();
}

}  // namespace sctp_perf
