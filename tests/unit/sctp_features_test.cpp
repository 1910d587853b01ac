// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_features.hpp"

#include <sys/socket.h>
#include <sys/time.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "loopback_connection.hpp"
#include "transport/transport_counters.hpp"
#include "transport/unique_fd.hpp"

using sctp_perf::pr_sctp;
using sctp_perf::pr_sctp_policy;
using sctp_perf::sctp_feature_request;
using sctp_perf::sctp_socket_option;
using sctp_perf::stream_scheduler;

namespace {

// The struct an option carries, read back from its bytes.
template <class T>
T option_value(const sctp_socket_option& option) {
    REQUIRE(option.value.size() == sizeof(T));
    T value;
    std::memcpy(&value, option.value.data(), sizeof value);
    return value;
}

std::vector<std::string> names_of(const std::vector<sctp_socket_option>& plan) {
    std::vector<std::string> names;
    for (const auto& option : plan) {
        names.push_back(option.name_text);
    }
    return names;
}

}  // namespace

TEST_CASE("sctp features: PR-SCTP policies parse and describe themselves", "[sctp_features]") {
    CHECK(sctp_perf::parse_pr_sctp("ttl:50") == pr_sctp{pr_sctp_policy::ttl, 50});
    CHECK(sctp_perf::parse_pr_sctp("rtx:2") == pr_sctp{pr_sctp_policy::rtx, 2});
    for (const char* text : {"ttl:1", "ttl:86400000", "rtx:0", "rtx:1000", "ttl:50", "rtx:2"}) {
        const auto pr = sctp_perf::parse_pr_sctp(text);
        REQUIRE(pr);
        CHECK(sctp_perf::describe(*pr) == text);
    }
    CHECK(sctp_perf::describe(pr_sctp{}) == "none");
}

TEST_CASE("sctp features: PR-SCTP rejects anything but a whole number in range",
          "[sctp_features]") {
    for (const char* text :
         {"ttl:0", "ttl:-1", "ttl:1.5", "rtx:1001", "ttl", "foo:1", "ttl:5x", "", "ttl:86400001",
          "ttl:", "ttl: 5", "ttl:+5", "ttl:99999999999999999999", "none", ":5", "rtx:-0"}) {
        INFO("text: \"" << text << '"');
        CHECK_FALSE(sctp_perf::parse_pr_sctp(text));
    }
}

TEST_CASE("sctp features: stream schedulers by name, with Linux's numbers", "[sctp_features]") {
    const std::vector<std::pair<std::string, int>> schedulers = {
        {"fcfs", 0}, {"prio", 1}, {"rr", 2}, {"fc", 3}, {"wfq", 4}};
    for (const auto& [name, number] : schedulers) {
        const auto scheduler = sctp_perf::parse_stream_scheduler(name);
        REQUIRE(scheduler);
        CHECK(static_cast<int>(*scheduler) == number);
        CHECK(sctp_perf::name_of(*scheduler) == name);
    }
    for (const char* text : {"", "fifo", "round-robin", "rr ", "3"}) {
        CHECK_FALSE(sctp_perf::parse_stream_scheduler(text));
    }
}

TEST_CASE("sctp features: a default request plans nothing", "[sctp_features]") {
    sctp_feature_request request;
    CHECK_FALSE(request.any());
    CHECK(sctp_perf::plan_sctp_features(request).empty());
    // Unordered delivery is a flag on each message, not a socket option.
    request.unordered = true;
    CHECK(request.any());
    CHECK(sctp_perf::plan_sctp_features(request).empty());
    // Nothing to set, so not even a bad descriptor is touched.
    CHECK_NOTHROW(sctp_perf::apply_sctp_features(-1, request));
}

TEST_CASE("sctp features: --streams asks for that many streams both ways", "[sctp_features]") {
    sctp_feature_request request;
    request.streams = 8;
    const auto plan = sctp_perf::plan_sctp_features(request);
    REQUIRE(plan.size() == 1);
    CHECK(plan[0].name == SCTP_INITMSG);
    CHECK(plan[0].name_text == "SCTP_INITMSG");
    CHECK(plan[0].option == "--streams");
    const auto init = option_value<sctp_initmsg>(plan[0]);
    CHECK(init.sinit_num_ostreams == 8);
    CHECK(init.sinit_max_instreams == 8);
    CHECK(init.sinit_max_attempts == 0);
    CHECK(init.sinit_max_init_timeo == 0);
}

TEST_CASE("sctp features: --pr-sctp turns PR-SCTP support on", "[sctp_features]") {
    for (const pr_sctp pr : {pr_sctp{pr_sctp_policy::ttl, 50}, pr_sctp{pr_sctp_policy::rtx, 0}}) {
        sctp_feature_request request;
        request.pr = pr;
        const auto plan = sctp_perf::plan_sctp_features(request);
        REQUIRE(plan.size() == 1);
        CHECK(plan[0].name == SCTP_PR_SUPPORTED);
        CHECK(plan[0].name_text == "SCTP_PR_SUPPORTED");
        CHECK(plan[0].option == "--pr-sctp");
        const auto value = option_value<sctp_assoc_value>(plan[0]);
        CHECK(value.assoc_id == SCTP_FUTURE_ASSOC);
        CHECK(value.assoc_value == 1);
    }
}

TEST_CASE("sctp features: SACK delay and frequency leave an unset one at 0 (keep)",
          "[sctp_features]") {
    struct sack_case {
        std::optional<std::uint32_t> delay_ms;
        std::optional<std::uint32_t> freq;
        std::uint32_t sent_delay;
        std::uint32_t sent_freq;
        const char* option;
    };
    for (const auto& c : {sack_case{200, std::nullopt, 200, 0, "--sack-delay"},
                          sack_case{std::nullopt, 1, 0, 1, "--sack-freq"},
                          sack_case{100, 4, 100, 4, "--sack-delay and --sack-freq"}}) {
        sctp_feature_request request;
        request.sack_delay_ms = c.delay_ms;
        request.sack_freq = c.freq;
        const auto plan = sctp_perf::plan_sctp_features(request);
        REQUIRE(plan.size() == 1);
        CHECK(plan[0].name == SCTP_DELAYED_SACK);
        CHECK(plan[0].name_text == "SCTP_DELAYED_SACK");
        CHECK(plan[0].option == c.option);
        const auto sack = option_value<sctp_sack_info>(plan[0]);
        CHECK(sack.sack_assoc_id == SCTP_FUTURE_ASSOC);
        CHECK(sack.sack_delay == c.sent_delay);
        CHECK(sack.sack_freq == c.sent_freq);
    }
}

TEST_CASE("sctp features: --stream-scheduler sends the scheduler's number", "[sctp_features]") {
    for (int number = 0; number <= 4; ++number) {
        sctp_feature_request request;
        request.scheduler = static_cast<stream_scheduler>(number);
        const auto plan = sctp_perf::plan_sctp_features(request);
        REQUIRE(plan.size() == 1);
        CHECK(plan[0].name == SCTP_STREAM_SCHEDULER);
        CHECK(plan[0].name_text == "SCTP_STREAM_SCHEDULER");
        CHECK(plan[0].option == "--stream-scheduler");
        const auto value = option_value<sctp_assoc_value>(plan[0]);
        CHECK(value.assoc_id == SCTP_FUTURE_ASSOC);
        CHECK(value.assoc_value == static_cast<std::uint32_t>(number));
    }
}

TEST_CASE("sctp features: --interleave sets fragment interleave first", "[sctp_features]") {
    sctp_feature_request request;
    request.interleave = true;
    const auto plan = sctp_perf::plan_sctp_features(request);
    REQUIRE(plan.size() == 2);
    CHECK(plan[0].name == SCTP_FRAGMENT_INTERLEAVE);
    CHECK(plan[0].name_text == "SCTP_FRAGMENT_INTERLEAVE");
    CHECK(plan[0].option == "--interleave");
    CHECK(option_value<int>(plan[0]) == 2);
    CHECK(plan[1].name == SCTP_INTERLEAVING_SUPPORTED);
    CHECK(plan[1].name_text == "SCTP_INTERLEAVING_SUPPORTED");
    CHECK(plan[1].option == "--interleave");
    const auto value = option_value<sctp_assoc_value>(plan[1]);
    CHECK(value.assoc_id == SCTP_FUTURE_ASSOC);
    CHECK(value.assoc_value == 1);
}

TEST_CASE("sctp features: everything at once, in order", "[sctp_features]") {
    sctp_feature_request request;
    request.streams = 4;
    request.unordered = true;
    request.pr = pr_sctp{pr_sctp_policy::rtx, 1};
    request.sack_freq = 1;
    request.scheduler = stream_scheduler::rr;
    request.interleave = true;
    CHECK(names_of(sctp_perf::plan_sctp_features(request)) ==
          std::vector<std::string>{"SCTP_INITMSG", "SCTP_PR_SUPPORTED", "SCTP_DELAYED_SACK",
                                   "SCTP_STREAM_SCHEDULER", "SCTP_FRAGMENT_INTERLEAVE",
                                   "SCTP_INTERLEAVING_SUPPORTED"});
}

namespace {

// A connected TCP pair on loopback whose server end gives up a read after
// 5 s, which bounds each test's one blocking read.
sctp_perf::testing::loopback_connection timed_loopback_connection() {
    auto c = sctp_perf::testing::connect_on_loopback();
    const timeval timeout{5, 0};
    REQUIRE(::setsockopt(c.server.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) == 0);
    return c;
}

}  // namespace

TEST_CASE("transport counters: TCP_INFO of a loopback connection", "[transport_counters]") {
    const auto pair = timed_loopback_connection();
    const char message[] = "ping";
    REQUIRE(::send(pair.client.get(), message, sizeof message, 0) ==
            static_cast<ssize_t>(sizeof message));
    char received[sizeof message] = {};
    REQUIRE(::recv(pair.server.get(), received, sizeof received, MSG_WAITALL) ==
            static_cast<ssize_t>(sizeof received));

    const auto counters =
        sctp_perf::read_transport_counters(pair.client.get(), sctp_perf::transport_protocol::tcp);
    CHECK(counters.source == "TCP_INFO");
    std::vector<std::string> names;
    std::uint64_t segments_sent = 0;
    for (const auto& counter : counters.counters) {
        names.push_back(counter.name);
        if (counter.name == "segments_sent") {
            segments_sent = counter.value;
        }
    }
    CHECK(names == std::vector<std::string>{"retransmitted_segments", "lost_segments", "rtt_us",
                                            "rtt_var_us", "rto_us", "cwnd_segments",
                                            "segments_sent", "segments_received", "reordering"});
    // At least the SYN and the segment carrying "ping".
    CHECK(segments_sent >= 2);
}

TEST_CASE("sctp features: SCTP options on a TCP socket fail, naming the option",
          "[sctp_features]") {
    // This machine may have no SCTP, but a TCP socket answers every
    // IPPROTO_SCTP option with ENOPROTOOPT, which exercises the error path.
    const auto pair = timed_loopback_connection();
    sctp_feature_request request;
    request.streams = 4;
    try {
        sctp_perf::apply_sctp_features(pair.client.get(), request);
        FAIL("apply_sctp_features did not throw");
    } catch (const std::system_error& e) {
        CHECK(e.code() == std::errc::no_protocol_option);
        CHECK_THAT(e.what(), Catch::Contains("this kernel has no SCTP_INITMSG (needed for "
                                             "--streams)"));
    }
    CHECK_THROWS_AS(sctp_perf::read_sctp_features(pair.client.get()), std::system_error);
    CHECK_THROWS_AS(
        sctp_perf::read_transport_counters(pair.client.get(), sctp_perf::transport_protocol::sctp),
        std::system_error);
}
