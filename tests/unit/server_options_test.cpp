// SPDX-License-Identifier: Apache-2.0
#include "options/server_options.hpp"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <sstream>

#include "errors.hpp"
#include "option_test_support.hpp"

using namespace sctp_perf;

using sctp_perf::testing::parsed_server;
using sctp_perf::testing::server_usage_error;

TEST_CASE("server options: defaults and every flag") {
    const auto d = parsed_server({});
    CHECK(d.port == 45453);
    CHECK(d.bind_addresses.empty());
    CHECK_FALSE(d.common.nagle);
    CHECK(d.common.transport == transport_protocol::sctp);
    CHECK(d.max_clients == 0);  // the default: decided at start, within the descriptor limit
    CHECK(d.threads == 0);      // one worker per online CPU, decided at start

    const auto o = parsed_server({"-n", "-p", "0", "-a", "127.0.0.1", "-t", "tcp", "--max-clients",
                                  "3", "--io-timeout", "1", "--threads", "4"});
    CHECK(o.common.nagle);
    CHECK(o.port == 0);
    CHECK(o.bind_addresses == std::vector<std::string>{"127.0.0.1"});
    CHECK(o.common.transport == transport_protocol::tcp);
    CHECK(o.max_clients == 3);
    CHECK(o.threads == 4);
    CHECK(o.common.io_timeout == std::chrono::seconds(1));

    const auto u =
        parsed_server({"--server_port=7", "--server_accept_addr=::1", "--test_enable_nagle"});
    CHECK(u.port == 7);
    CHECK(u.bind_addresses.front() == "::1");
    CHECK(u.common.nagle);
}

TEST_CASE("server options: validation") {
    using Catch::Matchers::Contains;
    CHECK_THAT(server_usage_error({"-p", "-1"}), Contains("server-port"));
    CHECK_THAT(server_usage_error({"-p", "65536"}), Contains("-p/--server-port must be 0..65535"));
    CHECK_THAT(server_usage_error({"-a", "1.2.3.4,5.6.7.8"}), Contains("takes one address here"));
    CHECK_THAT(server_usage_error({"-t", "quic"}), Contains("must be sctp or tcp"));
    CHECK_THAT(server_usage_error({"--max-clients", "0"}), Contains("--max-clients must be"));
    CHECK_THAT(server_usage_error({"--max-clients", "2M"}),
               Contains("--max-clients must be 1..1000000 (and within ulimit -n)"));
    CHECK_THAT(server_usage_error({"--threads", "0"}), Contains("--threads must be 1..1024"));
    CHECK_THAT(server_usage_error({"-s", "3"}), Contains("unrecognised"));
    CHECK_THAT(server_usage_error({"--poll-before-sleep", "1000001"}),
               Contains("--poll-before-sleep must be 0..1000000 microseconds"));
    CHECK_THAT(server_usage_error({"--spin", "--poll-before-sleep", "0"}),
               Contains("two waiting policies"));
}

TEST_CASE("server options: the waiting policy reaches the sessions' identity") {
    const auto o = parsed_server({"--poll-before-sleep", "75"});
    CHECK(o.common.poll_before_sleep.count() == 75);
    CHECK(parsed_server({}).common.poll_before_sleep == default_poll_before_sleep);
    CHECK(parsed_server({"--spin"}).common.poll_before_sleep.count() == 0);
}

TEST_CASE("server options: SOCK_SEQPACK binds a list and refuses -t") {
    const auto o = parsed_server({"-a", "10.0.0.1,10.0.1.1"}, sctp_perf::testing::seqpack_server);
    CHECK(o.bind_addresses == std::vector<std::string>{"10.0.0.1", "10.0.1.1"});
    CHECK_THAT(server_usage_error({"-t", "tcp"}, sctp_perf::testing::seqpack_server),
               Catch::Matchers::Contains("always uses SCTP"));
}

TEST_CASE("server options: the test hooks, only with SCTP_PERF_TEST_HOOKS=1") {
    ::unsetenv("SCTP_PERF_TEST_HOOKS");
    CHECK(parsed_server({}).test_reply_delay.count() == 0);
    CHECK_THAT(server_usage_error({"--test-reply-delay", "500"}),
               Catch::Contains("refused unless SCTP_PERF_TEST_HOOKS=1 is set"));
    ::setenv("SCTP_PERF_TEST_HOOKS", "yes", 1);  // only 1 turns the hooks on
    CHECK_THAT(server_usage_error({"--test-reply-delay", "500"}),
               Catch::Contains("refused unless SCTP_PERF_TEST_HOOKS=1 is set"));
    ::setenv("SCTP_PERF_TEST_HOOKS", "1", 1);
    CHECK(parsed_server({"--test-reply-delay", "500"}).test_reply_delay ==
          std::chrono::microseconds(500));
    CHECK(parsed_server({"--test-reply-delay", "1000000"}).test_reply_delay ==
          std::chrono::seconds(1));
    for (const char* out_of_range : {"0", "1000001", "-5"}) {
        CHECK_THAT(server_usage_error({"--test-reply-delay", out_of_range}),
                   Catch::Contains("--test-reply-delay must be 1..1000000 microseconds"));
    }
    CHECK(parsed_server({"--test-wake-delay", "250"}).test_wake_delay ==
          std::chrono::microseconds(250));
    CHECK_THAT(server_usage_error({"--test-wake-delay", "0"}),
               Catch::Contains("--test-wake-delay must be 1..1000000 microseconds"));
    ::unsetenv("SCTP_PERF_TEST_HOOKS");
    CHECK_THAT(server_usage_error({"--test-wake-delay", "250"}),
               Catch::Contains("refused unless SCTP_PERF_TEST_HOOKS=1 is set"));
}
