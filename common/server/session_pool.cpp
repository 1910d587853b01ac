// SPDX-License-Identifier: Apache-2.0
#include "server/session_pool.hpp"

#include <algorithm>

namespace sctp_perf {

session_pool::session_pool(unsigned workers, unsigned max_sessions, server_identity identity,
                           std::function<void()> session_ended)
    : max_sessions_(max_sessions), identity_(std::move(identity)) {
    for (unsigned w = 0; w < std::max(workers, 1u); ++w) {
        workers_.push_back(std::make_unique<event_worker>(identity_, session_ended));
        workers_.back()->start();
        // Before any session: a worker only waits for one until then.
        if (!identity_.worker_cpus.empty()) {
            workers_.back()->pin(identity_.worker_cpus.at(w));
        }
    }
}

std::unique_ptr<message_channel> session_pool::start(std::unique_ptr<message_channel> channel,
                                                     std::string client) {
    std::size_t running = 0;
    event_worker* least = nullptr;
    for (const auto& w : workers_) {
        running += w->load();
        if (least == nullptr || w->load() < least->load()) {
            least = w.get();
        }
    }
    if (running >= max_sessions_ || least == nullptr) {
        return channel;
    }
    least->add(std::make_unique<session>(std::move(channel), std::move(client), identity_,
                                         session::clock::now()));
    return nullptr;
}

void session_pool::stop_all() noexcept {
    for (auto& w : workers_) {
        w->stop();
    }
}

}  // namespace sctp_perf
