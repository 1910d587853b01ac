// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a load run follows (--rate, --throughput, or ping-pong over the
// engine): the options as the engine reads them, and what the client learned
// before the run (the server's terms, the start instant).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/one_way_timing.hpp"
#include "client/run_watch.hpp"
#include "client/start_wait.hpp"
#include "options/arrival_process.hpp"
#include "options/client_options.hpp"
#include "options/option_defaults.hpp"
#include "protocol/wire_protocol.hpp"
#include "transport/sctp_features.hpp"
#include "transport/transport_protocol.hpp"

namespace sctp_perf {

class flow_dialer;  // client/flow_setup_loop.hpp

struct load_plan {
    protocol::test_mode mode = protocol::test_mode::rate;
    std::uint32_t payload_bytes = 16;
    // Every reply: the request's message header, then filler up to this
    // size (protocol::load_reply_size unless the test asked for more).
    std::uint32_t reply_bytes = 16;
    double rate_per_s = 0.0;  // per flow; 0 in throughput mode
    // How rate mode spreads the flows' messages (see send_schedule.hpp);
    // `seed` draws a poisson schedule's gaps, flow i of `flow_count` its own.
    arrival_process arrivals = arrival_process::uniform;
    std::uint64_t seed = 0;
    // --batch: due messages sent per system call, at most (see
    // batch_planner.hpp); 1..max_batch_messages.
    std::size_t batch = 1;
    // --tick-rate (rate mode): the messages due within each tick of 1/T s go
    // together at its start, and are timed from it; unset: none.
    std::optional<double> tick_rate_per_s;
    unsigned flow_count = 1;
    std::uint32_t echo_every = 1;  // every Nth measured message asks for a reply
    std::uint64_t messages = 0;    // measured messages per flow, when no duration is set
    std::uint32_t primer_iterations = default_primer_iterations;  // per flow, before t0
    std::optional<std::chrono::nanoseconds> duration;
    // With a duration: the load runs this long first, unrecorded (no
    // histogram, interval, latency-file row or count but its own).
    std::chrono::nanoseconds warmup{0};
    unsigned threads = 1;
    // --cpu: with more than one worker, worker i is pinned to the i-th CPU
    // of this list (runtime/cpu_affinity.hpp, worker_cpus); empty: none is.
    std::vector<unsigned> cpus;
    std::optional<std::chrono::nanoseconds> interval;
    std::chrono::milliseconds io_timeout{10'000};
    // When the first flow began to connect, to say how long the flows have
    // waited when the server ends one during the primer; unset: not said.
    std::optional<std::chrono::steady_clock::time_point> setup_began{};
    // --one-way: every reply carries the server's stamps after its message
    // header (reply_bytes has room), split into the sinks' one_way.
    std::optional<one_way_clocks> one_way{};
    // --timestamps: each round trip split by the kernel's stamps
    // (client/load/flow_stamps.hpp), into the sinks' split; with --one-way
    // every reply also carries the server kernel's receive stamp, and over
    // TCP its transmit stamp of the reply before.
    bool timestamps = false;
    bool server_receive_stamps = false;
    bool server_transmit_stamps = false;
    // Read by the workers as they run; non-zero (a signal's number, see
    // runtime/interrupt.hpp) ends every flow early and cleanly: no more
    // measured messages, then the end of test and the server's account.
    const std::atomic<int>* stop = nullptr;
    // --start-at: t0 is this instant, waited for once every flow is primed
    // and every worker ready.
    std::optional<start_instant> start{};

    // How the measured messages travel (SCTP only; the defaults are plain
    // sends): flow message k goes on stream k % streams.
    transport_protocol transport = transport_protocol::tcp;
    std::uint16_t streams = 1;
    bool unordered = false;
    pr_sctp pr;           // this end's PR-SCTP policy for its requests
    pr_sctp server_pr{};  // the server's for its replies, from its settings

    // Fan-out: each server's "host:port", flow k's being server k modulo
    // their number; empty with one server (nothing is then kept per server).
    std::vector<std::string> servers;
    // Told of the measurement's start and end, each interval and every timed
    // reply (client/run_watch.hpp); null: nobody watches.
    run_watch* watch = nullptr;

    // --reconnect: a flow whose connection ends is connected again with
    // `redial` and opens its test again with `header` (both set by the
    // client as it connects, and living as long as the run).
    reconnect_policy reconnect{};
    flow_dialer* redial = nullptr;
    const protocol::test_header* header = nullptr;

    // Replies may overtake each other (several streams, unordered, or some
    // given up): the end-of-test message must then wait for them, or it
    // would overtake them too.
    bool replies_may_reorder() const noexcept {
        return streams > 1 || unordered || pr.any() || server_pr.any();
    }
    bool partially_reliable() const noexcept { return pr.any() || server_pr.any(); }
};

// The plan the options make: every member but those the client learns as
// it connects (setup_began, one_way, stop, start, server_pr), which are
// left as they are by default. Without --seed, a poisson schedule's seed is
// drawn here from the system's entropy (64 bits), and reported so that the
// run can be repeated.
load_plan load_plan_of(const client_options& options);

}  // namespace sctp_perf
