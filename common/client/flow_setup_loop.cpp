// SPDX-License-Identifier: Apache-2.0
#include "client/flow_setup_loop.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <exception>
#include <system_error>

#include "client/flow_failure.hpp"
#include "client/test_negotiation.hpp"
#include "transport/epoll_set.hpp"
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
    flow_setup_loop(flow_dialer& dialer, const client_options& options,
                    const protocol::test_header& header,
                    std::vector<std::unique_ptr<message_channel>>& channels)
        : dialer_(dialer),
          options_(options),
          header_(header),
          channels_(channels),
          next_flow_(static_cast<unsigned>(channels.size())),
          accepted_(static_cast<unsigned>(channels.size())) {
        attempts_.resize(std::min<std::size_t>(options.connect_window, options.flows));
        channels_.resize(options.flows);
    }

    void run() {
        for (auto& attempt : attempts_) {
            start_next(attempt);
        }
        std::vector<epoll_event> events(attempts_.size());
        while (busy_ > 0) {
            const auto ready = epoll_.wait(events, wait_before_nearest_deadline());
            for (std::size_t i = 0; i < ready; ++i) {
                step(attempts_[events[i].data.u32]);
            }
            expire(clock::now());
        }
        if (failure_) {
            try {
                std::rethrow_exception(failure_);
            } catch (...) {
                rethrow_flow_failure(failed_flow_, options_.flows, accepted_, options_.servers);
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

    // Starts the connect on route `route` or the next one that can be
    // tried; throws the dialer's connect_error when none is left.
    void connect_from(flow_attempt& attempt, std::size_t route) {
        for (; route < dialer_.routes(attempt.flow); ++route) {
            auto started = dialer_.start(attempt.flow, route);
            if (!started.unusable.empty()) {
                attempt.last_reason = started.unusable;
                continue;
            }
            if (started.failure != 0) {
                note_failure(attempt, started.failure);
                continue;
            }
            attempt.route = route;
            attempt.phase = setup_phase::connecting;
            attempt.deadline = clock::now() + options_.common.io_timeout;
            watch(started.socket.get(), dialer_.connect_events(), attempt);
            attempt.fd = std::move(started.socket);
            return;
        }
        throw dialer_.failure(attempt.flow, attempt.last_reason, attempt.refused);
    }

    // The connect on `attempt`'s route ended without a connection: on to the
    // next route.
    void next_route(flow_attempt& attempt) {
        forget(attempt.fd.get());
        attempt.fd.reset();
        connect_from(attempt, attempt.route + 1);
    }

    static void note_failure(flow_attempt& attempt, int failure) {
        attempt.refused = failure == ECONNREFUSED;
        attempt.last_reason = std::system_category().message(failure);
    }

    // Events on `fd` come back with the place of `attempt` in the window.
    void watch(int fd, std::uint32_t events, const flow_attempt& attempt) {
        epoll_.add(fd, events, {.u32 = static_cast<std::uint32_t>(&attempt - attempts_.data())});
    }

    void forget(int fd) { epoll_.remove(fd); }

    void step(flow_attempt& attempt) {
        try {
            if (attempt.phase == setup_phase::connecting) {
                connect_moved_on(attempt);
            } else if (attempt.phase == setup_phase::awaiting_answer) {
                answered(attempt);
            }
        } catch (...) {
            fail(attempt);
        }
    }

    // The connect moved on: to the next route if it failed; once the flow is
    // connected, its test header goes out and the answer is awaited.
    void connect_moved_on(flow_attempt& attempt) {
        const int watched = attempt.fd.get();
        const int failure = dialer_.advance(attempt.fd, attempt.channel);
        if (failure != 0) {
            note_failure(attempt, failure);
            next_route(attempt);
            return;
        }
        if (!attempt.channel) {
            return;  // under way: the socket stays watched
        }
        forget(watched);  // the channel's socket, or one of the set-up's
        attempt.fd.reset();
        send_test_header(*attempt.channel, header_);
        attempt.phase = setup_phase::awaiting_answer;
        attempt.deadline = clock::now() + options_.common.io_timeout;
        watch(attempt.channel->native_handle(), EPOLLIN, attempt);
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
                attempt.refused = false;
                attempt.last_reason = no_answer_reason(options_.common.io_timeout);
                next_route(attempt);
            } catch (...) {
                fail(attempt);
            }
        }
    }

    // Until the nearest deadline, in whole milliseconds rounded up.
    std::chrono::milliseconds wait_before_nearest_deadline() const {
        auto nearest = clock::time_point::max();
        for (const auto& attempt : attempts_) {
            if (attempt.phase != setup_phase::idle) {
                nearest = std::min(nearest, attempt.deadline);
            }
        }
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(nearest - clock::now());
        return std::clamp(left, std::chrono::milliseconds(0), std::chrono::milliseconds(60'000));
    }

    flow_dialer& dialer_;
    const client_options& options_;
    const protocol::test_header& header_;
    std::vector<std::unique_ptr<message_channel>>& channels_;
    std::vector<flow_attempt> attempts_;  // the window
    epoll_set epoll_;
    unsigned next_flow_ = 0;
    unsigned busy_ = 0;
    unsigned accepted_ = 0;
    std::exception_ptr failure_;  // the first failure, of flow failed_flow_
    unsigned failed_flow_ = 0;
};

}  // namespace

void connect_flows_at_once(flow_dialer& dialer, const client_options& options,
                           const protocol::test_header& header,
                           std::vector<std::unique_ptr<message_channel>>& channels) {
    flow_setup_loop(dialer, options, header, channels).run();
}

}  // namespace sctp_perf
