// SPDX-License-Identifier: Apache-2.0
// The SCTP feature options as every program parses them: values, ranges,
// the client's rule that PR-SCTP needs an open loop, and refusal over TCP.
#include <catch2/catch.hpp>
#include <sstream>

#include "errors.hpp"
#include "option_test_support.hpp"
#include "options/client_options.hpp"
#include "options/server_options.hpp"

using namespace sctp_perf;
using sctp_perf::testing::command_line;

namespace {

server_options parse_server(std::vector<std::string> words) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    auto options =
        parse_server_options(cl.argc(), cl.argv(), sctp_perf::testing::stream_server, out);
    REQUIRE(options);
    return *options;
}

client_options parse_client(std::vector<std::string> words) {
    words.insert(words.begin(), {"-s", "7"});
    const command_line cl(std::move(words));
    std::ostringstream out;
    auto options =
        parse_client_options(cl.argc(), cl.argv(), sctp_perf::testing::stream_client, out);
    REQUIRE(options);
    return *options;
}

std::string client_error(std::vector<std::string> words) {
    words.insert(words.begin(), {"-s", "7"});
    return sctp_perf::testing::client_usage_error(std::move(words));
}

}  // namespace

TEST_CASE("sctp feature options: the defaults ask for nothing") {
    const auto o = parse_server({});
    CHECK_FALSE(o.common.sctp.any());
    CHECK(o.common.sctp.streams == 1);
}

TEST_CASE("sctp feature options: every option taken") {
    const auto o =
        parse_server({"--streams", "16", "--unordered", "--pr-sctp", "ttl:50", "--sack-delay",
                      "200", "--sack-freq", "2", "--stream-scheduler", "rr", "--interleave"});
    const auto& s = o.common.sctp;
    CHECK(s.streams == 16);
    CHECK(s.unordered);
    CHECK(s.pr == pr_sctp{pr_sctp_policy::ttl, 50});
    CHECK(s.sack_delay_ms == 200u);
    CHECK(s.sack_freq == 2u);
    CHECK(s.scheduler == stream_scheduler::rr);
    CHECK(s.interleave);
    const auto c = parse_client({"--streams", "65535", "--pr-sctp", "rtx:0", "--rate", "100"});
    CHECK(c.common.sctp.streams == 65535);
    CHECK(c.common.sctp.pr == pr_sctp{pr_sctp_policy::rtx, 0});
}

TEST_CASE("sctp feature options: ranges and forms") {
    CHECK_THAT(client_error({"--streams", "0"}), Catch::Contains("--streams must be 1..65535"));
    CHECK_THAT(client_error({"--streams", "65536"}), Catch::Contains("--streams must be 1..65535"));
    CHECK_THAT(client_error({"--pr-sctp", "ttl", "--rate", "1"}),
               Catch::Contains("--pr-sctp must be ttl:MS"));
    CHECK_THAT(client_error({"--pr-sctp", "prio:3", "--rate", "1"}),
               Catch::Contains("not 'prio:3'"));
    CHECK_THAT(client_error({"--sack-delay", "0"}), Catch::Contains("--sack-delay must be 1..500"));
    CHECK_THAT(client_error({"--sack-delay", "501"}),
               Catch::Contains("--sack-delay must be 1..500"));
    CHECK_THAT(client_error({"--sack-freq", "0"}), Catch::Contains("--sack-freq must be 1..65535"));
    CHECK_THAT(client_error({"--stream-scheduler", "lifo"}),
               Catch::Contains("fcfs, prio, rr, fc or wfq, not 'lifo'"));
}

TEST_CASE("sctp feature options: PR-SCTP needs an open loop on the client") {
    CHECK_THAT(client_error({"--pr-sctp", "ttl:5"}),
               Catch::Contains("--pr-sctp needs --rate or --throughput"));
    CHECK_THAT(client_error({"--pr-sctp", "ttl:5", "--flows", "2"}),
               Catch::Contains("--pr-sctp needs --rate or --throughput"));
    CHECK(parse_client({"--pr-sctp", "ttl:5", "--throughput"}).common.sctp.pr.any());
}

TEST_CASE("sctp feature options: each one refused over TCP, by name") {
    const auto message = client_error({"-t", "tcp", "--streams", "1", "--unordered", "--pr-sctp",
                                       "ttl:5", "--sack-delay", "10", "--sack-freq", "2",
                                       "--stream-scheduler", "rr", "--interleave", "--rate", "10"});
    for (const char* name : {"--streams", "--unordered", "--pr-sctp", "--sack-delay", "--sack-freq",
                             "--stream-scheduler", "--interleave"}) {
        CHECK_THAT(message, Catch::Contains(std::string(name) + " applies to SCTP only"));
    }
    // Not given, not refused: TCP runs keep working untouched.
    CHECK_FALSE(parse_client({"-t", "tcp"}).common.sctp.any());
}
