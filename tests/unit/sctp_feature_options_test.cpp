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

using sctp_perf::testing::parsed_server;
using sctp_perf::testing::parsed_sized_client;
using sctp_perf::testing::server_usage_error;
using sctp_perf::testing::sized_client_usage_error;

TEST_CASE("sctp feature options: the defaults ask for nothing") {
    const auto o = parsed_server({});
    CHECK_FALSE(o.common.sctp.any());
    CHECK(o.common.sctp.streams == 1);
}

TEST_CASE("sctp feature options: every option taken") {
    const auto o =
        parsed_server({"--streams", "16", "--unordered", "--pr-sctp", "ttl:50", "--sack-delay",
                       "200", "--sack-freq", "2", "--stream-scheduler", "rr", "--interleave"});
    const auto& s = o.common.sctp;
    CHECK(s.streams == 16);
    CHECK(s.unordered);
    CHECK(s.pr == pr_sctp{pr_sctp_policy::ttl, 50});
    CHECK(s.sack_delay_ms == 200u);
    CHECK(s.sack_freq == 2u);
    CHECK(s.scheduler == stream_scheduler::rr);
    CHECK(s.interleave);
    const auto c =
        parsed_sized_client({"--streams", "65535", "--pr-sctp", "rtx:0", "--rate", "100"});
    CHECK(c.common.sctp.streams == 65535);
    CHECK(c.common.sctp.pr == pr_sctp{pr_sctp_policy::rtx, 0});
}

TEST_CASE("sctp feature options: ranges and forms") {
    CHECK_THAT(sized_client_usage_error({"--streams", "0"}),
               Catch::Contains("--streams must be 1..65535"));
    CHECK_THAT(sized_client_usage_error({"--streams", "65536"}),
               Catch::Contains("--streams must be 1..65535"));
    CHECK_THAT(sized_client_usage_error({"--pr-sctp", "ttl", "--rate", "1"}),
               Catch::Contains("--pr-sctp must be ttl:MS"));
    CHECK_THAT(sized_client_usage_error({"--pr-sctp", "prio:3", "--rate", "1"}),
               Catch::Contains("not 'prio:3'"));
    CHECK_THAT(sized_client_usage_error({"--sack-delay", "0"}),
               Catch::Contains("--sack-delay must be 1..500"));
    CHECK_THAT(sized_client_usage_error({"--sack-delay", "501"}),
               Catch::Contains("--sack-delay must be 1..500"));
    CHECK_THAT(sized_client_usage_error({"--sack-freq", "0"}),
               Catch::Contains("--sack-freq must be 1..65535"));
    CHECK_THAT(sized_client_usage_error({"--stream-scheduler", "lifo"}),
               Catch::Contains("fcfs, prio, rr, fc or wfq, not 'lifo'"));
}

TEST_CASE("sctp feature options: PR-SCTP needs an open loop on the client") {
    CHECK_THAT(sized_client_usage_error({"--pr-sctp", "ttl:5"}),
               Catch::Contains("--pr-sctp needs --rate or --throughput"));
    CHECK_THAT(sized_client_usage_error({"--pr-sctp", "ttl:5", "--flows", "2"}),
               Catch::Contains("--pr-sctp needs --rate or --throughput"));
    CHECK(parsed_sized_client({"--pr-sctp", "ttl:5", "--throughput"}).common.sctp.pr.any());
}

TEST_CASE("sctp feature options: each one refused over TCP, by name") {
    const auto message = sized_client_usage_error(
        {"-t", "tcp", "--streams", "1", "--unordered", "--pr-sctp", "ttl:5", "--sack-delay", "10",
         "--sack-freq", "2", "--stream-scheduler", "rr", "--interleave", "--rate", "10"});
    for (const char* name : {"--streams", "--unordered", "--pr-sctp", "--sack-delay", "--sack-freq",
                             "--stream-scheduler", "--interleave"}) {
        CHECK_THAT(message, Catch::Contains(std::string(name) + " applies to SCTP only"));
    }
    // Not given, not refused: TCP runs keep working untouched.
    CHECK_FALSE(parsed_sized_client({"-t", "tcp"}).common.sctp.any());
}
