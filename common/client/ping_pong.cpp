// SPDX-License-Identifier: Apache-2.0
#include "client/ping_pong.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
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

// A new request: fresh check bytes, and the reply that must bring them back.
void draw_check_bytes(round_trip_buffers& buffers, random_tokens& random) noexcept {
    const auto r = random.next();
    buffers.payload.front() = static_cast<std::byte>(r);
    buffers.payload.back() = static_cast<std::byte>(r >> 8);
    protocol::fill_pingpong_reply(buffers.payload, buffers.expected);
}

// Round trips to take, the primer's included. With a duration the deadline
// ends the loop; the count is then only its upper bound.
std::uint64_t round_trips_planned(const ping_pong_plan& plan) {
    const std::uint64_t measured =
        plan.duration ? protocol::max_measured_iterations : plan.measured_iterations;
    return std::uint64_t{plan.primer_iterations} + measured;
}

// Where the loop is: in the primer, in the warm-up (until warm_until), or
// measuring, from round trip `first` on, since `since`.
struct measure_window {
    std::uint64_t primer = 0;
    bool measuring = false;
    std::uint64_t first = 0;
    clock::time_point warm_until = clock::time_point::max();
    clock::time_point since{};
    wall_time since_wall{};
    process_usage usage_since{};  // the client's CPU time as measuring began

    // Before round trip i: the measurement opens once the primer and the
    // warm-up are over. The clock is read only in the warm-up.
    void open_if_due(std::uint64_t i) {
        if (!measuring && i >= primer && clock::now() >= warm_until) {
            measuring = true;
            first = i;
            usage_since = read_process_usage();  // once, outside any round trip's window
            since = clock::now();
            since_wall = std::chrono::system_clock::now();
        }
    }
};

// What the loop measured: `taken` round trips in all, the primer's and the
// warm-up's included, the measured ones up to `last_stop`, and the CPU time
// the client spent since the measurement opened.
ping_pong_result measured_result(const measure_window& window, std::uint64_t taken, bool stopped,
                                 clock::time_point last_stop) {
    if (!window.measuring) {  // stopped in the primer or the warm-up
        const auto warmed = taken > window.primer ? taken - window.primer : 0;
        return {std::chrono::nanoseconds(0), 0, warmed, stopped, {}};
    }
    const auto usage_until = read_process_usage();
    ping_pong_result result{last_stop - window.since, taken - window.first,
                            window.first - window.primer, stopped, window.since_wall};
    result.cpu_user_s = usage_until.cpu_user_s - window.usage_since.cpu_user_s;
    result.cpu_system_s = usage_until.cpu_system_s - window.usage_since.cpu_system_s;
    return result;
}

// A peer's error, naming the iteration it ended (and of how many, when a
// count and not a duration ends the run).
peer_error in_iteration(const peer_error& e, std::uint64_t iteration, std::uint64_t of) {
    return peer_error(of == 0 ? fmt::format("iteration {}: {}", iteration, e.what())
                              : fmt::format("iteration {} of {}: {}", iteration, of, e.what()));
}

// --one-way: the server's stamps in every reply, taken into plan.split.
std::optional<one_way_timing> one_way_of(const ping_pong_plan& plan) {
    std::optional<one_way_timing> one_way;
    if (plan.one_way) {
        one_way.emplace(protocol::test_mode::ping_pong, *plan.one_way);
    }
    return one_way;
}

// After the timed window: every byte of the reply but the server's stamps
// (`stamp_bytes` of them, 0 without --one-way) must be what the request
// asked for. The expected reply takes the stamps first.
void check_reply(std::span<const std::byte> reply, std::span<std::byte> expected,
                 std::size_t stamp_bytes) {
    if (stamp_bytes != 0) {
        const auto at = protocol::server_stamps_offset(protocol::test_mode::ping_pong);
        std::copy_n(reply.begin() + static_cast<std::ptrdiff_t>(at), stamp_bytes,
                    expected.begin() + static_cast<std::ptrdiff_t>(at));
    }
    if (!std::equal(reply.begin(), reply.end(), expected.begin(), expected.end())) {
        throw peer_error(
            "the reply does not carry the request's check bytes and filler (the peer answered "
            "without reading the request, or the stream is out of step)");
    }
}

// --timestamps --one-way over TCP: the server's transmit stamp of a reply
// comes in the next one, so one round trip more than the run measures, not
// timed, brings the last measured round trip's (protocol/wire_protocol.hpp).
// The test header counted it.
void trailing_round_trip(message_channel& channel, round_trip_buffers& buffers,
                         random_tokens& random, round_trip_stamps& stamps,
                         std::size_t stamp_bytes) {
    draw_check_bytes(buffers, random);
    const auto start = clock::now();
    stamps.before_send(start);
    channel.send_message(buffers.payload, {});
    channel.receive_message(buffers.reply, nullptr);
    const auto server =
        protocol::decode_server_stamps(protocol::test_mode::ping_pong, buffers.reply, true, true);
    stamps.after_reply(buffers.payload.size(), false, clock::now(), &server);
    check_reply(buffers.reply, buffers.expected, stamp_bytes);
}

}  // namespace

// The loop is the timed path: whatever it needs is made before it and
// summed up after it, so that a round trip costs only itself and its check.
ping_pong_result run_ping_pong(message_channel& channel, const ping_pong_plan& plan,
                               latency_recorder& recorder) {
    auto buffers = make_round_trip_buffers(plan);
    auto& [payload, expected, reply] = buffers;
    random_tokens random;
    measure_window window{plan.primer_iterations};
    const std::uint64_t total = round_trips_planned(plan);
    clock::time_point last_stop{};
    const auto deadline = plan.duration.value_or(clock::duration::max());
    auto one_way = one_way_of(plan);
    reply_timeline* const timeline = plan.watch != nullptr ? plan.watch->timeline(0, 1) : nullptr;
    round_trip_stamps* const stamps = plan.stamps;  // held where no call can change it
    // With --timestamps too, the server's kernel receive stamp follows its
    // two, and over TCP its transmit stamp of the previous reply.
    const bool server_transmit = stamps != nullptr && stamps->server_transmit_stamped();
    const std::size_t stamp_bytes = protocol::server_stamps_size +
                                    (stamps != nullptr ? protocol::server_receive_stamp_size : 0) +
                                    (server_transmit ? protocol::server_transmit_stamp_size : 0);
    const std::size_t checked_stamp_bytes = one_way ? stamp_bytes : 0;

    std::uint64_t i = 0;
    bool stopped = false;
    for (; i < total; ++i) {
        if (plan.stop != nullptr && plan.stop->load(std::memory_order_relaxed) != 0) {
            stopped = true;
            break;
        }
        draw_check_bytes(buffers, random);
        if (i == window.primer) {
            if (!await_start(plan)) {
                stopped = true;
                break;
            }
            window.warm_until = clock::now() + plan.warmup;
        }
        window.open_if_due(i);
        if (plan.watch != nullptr && window.measuring && i == window.first) {
            plan.watch->measuring_from(window.since);
        }
        // Stream 0 ordered, the default, is a plain send().
        const sctp_delivery delivery{
            static_cast<std::uint16_t>(i % plan.streams), plan.unordered, {}};
        sctp_delivery travelled;
        clock::time_point start;
        try {
            start = clock::now();
            // The stamps' branches are [[unlikely]]: kept out of the loop's
            // common path, where they would spread the code every round trip
            // runs through.
            if (stamps != nullptr) [[unlikely]] {
                stamps->before_send(start);
            }
            channel.send_message(payload, delivery);
            channel.receive_message(reply, plan.streams > 1 ? &travelled : nullptr);
            last_stop = clock::now();
            if (stamps != nullptr) [[unlikely]] {
                // With --one-way the split takes the server's stamps too.
                std::optional<protocol::server_stamps> server;
                if (one_way) {
                    // --timestamps with --one-way: the kernel's receive
                    // stamp is the third.
                    server = protocol::decode_server_stamps(protocol::test_mode::ping_pong, reply,
                                                            true, server_transmit);
                }
                stamps->after_reply(payload.size(), window.measuring, last_stop,
                                    server ? &*server : nullptr);
            }
            if (plan.streams > 1) {
                check_reply_stream("the reply", travelled.stream, delivery.stream);
            }
            if (window.measuring) {
                recorder.record(last_stop - start, i - window.first);
                if (timeline != nullptr) {
                    timeline->add({(start - window.since).count(),
                                   (last_stop - window.since).count(), 0,
                                   channel.last_read_path()});
                }
            }
            check_reply(reply, expected, checked_stamp_bytes);
            if (one_way) {
                one_way->take(start, last_stop, reply, window.measuring, plan.split);
            }
        } catch (const peer_error& e) {
            throw in_iteration(e, i + 1, plan.duration ? 0 : total);
        }
        if (window.measuring && last_stop - window.since >= deadline) {
            ++i;
            break;
        }
    }
    if (plan.watch != nullptr) {
        plan.watch->measurement_ended(clock::now());
    }
    auto result = measured_result(window, i, stopped, last_stop);
    if (server_transmit) {
        if (!stopped) {
            try {
                trailing_round_trip(channel, buffers, random, *stamps, stamp_bytes);
            } catch (const peer_error& e) {
                throw in_iteration(e, i + 1, plan.duration ? 0 : total + 1);
            }
        }
        stamps->finish();
    }
    return result;
}

}  // namespace sctp_perf
