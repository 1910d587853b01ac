#pragma once
// One thread per client test, so a slow or silent client never holds up the
// others, with a bound on how many run at once and a clean stop that
// interrupts every session and joins its thread. Each session ends with one
// log line: the client, how many iterations (or messages) it did, how long
// it took and how it ended.

#include <atomic>
#include <chrono>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "server/server_settings.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

class session_pool {
  public:
    // `session_ended` is called on the session's own thread once its log
    // line is written and its connection closed; it must not block.
    session_pool(unsigned max_sessions, server_identity identity,
                 std::function<void()> session_ended)
        : max_sessions_(max_sessions),
          identity_(std::move(identity)),
          session_ended_(std::move(session_ended)) {}
    ~session_pool() { stop_all(); }
    session_pool(const session_pool&) = delete;
    session_pool& operator=(const session_pool&) = delete;

    // Serves a test on `channel` in a thread of its own. Gives the channel
    // back when the pool is full or no thread could be started (logged), for
    // the caller to refuse as busy. `client` names the peer in the log.
    [[nodiscard]] std::unique_ptr<message_channel> start(std::unique_ptr<message_channel> channel,
                                                         std::string client);

    // Interrupts every running session (shutdown of its socket) and joins all
    // threads. Safe to call more than once.
    void stop_all();

    // Joins the threads of sessions that have finished.
    void reap();

  private:
    struct session {
        std::mutex channel_mutex;  // the session closes while stop_all may shut down
        std::unique_ptr<message_channel> channel;
        std::string client;
        std::thread thread;
        std::atomic<bool> done{false};
    };

    void serve(session& s) const;

    unsigned max_sessions_;
    server_identity identity_;
    std::function<void()> session_ended_;
    std::mutex mutex_;
    std::list<session> sessions_;
};

}  // namespace sctp_perf
