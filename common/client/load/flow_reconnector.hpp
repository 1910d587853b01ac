// SPDX-License-Identifier: Apache-2.0
#pragma once
// --reconnect: sets up again, without waiting, the flows of one load worker
// whose connection ended, while the worker goes on driving the others.
//
// A flow out of service waits, then connects (a non-blocking connect on one
// of the server's routes, in turn) and opens its test again with the run's
// header, each step in the worker's own epoll set and bounded by
// --io-timeout. An attempt that fails (refused, no answer, the test refused
// by a server that is still starting) waits again: the first wait is
// first_reconnect_wait, and each failure doubles it up to the longest
// (--reconnect-backoff), each drawn at random from its upper half, so that
// a thousand flows that lost their server at once come back spread over a
// wait rather than in one burst, and a server that is down is asked a few
// times a second per flow rather than in a loop.
//
// A flow gives up when the run is over for it: with --duration, at its end
// (the flow then finishes out of service, its outage without an end); with
// a count, once it has been out of service for --io-timeout, which fails
// the run as a server that stopped answering does.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "client/flow_setup_loop.hpp"
#include "client/load/load_flow.hpp"
#include "client/load/load_plan.hpp"
#include "transport/epoll_set.hpp"
#include "transport/unique_fd.hpp"

namespace sctp_perf {

// The wait before attempt `failures` + 1 of an outage: the first wait
// doubled per failure, at most `longest`, times `draw` (0 <= draw < 1) of
// its upper half, so between half of it and all of it.
std::chrono::nanoseconds reconnect_wait(unsigned failures, std::chrono::milliseconds longest,
                                        double draw) noexcept;

class flow_reconnector {
  public:
    using clock = std::chrono::steady_clock;

    // `epoll`: the worker's set, where a flow's attempts are watched with
    // the flow's place `i` as their data, as its connection was.
    flow_reconnector(const load_plan& plan, epoll_set& epoll, std::size_t flows);

    // Flow `i` lost its connection at `now` (load_flow::lose_connection is
    // done): its first attempt is due after a wait. `stop_at`: when its run
    // ends (load_flow::stop_at), which no wait may pass.
    void lost(std::size_t i, clock::time_point now, clock::time_point stop_at);

    // What came of a flow's attempts: a new connection with its test
    // accepted (channel set), or the end of its trying (channel empty).
    struct outcome {
        std::size_t i = 0;
        std::unique_ptr<message_channel> channel;
    };

    // Starts the attempts due by `now`, fails those past their deadline, and
    // ends the flows whose run is over (`stopping`: an interrupt ended it).
    // Appends what came of it to `done`. Throws peer_error when a flow of a
    // counted run stayed out of service for --io-timeout.
    void step(clock::time_point now, const std::vector<load_flow*>& flows, bool stopping,
              std::vector<outcome>& done);
    // An epoll event for flow `i`, which is out of service.
    void on_event(std::size_t i, clock::time_point now, std::vector<outcome>& done);

    // The earliest attempt or deadline; time_point::max() when no flow is
    // out of service.
    clock::time_point next_due() const noexcept;
    bool idle() const noexcept { return down_.empty(); }

  private:
    enum class stage { waiting, connecting, negotiating };
    struct attempt {
        stage at = stage::waiting;
        unsigned failures = 0;
        std::size_t route = 0;
        clock::time_point outage_began{};
        // When it stops trying: the run's end with a duration, else
        // --io-timeout after the outage began (which fails the run).
        clock::time_point gives_up_at{};
        clock::time_point due{};                   // waiting: the next attempt; else its deadline
        unique_fd socket;                          // connecting
        std::unique_ptr<message_channel> channel;  // negotiating
        std::string last_reason;
    };

    void start(std::size_t i, attempt& a, clock::time_point now, load_flow& flow);
    void connect_moved_on(std::size_t i, attempt& a, clock::time_point now);
    void answered(std::size_t i, attempt& a, std::vector<outcome>& done);
    // Closes what an attempt holds (a connecting socket, a channel awaiting
    // the answer), out of the epoll set first.
    void release(attempt& a);
    // The attempt failed for `reason`: what it held is closed, and the next
    // one waits.
    void failed(attempt& a, clock::time_point now, std::string reason);
    // The wait after `failures` failed attempts, drawn.
    std::chrono::nanoseconds next_wait(unsigned failures);
    // Ends flow i's attempts: whatever they hold is closed.
    void forget(std::size_t i);

    const load_plan& plan_;
    epoll_set& epoll_;
    std::vector<std::optional<attempt>> attempts_;  // per flow of the worker
    std::vector<std::size_t> down_;                 // the flows with an attempt
    std::mt19937_64 random_;
};

}  // namespace sctp_perf
