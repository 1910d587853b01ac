// SPDX-License-Identifier: Apache-2.0
// The load engine's parts that need no network: the schedule, reply
// matching, and a flow catching up over a socketpair after falling behind.

#include <sys/socket.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <vector>

#include "client/load/load_flow.hpp"
#include "client/load/reply_matcher.hpp"
#include "client/load/send_schedule.hpp"
#include "protocol/wire_protocol.hpp"

using namespace sctp_perf;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

TEST_CASE("schedule: message k is due at t0 + k / rate", "[load]") {
    const clock_type::time_point t0{1s};
    const send_schedule at_3000(t0, 3000.0);  // period 333,333.33 ns
    CHECK(at_3000.paced());
    CHECK(at_3000.due(0) == t0);
    CHECK(at_3000.due(1) == t0 + 333'333ns);  // truncated to whole ns
    CHECK(at_3000.due(3) == t0 + 1ms);        // 3 periods are exactly 1 ms: no drift
    CHECK(at_3000.due(3'000'000'000ULL) == t0 + 1'000'000s);  // no drift over a billion messages
    const send_schedule fractional(t0, 0.5);                  // one message every 2 s
    CHECK(fractional.due(2) == t0 + 4s);
    const send_schedule throughput(t0, 0.0);
    CHECK_FALSE(throughput.paced());
    CHECK(throughput.due(1'000'000) == t0);
}

TEST_CASE("schedule: uniform arrivals spread the flows' phases over one period", "[load]") {
    const clock_type::time_point t0{1s};
    // 4 flows at 1,000 msg/s each: periods of 1 ms, phases 0, 250, 500 and
    // 750 us, so one message every 250 us in all.
    for (unsigned flow = 0; flow < 4; ++flow) {
        send_schedule schedule(t0, 1000.0, arrival_process::uniform, flow, 4, 0);
        const auto phase = std::chrono::microseconds(250 * flow);
        CHECK(schedule.next_due() == t0 + phase);
        schedule.advance();
        CHECK(schedule.next_due() == t0 + phase + 1ms);
        CHECK(schedule.due(1000) == t0 + phase + 1s);  // no drift
    }
}

TEST_CASE("schedule: in-step arrivals put every flow's message k at one instant", "[load]") {
    const clock_type::time_point t0{1s};
    for (unsigned flow = 0; flow < 3; ++flow) {
        send_schedule schedule(t0, 1000.0, arrival_process::in_step, flow, 3, 0);
        CHECK(schedule.next_due() == t0);
        schedule.advance();
        schedule.advance();
        CHECK(schedule.next_due() == t0 + 2ms);
    }
}

TEST_CASE("schedule: poisson gaps have the rate's mean and variance, repeatably", "[load]") {
    const clock_type::time_point t0{1s};
    // Exponential gaps of mean 1 ms have a standard deviation of 1 ms too.
    // Over n = 100,000 gaps the sample mean's standard error is 1/sqrt(n),
    // about 0.3 %: 2 % bounds are more than 6 standard errors wide.
    constexpr int n = 100'000;
    send_schedule schedule(t0, 1000.0, arrival_process::poisson, 0, 1, 42);
    double sum = 0.0;
    double sum_squares = 0.0;
    auto previous = t0;
    int negative = 0;
    for (int k = 0; k < n; ++k) {
        const double gap_ms =
            std::chrono::duration<double, std::milli>(schedule.next_due() - previous).count();
        negative += gap_ms < 0.0 ? 1 : 0;
        sum += gap_ms;
        sum_squares += gap_ms * gap_ms;
        previous = schedule.next_due();
        schedule.advance();
    }
    CHECK(negative == 0);
    const double mean = sum / n;
    const double variance = sum_squares / n - mean * mean;
    CHECK(mean == Approx(1.0).epsilon(0.02));
    CHECK(variance == Approx(1.0).epsilon(0.05));

    // The same seed and flow give the same schedule; another flow another.
    send_schedule again(t0, 1000.0, arrival_process::poisson, 0, 1, 42);
    send_schedule other_flow(t0, 1000.0, arrival_process::poisson, 1, 2, 42);
    send_schedule other_seed(t0, 1000.0, arrival_process::poisson, 0, 1, 43);
    send_schedule first(t0, 1000.0, arrival_process::poisson, 0, 1, 42);
    CHECK(again.next_due() == first.next_due());
    CHECK(other_flow.next_due() != first.next_due());
    CHECK(other_seed.next_due() != first.next_due());
}

TEST_CASE("schedule: poisson gaps are capped at 20 mean gaps", "[load]") {
    const clock_type::time_point t0{1s};
    SECTION("a draw beyond the cap is cut to it") {
        // Found by search: seed 764044, flow 0 draws u with -ln(1 - u) =
        // 23.45 for its 47th gap (between messages 45 and 46), one of the
        // draws beyond 20 that come once in e^20, about 485 million. At 1,000
        // messages/s (a mean gap of 1 ms) that gap is 20 ms, not 23.45 ms.
        send_schedule schedule(t0, 1000.0, arrival_process::poisson, 0, 1, 764044);
        auto previous = t0;
        for (int k = 0; k < 46; ++k) {
            CHECK(schedule.next_due() - previous < 20ms);
            previous = schedule.next_due();
            schedule.advance();
        }
        const auto gap = schedule.next_due() - previous;
        CHECK(gap >= 20ms - 1ns);  // each due time is truncated to whole ns
        CHECK(gap <= 20ms + 1ns);
    }
    SECTION("the cap leaves the distribution as it was") {
        // Capping at 20 means moves the mean from 1 to 1 - e^-20, by 2e-9.
        // Over n = 1,000,000 gaps of standard deviation 1 mean, the sample
        // mean's standard error is 1/sqrt(n) = 0.1 %: 0.5 % bounds are 5
        // standard errors wide, and no gap may exceed 20 means.
        constexpr int n = 1'000'000;
        send_schedule schedule(t0, 1000.0, arrival_process::poisson, 2, 4, 7);
        double sum_ms = 0.0;
        auto longest = clock_type::duration::zero();
        auto previous = t0;
        for (int k = 0; k < n; ++k) {
            const auto gap = schedule.next_due() - previous;
            longest = std::max(longest, gap);
            sum_ms += std::chrono::duration<double, std::milli>(gap).count();
            previous = schedule.next_due();
            schedule.advance();
        }
        CHECK(longest <= 20ms + 1ns);
        CHECK(sum_ms / n == Approx(1.0).epsilon(0.005));
    }
}

TEST_CASE("schedule: the longest gap each schedule leaves, as the server is told it", "[load]") {
    // Uniform and in-step: one period, 1/R; poisson: 20 mean gaps, 20/R.
    // In whole milliseconds, rounded up.
    CHECK(longest_gap_ms(0.5, arrival_process::uniform) == 2000);
    CHECK(longest_gap_ms(0.5, arrival_process::in_step) == 2000);
    CHECK(longest_gap_ms(0.5, arrival_process::poisson) == 40'000);
    CHECK(longest_gap_ms(3.0, arrival_process::uniform) == 334);   // 333.3 ms
    CHECK(longest_gap_ms(3.0, arrival_process::poisson) == 6667);  // 6666.7 ms
    // A fast schedule still says it has one: at least 1 ms.
    CHECK(longest_gap_ms(10'000'000.0, arrival_process::uniform) == 1);
    CHECK(longest_gap_ms(1000.0, arrival_process::poisson) == 20);
    // Slower than one message in 49.7 days: the field's most, 2^32 - 1 ms.
    CHECK(longest_gap_ms(1e-9, arrival_process::uniform) == 0xffffffffU);
    CHECK(longest_gap_ms(1e-9, arrival_process::poisson) == 0xffffffffU);
    // With ticks a message may go up to a tick early: one tick more.
    // 100 msg/s (10 ms) in ticks of 1/3 s (333.3 ms): 343.3 ms, 344.
    CHECK(longest_gap_ms(100.0, arrival_process::uniform, 3.0) == 344);
    CHECK(longest_gap_ms(100.0, arrival_process::poisson, 1000.0) == 201);  // 200 + 1 ms
    // No schedule: throughput (rate 0).
    CHECK(longest_gap_ms(0.0, arrival_process::poisson) == 0);
    CHECK(longest_gap_ms(0.0, arrival_process::uniform) == 0);
}

TEST_CASE("schedule: throughput is due at t0 whatever the arrivals", "[load]") {
    const clock_type::time_point t0{1s};
    send_schedule schedule(t0, 0.0, arrival_process::poisson, 3, 8, 1);
    CHECK_FALSE(schedule.paced());
    schedule.advance();
    CHECK(schedule.next_due() == t0);
}

namespace {

timed_request request(std::uint64_t sequence, std::uint32_t token) {
    const clock_type::time_point t0{1s};
    return {sequence, token, t0 + std::chrono::microseconds(sequence),
            t0 + std::chrono::microseconds(sequence) + 5us};
}

}  // namespace

TEST_CASE("matcher: in-order, out-of-order, duplicate, unknown and lost replies", "[load]") {
    reply_matcher matcher;
    for (std::uint64_t s = 100; s < 105; ++s) {
        matcher.expect(request(s, static_cast<std::uint32_t>(s * 7)));
    }
    CHECK(matcher.outstanding() == 5);

    auto r = matcher.match(100, 700);
    CHECK(r.what == reply_matcher::verdict::matched);
    // The request comes back with its times, for corrected (from due) and
    // uncorrected (from send) latency: due t0 + 100 us, sent 5 us later.
    CHECK(r.request.sent - r.request.due == 5us);

    // 103 before 101 and 102: out of order, still matched.
    CHECK(matcher.match(103, 721).what == reply_matcher::verdict::matched);
    CHECK(matcher.match(101, 707).what == reply_matcher::verdict::matched);
    CHECK(matcher.outstanding() == 2);  // 102 and 104

    CHECK(matcher.match(100, 700).what == reply_matcher::verdict::duplicate);  // settled, gone
    CHECK(matcher.match(103, 721).what == reply_matcher::verdict::duplicate);  // answered, kept
    CHECK(matcher.match(102, 1).what == reply_matcher::verdict::wrong_token);
    CHECK(matcher.outstanding() == 2);  // a wrong token answers nothing
    CHECK(matcher.match(999, 1).what == reply_matcher::verdict::unknown);

    // The test ends with 102 and 104 unanswered: counted lost, not dropped.
    CHECK(matcher.abandon_outstanding() == 2);
    CHECK(matcher.outstanding() == 0);
    CHECK(matcher.match(104, 728).what == reply_matcher::verdict::duplicate);
}

TEST_CASE("flow: a sender that fell behind catches up without skipping", "[load]") {
    int fds[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
    unique_fd peer(fds[1]);
    load_plan plan;
    plan.mode = protocol::test_mode::rate;
    plan.payload_bytes = 32;
    plan.rate_per_s = 1000.0;  // one message per ms
    plan.messages = 100;
    load_flow flow(0, std::make_unique<stream_channel>(unique_fd(fds[0])), plan);

    const auto t0 = clock_type::now() - 10ms;  // ten periods late already
    flow.begin(send_schedule(t0, plan.rate_per_s), t0, clock_type::time_point::max());
    auto sink = std::make_unique<sample_sink>();
    // Messages 0..10 are due by t0 + 10 ms: all eleven go out now, none
    // skipped; and more if this machine took a while meanwhile, since the
    // flow reads the clock again after each send, but never one that was
    // not yet due when send_due returned: a busy machine that held this
    // thread for 13 ms made 23 due, which a fixed bound of 20 refused.
    CHECK_FALSE(flow.send_due(t0 + 10ms, *sink));
    const auto returned = clock_type::now();
    const auto sent = sink->interval_sent;
    const auto due_by_return = static_cast<std::uint64_t>((returned - t0) / 1ms) + 1;
    CHECK(sent >= 11);
    CHECK(sent <= due_by_return);
    CHECK(flow.next_due() == t0 + std::chrono::milliseconds(sent));
    // The first was due at t0, ten periods ago: the slip says how late the
    // sender was (at least 10 ms).
    CHECK(sink->slip.count() == sent);
    CHECK(sink->slip.max_ns() >= 10'000'000u);
    // The last sent was due at t0 + (sent - 1) ms, at least a ms after the
    // first: the slips spread, and the median is below the maximum.
    CHECK(sink->slip.percentile_ns(500'000) < static_cast<double>(sink->slip.max_ns()));

    std::vector<std::byte> received(sent * 32);
    std::size_t got = 0;
    while (got < received.size()) {
        const auto n = ::recv(peer.get(), received.data() + got, received.size() - got, 0);
        REQUIRE(n > 0);
        got += static_cast<std::size_t>(n);
    }
    for (std::uint64_t k = 0; k < sent; ++k) {
        const auto header =
            protocol::decode_message_header(std::span(received).subspan(k * 32, 32));
        REQUIRE(header);
        CHECK(header->sequence == k);   // no primer here: the sequence starts at 0
        CHECK(header->reply_wanted());  // --echo-every 1
    }
}

TEST_CASE("flow: the warm-up's messages go out and are answered, but are not recorded", "[load]") {
    int fds[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
    unique_fd peer(fds[1]);
    load_plan plan;
    plan.mode = protocol::test_mode::rate;
    plan.payload_bytes = 16;
    plan.rate_per_s = 1000.0;  // one message per ms
    plan.duration = 1s;
    plan.warmup = 5ms;
    load_flow flow(0, std::make_unique<stream_channel>(unique_fd(fds[0])), plan);

    // Ten periods late already, with a warm-up of 5 ms: messages 0..4, due
    // at t0 + 0..4 ms, are the warm-up's; 5..10 (due t0 + 5..10 ms) and any
    // that fell due meanwhile are measured.
    const auto t0 = clock_type::now() - 10ms;
    flow.begin(send_schedule(t0, plan.rate_per_s), t0 + plan.warmup, t0 + plan.warmup + 1s);
    auto sink = std::make_unique<sample_sink>();
    CHECK_FALSE(flow.send_due(t0 + 10ms, *sink));
    CHECK(sink->warmup_sent == 5);
    const auto measured = sink->interval_sent;
    CHECK(measured >= 6);
    CHECK(sink->slip.count() == measured);  // the warm-up's slips are not kept either

    // The peer answers every request with its header, the warm-up's too.
    const auto sent = 5 + measured;
    std::vector<std::byte> received(sent * 16);
    std::size_t got = 0;
    while (got < received.size()) {
        const auto n = ::recv(peer.get(), received.data() + got, received.size() - got, 0);
        REQUIRE(n > 0);
        got += static_cast<std::size_t>(n);
    }
    REQUIRE(::send(peer.get(), received.data(), received.size(), 0) ==
            static_cast<ssize_t>(received.size()));
    std::vector<std::byte> buffer(worker_receive_bytes);
    flow.receive(*sink, buffer);
    CHECK(sink->interval_replies == measured);  // the 5 warm-up replies matched, not recorded
    CHECK(sink->corrected_run.count() == measured);
    CHECK(sink->uncorrected_interval.count() == measured);
}

TEST_CASE("streams: a reply is checked against the stream its request went on", "[load]") {
    // 100 primer round trips (sequences 0..99) and the end of test on stream
    // 0; measured message k, sequence 100 + k, on stream k % 4.
    CHECK(request_stream(0, 4, false, 100) == 0);
    CHECK(request_stream(99, 4, false, 100) == 0);
    CHECK(request_stream(100, 4, false, 100) == 0);
    CHECK(request_stream(101, 4, false, 100) == 1);
    CHECK(request_stream(103, 4, false, 100) == 3);
    CHECK(request_stream(104, 4, false, 100) == 0);
    CHECK(request_stream(105, 4, true, 100) == 0);  // the end of test after 5 messages
    CHECK(request_stream(70'000, 1, false, 100) == 0);
    CHECK(request_stream(100 + 65'535 + 65'536, 65'535, false, 100) == 1);
    // --primer 7: sequences 0..6 prime on stream 0, measured message k is
    // sequence 7 + k; --primer 0: message k is sequence k.
    CHECK(request_stream(6, 4, false, 7) == 0);
    CHECK(request_stream(8, 4, false, 7) == 1);
    CHECK(request_stream(10, 4, false, 7) == 3);
    CHECK(request_stream(3, 4, false, 0) == 3);
}
