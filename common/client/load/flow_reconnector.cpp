// SPDX-License-Identifier: Apache-2.0
#include "client/load/flow_reconnector.hpp"

#include <fmt/format.h>
#include <sys/epoll.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <system_error>

#include "client/test_negotiation.hpp"
#include "errors.hpp"
#include "options/fault_options.hpp"
#include "transport/stream_connector.hpp"

namespace sctp_perf {

std::chrono::nanoseconds reconnect_wait(unsigned failures, std::chrono::milliseconds longest,
                                        double draw) noexcept {
    using std::chrono::nanoseconds;
    // 10 ms doubled 13 times passes the longest wait allowed (60 s).
    const nanoseconds doubled =
        nanoseconds(first_reconnect_wait) * (nanoseconds::rep{1} << std::min(failures, 13U));
    const nanoseconds wait = std::min(doubled, nanoseconds(longest));
    const double share = 0.5 + 0.5 * std::clamp(draw, 0.0, 1.0);
    return nanoseconds(
        static_cast<long long>(std::llround(static_cast<double>(wait.count()) * share)));
}

flow_reconnector::flow_reconnector(const load_plan& plan, epoll_set& epoll, std::size_t flows)
    : plan_(plan), epoll_(epoll), attempts_(flows), random_(std::random_device{}()) {}

void flow_reconnector::lost(std::size_t i, clock::time_point now, clock::time_point stop_at) {
    auto& a = attempts_[i].emplace();
    a.outage_began = now;
    a.gives_up_at = plan_.duration ? stop_at : now + plan_.io_timeout;
    a.last_reason = "none was tried";
    a.due = now + next_wait(0);
    down_.push_back(i);
}

void flow_reconnector::step(clock::time_point now, const std::vector<load_flow*>& flows,
                            bool stopping, std::vector<outcome>& done) {
    // A copy: ending a flow's attempts changes down_.
    const auto down = down_;
    for (const auto i : down) {
        auto& a = *attempts_[i];
        auto& flow = *flows[i];
        const bool given_up = now >= a.gives_up_at;
        if (stopping || (given_up && plan_.duration)) {  // the run is over for it
            forget(i);
            done.push_back({i, nullptr});
            continue;
        }
        if (given_up) {  // a counted run, out of service for --io-timeout
            throw peer_error(fmt::format(
                "{}: its connection ended, and in {:.1f} s (--io-timeout) {} attempt{} did not "
                "set it up again; the last: {}",
                flow.name(), std::chrono::duration<double>(plan_.io_timeout).count(), a.failures,
                a.failures == 1 ? "" : "s", a.last_reason));
        }
        if (a.due > now) {
            continue;
        }
        if (a.at == stage::waiting) {
            start(i, a, now, flow);
        } else {
            failed(a, now, no_answer_reason(plan_.io_timeout));
        }
    }
}

void flow_reconnector::start(std::size_t i, attempt& a, clock::time_point now, load_flow& flow) {
    auto& dialer = *plan_.redial;
    const auto routes = dialer.routes(flow.index());
    flow.note_reconnect_attempt();
    if (routes == 0) {
        failed(a, now, "no usable address");
        return;
    }
    a.route = a.failures % routes;
    connect_start started;
    try {
        started = dialer.start(flow.index(), a.route);
    } catch (const std::exception& e) {  // a local address that cannot be bound
        failed(a, now, e.what());
        return;
    }
    if (!started.unusable.empty()) {
        failed(a, now, started.unusable);
        return;
    }
    if (started.failure != 0) {
        failed(a, now, std::system_category().message(started.failure));
        return;
    }
    a.socket = std::move(started.socket);
    a.at = stage::connecting;
    a.due = now + plan_.io_timeout;
    epoll_.add(a.socket.get(), dialer.connect_events(), {.u64 = i});
}

void flow_reconnector::on_event(std::size_t i, clock::time_point now, std::vector<outcome>& done) {
    if (!attempts_[i]) {
        return;
    }
    auto& a = *attempts_[i];
    if (a.at == stage::connecting) {
        connect_moved_on(i, a, now);
    } else if (a.at == stage::negotiating) {
        answered(i, a, done);
    }
}

void flow_reconnector::connect_moved_on(std::size_t i, attempt& a, clock::time_point now) {
    const int watched = a.socket.get();
    int failure = 0;
    try {
        failure = plan_.redial->advance(a.socket, a.channel);
    } catch (const std::exception& e) {
        epoll_.remove(watched);  // its socket may be gone with the exception
        failed(a, now, e.what());
        return;
    }
    if (failure != 0) {
        failed(a, now, std::system_category().message(failure));
        return;
    }
    if (!a.channel) {
        return;  // under way
    }
    epoll_.remove(watched);
    a.socket.reset();
    try {
        send_test_header(*a.channel, *plan_.header);
    } catch (const std::exception& e) {
        failed(a, now, e.what());
        return;
    }
    a.at = stage::negotiating;
    a.due = now + plan_.io_timeout;
    epoll_.add(a.channel->native_handle(), EPOLLIN, {.u64 = i});
}

void flow_reconnector::answered(std::size_t i, attempt& a, std::vector<outcome>& done) {
    epoll_.remove(a.channel->native_handle());
    try {
        // The answer has come (or begun to): the blocking read takes the rest
        // within --io-timeout, as the set-up's does.
        read_test_answer(*a.channel);
    } catch (const std::exception& e) {  // refused, or not an sctp-perf server
        failed(a, clock::now(), e.what());
        return;
    }
    done.push_back({i, std::move(a.channel)});
    forget(i);
}

void flow_reconnector::failed(attempt& a, clock::time_point now, std::string reason) {
    release(a);
    a.last_reason = std::move(reason);
    a.at = stage::waiting;
    ++a.failures;
    a.due = now + next_wait(a.failures);
}

std::chrono::nanoseconds flow_reconnector::next_wait(unsigned failures) {
    return reconnect_wait(failures, plan_.reconnect.longest_wait,
                          std::uniform_real_distribution<double>(0.0, 1.0)(random_));
}

void flow_reconnector::release(attempt& a) {
    if (a.socket) {
        epoll_.remove(a.socket.get());
        a.socket.reset();
    }
    if (a.channel) {
        epoll_.remove(a.channel->native_handle());
        a.channel.reset();
    }
}

void flow_reconnector::forget(std::size_t i) {
    auto& a = attempts_[i];
    if (a) {
        release(*a);
        a.reset();
    }
    down_.erase(std::remove(down_.begin(), down_.end(), i), down_.end());
}

flow_reconnector::clock::time_point flow_reconnector::next_due() const noexcept {
    auto earliest = clock::time_point::max();
    for (const auto i : down_) {
        earliest = std::min({earliest, attempts_[i]->due, attempts_[i]->gives_up_at});
    }
    return earliest;
}

}  // namespace sctp_perf
