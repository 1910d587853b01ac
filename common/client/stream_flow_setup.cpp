// SPDX-License-Identifier: Apache-2.0
#include "client/stream_flow_setup.hpp"

#include <sys/epoll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <exception>
#include <string>
#include <system_error>

#include "client/flow_failure.hpp"
#include "client/stream_client.hpp"
#include "client/test_negotiation.hpp"
#include "transport/peer_failures.hpp"
#include "transport/stream_connector.hpp"

namespace sctp_perf {
namespace {

using clock = std::chrono::steady_clock;

enum class setup_phase { idle, connecting, awaiting_answer };

// A flow being set up: which route its connect is on, and what it waits for.
struct flow_attempt {
    setup_phase phase = setup_phase::idle;
    unsigned flow = 0;
    std::size_t route = 0;
    std::string last_reason = "no usable address";
    bool refused = false;
    unique_fd fd;                              // while connecting
    std::unique_ptr<message_channel> channel;  // once connected
    clock::time_point deadline;
};

class flow_setup_loop {
  public:
    flow_setup_loop(const client_options& options, const protocol::test_header& header,
                    std::vector<std::unique_ptr<message_channel>>& channels)
        : options_(options),
          header_(header),
          channels_(channels),
          next_flow_(static_cast<unsigned>(channels.size())),
          accepted_(static_cast<unsigned>(channels.size())) {
        const std::size_t addresses = std::max<std::size_t>(1, options.client_addresses.size());
        for (unsigned a = 0; a < addresses; ++a) {
            routes_.push_back(resolve_routes(stream_connect_request(options, a)));
        }
        attempts_.resize(std::min<std::size_t>(options.connect_window, options.flows));
        channels_.resize(options.flows);
        epoll_ = unique_fd(::epoll_create1(EPOLL_CLOEXEC));
        if (!epoll_) {
            throw std::system_error(errno, std::generic_category(), "epoll_create1");
        }
    }

    void run() {
        for (auto& attempt : attempts_) {
            start_next(attempt);
        }
        std::vector<epoll_event> events(attempts_.size());
        while (busy_ > 0) {
            const int ready = ::epoll_wait(epoll_.get(), events.data(),
                                           static_cast<int>(events.size()), wait_ms());
            if (ready < 0 && errno != EINTR) {
                throw std::system_error(errno, std::generic_category(), "epoll_wait");
            }
            for (int i = 0; i < std::max(ready, 0); ++i) {
                step(attempts_[events[i].data.u32]);
            }
            expire(clock::now());
        }
        if (failure_) {
            try {
                std::rethrow_exception(failure_);
            } catch (...) {
                rethrow_flow_failure(failed_flow_, options_.flows, accepted_);
            }
        }
    }

  private:
    // Starts the next flow on `attempt`, if any is left and none failed.
    void start_next(flow_attempt& attempt) {
        attempt = flow_attempt{};
        if (next_flow_ >= options_.flows || failure_) {
            return;
        }
        attempt.flow = next_flow_++;
        ++busy_;
        try {
            connect_from(attempt, 0);
        } catch (...) {
            fail(attempt);
        }
    }

    // The first failure ends the set-up, but only once the flows already
    // under way have ended too (each within --io-timeout), so that its
    // sentence counts every flow the server accepted before it.
    void fail(flow_attempt& attempt) {
        if (!failure_) {
            failure_ = std::current_exception();
            failed_flow_ = attempt.flow;
        }
        const int fd = attempt.channel ? attempt.channel->native_handle() : attempt.fd.get();
        if (fd >= 0) {
            forget(fd);
        }
        attempt = flow_attempt{};
        --busy_;
    }

    connect_request request_of(const flow_attempt& attempt) const {
        return stream_connect_request(options_, attempt.flow);
    }

    const std::vector<connect_route>& routes_of(const flow_attempt& attempt) const {
        return routes_[attempt.flow % routes_.size()];
    }

    // Starts the connect on route `route` or the next one that can be
    // tried; throws connect_failure when none is left.
    void connect_from(flow_attempt& attempt, std::size_t route) {
        const auto request = request_of(attempt);
        const auto& routes = routes_of(attempt);
        for (; route < routes.size(); ++route) {
            if (!routes[route].unusable.empty()) {
                attempt.last_reason = routes[route].unusable;
                continue;
            }
            int failure = 0;
            unique_fd fd = start_connect(request, routes[route], failure);
            if (failure != 0) {
                note_failure(attempt, failure);
                continue;
            }
            attempt.route = route;
            attempt.phase = setup_phase::connecting;
            attempt.deadline = clock::now() + options_.common.io_timeout;
            watch(fd.get(), EPOLL_CTL_ADD, EPOLLOUT, attempt);
            attempt.fd = std::move(fd);
            return;
        }
        throw connect_failure(request, attempt.last_reason, attempt.refused);
    }

    static void note_failure(flow_attempt& attempt, int failure) {
        attempt.refused = failure == ECONNREFUSED;
        attempt.last_reason = std::system_category().message(failure);
    }

    void watch(int fd, int operation, std::uint32_t events, const flow_attempt& attempt) {
        epoll_event event{};
        event.events = events;
        event.data.u32 = static_cast<std::uint32_t>(&attempt - attempts_.data());
        if (::epoll_ctl(epoll_.get(), operation, fd, &event) != 0) {
            throw std::system_error(errno, std::generic_category(), "epoll_ctl");
        }
    }

    void forget(int fd) { ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr); }

    void step(flow_attempt& attempt) {
        try {
            if (attempt.phase == setup_phase::connecting) {
                connected(attempt);
            } else if (attempt.phase == setup_phase::awaiting_answer) {
                answered(attempt);
            }
        } catch (...) {
            fail(attempt);
        }
    }

    // The connect ended: on to the next route if it failed, else the test
    // header goes out and the answer is awaited.
    void connected(flow_attempt& attempt) {
        const int failure = connect_outcome(attempt.fd.get());
        if (failure != 0) {
            forget(attempt.fd.get());
            attempt.fd.reset();
            note_failure(attempt, failure);
            connect_from(attempt, attempt.route + 1);
            return;
        }
        const int fd = attempt.fd.get();
        attempt.channel = stream_connection(std::move(attempt.fd), options_).channel;
        send_test_header(*attempt.channel, header_);
        attempt.phase = setup_phase::awaiting_answer;
        attempt.deadline = clock::now() + options_.common.io_timeout;
        watch(fd, EPOLL_CTL_MOD, EPOLLIN, attempt);
    }

    void answered(flow_attempt& attempt) {
        read_test_answer(*attempt.channel);
        forget(attempt.channel->native_handle());
        channels_[attempt.flow] = std::move(attempt.channel);
        ++accepted_;
        --busy_;
        start_next(attempt);
    }

    // Flows past their deadline: a connect goes on to the next route, an
    // answer that did not come ends the set-up.
    void expire(clock::time_point now) {
        for (auto& attempt : attempts_) {
            if (attempt.phase == setup_phase::idle || attempt.deadline > now) {
                continue;
            }
            try {
                if (attempt.phase == setup_phase::awaiting_answer) {
                    throw no_test_answer(peer_went_silent());
                }
                forget(attempt.fd.get());
                attempt.fd.reset();
                attempt.refused = false;
                attempt.last_reason = no_answer_reason(options_.common.io_timeout);
                connect_from(attempt, attempt.route + 1);
            } catch (...) {
                fail(attempt);
            }
        }
    }

    // Until the nearest deadline, in whole milliseconds rounded up.
    int wait_ms() const {
        auto nearest = clock::time_point::max();
        for (const auto& attempt : attempts_) {
            if (attempt.phase != setup_phase::idle) {
                nearest = std::min(nearest, attempt.deadline);
            }
        }
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(nearest - clock::now());
        return static_cast<int>(std::clamp<long long>(left.count(), 0, 60'000));
    }

    const client_options& options_;
    const protocol::test_header& header_;
    std::vector<std::unique_ptr<message_channel>>& channels_;
    std::vector<std::vector<connect_route>> routes_;  // per local address
    std::vector<flow_attempt> attempts_;              // the window
    unique_fd epoll_;
    unsigned next_flow_ = 0;
    unsigned busy_ = 0;
    unsigned accepted_ = 0;
    std::exception_ptr failure_;  // the first failure, of flow failed_flow_
    unsigned failed_flow_ = 0;
};

}  // namespace

void connect_stream_flows(const client_options& options, const protocol::test_header& header,
                          std::vector<std::unique_ptr<message_channel>>& channels) {
    flow_setup_loop(options, header, channels).run();
}

}  // namespace sctp_perf
