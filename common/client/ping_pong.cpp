// SPDX-License-Identifier: Apache-2.0
#include "client/ping_pong.hpp"

#include <fmt/format.h>

#include <vector>

#include "client/random_tokens.hpp"
#include "client/reply_stream.hpp"
#include "errors.hpp"
#include "protocol/wire_protocol.hpp"

namespace sctp_perf {
namespace {

using clock = std::chrono::steady_clock;

// --start-at: once the primer is done, waits for the instant. False when
// plan.stop came first; throws start_missed when the instant has passed.
bool await_start(const ping_pong_plan& plan) {
    if (!plan.start) {
        return true;
    }
    check_start_ahead(*plan.start, clock::now(), "connected and primed");
    return wait_until(plan.start->steady, plan.stop);
}

// The request, the reply it must bring back, and the buffer a reply is read
// into. Their filler is written here, once: a round trip only changes the
// request's two check bytes and the expected reply's copy of them.
struct round_trip_buffers {
    std::vector<std::byte> payload;
    std::vector<std::byte> expected;
    std::vector<std::byte> reply;
};

round_trip_buffers make_round_trip_buffers(const ping_pong_plan& plan) {
    round_trip_buffers buffers{std::vector<std::byte>(plan.payload_bytes),
                               std::vector<std::byte>(plan.reply_bytes),
                               std::vector<std::byte>(plan.reply_bytes)};
    protocol::fill_payload(buffers.payload);
    protocol::fill_payload(buffers.expected);
    return buffers;
}

// Round trips to take, the primer's included. With a duration the deadline
// ends the loop; the count is then only its upper bound.
std::uint64_t round_trips_planned(const ping_pong_plan& plan) {
    const std::uint64_t measured =
        plan.duration ? protocol::max_measured_iterations : plan.measured_iterations;
    return protocol::primer_iterations + measured;
}

// What the loop measured: `taken` round trips in all, the primer's
// included, the measured ones from `since` to `last_stop`.
ping_pong_result measured_result(std::uint64_t taken, bool stopped, clock::time_point since,
                                 wall_time since_wall, clock::time_point last_stop) {
    const std::uint64_t primer = protocol::primer_iterations;
    if (taken <= primer) {
        return {std::chrono::nanoseconds(0), 0, stopped, {}};  // stopped in the primer
    }
    return {last_stop - since, taken - primer, stopped, since_wall};
}

// A peer's error, naming the iteration it ended (and of how many, when a
// count and not a duration ends the run).
peer_error in_iteration(const peer_error& e, std::uint64_t iteration, std::uint64_t of) {
    return peer_error(of == 0 ? fmt::format("iteration {}: {}", iteration, e.what())
                              : fmt::format("iteration {} of {}: {}", iteration, of, e.what()));
}

}  // namespace

// The loop is the timed path: whatever it needs is made before it and
// summed up after it, so that a round trip costs only itself and its check.
ping_pong_result run_ping_pong(message_channel& channel, const ping_pong_plan& plan,
                               latency_recorder& recorder) {
    auto [payload, expected, reply] = make_round_trip_buffers(plan);
    random_tokens random;
    const std::uint64_t primer = protocol::primer_iterations;
    const std::uint64_t total = round_trips_planned(plan);
    clock::time_point measuring_since{};
    wall_time measuring_since_wall{};
    clock::time_point last_stop{};
    const auto deadline = plan.duration.value_or(clock::duration::max());

    std::uint64_t i = 0;
    bool stopped = false;
    for (; i < total; ++i) {
        if (plan.stop != nullptr && plan.stop->load(std::memory_order_relaxed) != 0) {
            stopped = true;
            break;
        }
        const auto r = random.next();
        payload.front() = static_cast<std::byte>(r);
        payload.back() = static_cast<std::byte>(r >> 8);
        protocol::fill_pingpong_reply(payload, expected);
        if (i == primer) {
            if (!await_start(plan)) {
                stopped = true;
                break;
            }
            measuring_since = clock::now();
            measuring_since_wall = std::chrono::system_clock::now();
        }
        // Stream 0 ordered, the default, is a plain send().
        const sctp_delivery delivery{
            static_cast<std::uint16_t>(i % plan.streams), plan.unordered, {}};
        sctp_delivery travelled;
        try {
            const auto start = clock::now();
            channel.send_message(payload, delivery);
            channel.receive_message(reply, plan.streams > 1 ? &travelled : nullptr);
            last_stop = clock::now();
            if (plan.streams > 1) {
                check_reply_stream("the reply", travelled.stream, delivery.stream);
            }
            if (i >= primer) {
                recorder.record(last_stop - start, i - primer);
            }
        } catch (const peer_error& e) {
            throw in_iteration(e, i + 1, plan.duration ? 0 : total);
        }
        if (reply != expected) {
            throw peer_error(fmt::format(
                "iteration {}: the reply does not carry the request's check bytes and filler "
                "(the peer answered without reading the request, or the stream is out of step)",
                i + 1));
        }
        if (i >= primer && last_stop - measuring_since >= deadline) {
            ++i;
            break;
        }
    }
    return measured_result(i, stopped, measuring_since, measuring_since_wall, last_stop);
}

}  // namespace sctp_perf
