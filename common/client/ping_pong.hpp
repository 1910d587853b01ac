// SPDX-License-Identifier: Apache-2.0
#pragma once
// The ping-pong workload: a closed loop of round trips over one channel.
//
// After the primer iterations and, in a timed run, the warm-up's seconds
// (both unrecorded), each measured iteration is
//     start clock -> send the request -> receive the whole reply -> stop clock,
// so a stall counts once, as the single long round trip it delays; --rate
// measures what an open-loop sender would see instead.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

#include "client/one_way_timing.hpp"
#include "client/round_trip_stamps.hpp"
#include "client/run_watch.hpp"
#include "client/start_wait.hpp"
#include "options/option_defaults.hpp"
#include "runtime/process_usage.hpp"
#include "stats/latency_recorder.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

struct ping_pong_plan {
    std::uint32_t payload_bytes = 1;
    std::uint32_t measured_iterations = 0;             // used when no duration is set
    std::optional<std::chrono::nanoseconds> duration;  // run for this long instead
    // With a duration: round trips go on for this long after the primer
    // (and after `start`) unrecorded, and only then is `duration` measured.
    std::chrono::nanoseconds warmup{0};
    std::uint32_t primer_iterations = default_primer_iterations;  // unrecorded, first
    std::uint16_t streams = 1;  // SCTP: round trip i goes on stream i % streams
    bool unordered = false;     // SCTP: requests sent unordered
    // protocol::reply_size, or the size the test asked for; every reply must
    // be what fill_pingpong_reply makes of its request, filler included.
    std::uint32_t reply_bytes = 2;
    // Read before each round trip; non-zero (a signal's number, see
    // runtime/interrupt.hpp) ends the run there, with what it measured.
    const std::atomic<int>* stop = nullptr;
    // --start-at: after the primer, wait for this instant, then measure.
    std::optional<start_instant> start{};
    // --one-way: the replies carry the server's stamps (the test asked for
    // them, and reply_bytes has room), split into `split`.
    std::optional<one_way_clocks> one_way{};
    one_way_split* split = nullptr;
    // --timestamps: the kernel's stamps of each round trip, split
    // (client/round_trip_stamps.hpp); null: none are taken.
    round_trip_stamps* stamps = nullptr;
    // Told of the measurement's start and end and of every measured round
    // trip (client/run_watch.hpp); null: nobody watches.
    run_watch* watch = nullptr;
};

struct ping_pong_result {
    std::chrono::nanoseconds elapsed{0};  // wall time of the measured iterations
    std::uint64_t measured_iterations = 0;
    std::uint64_t warmup_iterations = 0;  // round trips of plan.warmup, unrecorded
    bool stopped = false;                 // ended early by plan.stop
    // The wall-clock time at which the first measured round trip began;
    // unset when none did.
    std::optional<wall_time> began{};
    // The client's CPU time over the measured iterations (getrusage, the
    // whole process), read as the measurement opens and once the loop
    // ends; 0 when none was measured.
    double cpu_user_s = 0.0;
    double cpu_system_s = 0.0;
};

// Runs the primer, waits for plan.start if set, runs the warm-up, then the measured iterations,
// recording into `recorder`, until all are done or plan.stop is set. Throws start_missed when
// plan.start passed during the primer, and peer_error naming the iteration at which the peer
// failed, or whose reply does not carry the request's check bytes.
ping_pong_result run_ping_pong(message_channel& channel, const ping_pong_plan& plan,
                               latency_recorder& recorder);

}  // namespace sctp_perf
