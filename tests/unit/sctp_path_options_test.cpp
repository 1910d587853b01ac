// SPDX-License-Identifier: Apache-2.0
// The path options (--sctp-hb-interval, the retransmission limits, the pf
// threshold, --sctp-primary) and --at as the programs parse them: values,
// ranges, refusal over TCP, and one sentence per broken rule.
#include <catch2/catch.hpp>

#include "option_test_support.hpp"

using namespace sctp_perf;

using sctp_perf::testing::parsed_server;
using sctp_perf::testing::parsed_sized_client;
using sctp_perf::testing::server_usage_error;
using sctp_perf::testing::sized_client_usage_error;

TEST_CASE("path options: the defaults ask for nothing") {
    CHECK_FALSE(parsed_server({}).common.sctp_paths.any());
    CHECK_FALSE(parsed_sized_client({}).common.sctp_paths.any());
    CHECK_FALSE(parsed_sized_client({}).faults.any());
}

TEST_CASE("path options: every one taken, at both ends") {
    const auto s = parsed_server({"--sctp-hb-interval", "100", "--sctp-path-max-retrans", "1",
                                  "--sctp-assoc-max-retrans", "10", "--sctp-pf-threshold", "0"})
                       .common.sctp_paths;
    CHECK(s.hb_interval_ms == 100u);
    CHECK_FALSE(s.hb_off);
    CHECK(s.path_max_retrans == 1);
    CHECK(s.assoc_max_retrans == 10);
    CHECK(s.pf_threshold == 0);
    const auto c = parsed_sized_client({"--sctp-hb-interval", "off", "--sctp-path-max-retrans",
                                        "65535", "--sctp-primary", "10.77.2.2"})
                       .common.sctp_paths;
    CHECK(c.hb_off);
    CHECK_FALSE(c.hb_interval_ms.has_value());
    CHECK(c.path_max_retrans == 65535);
    CHECK(c.primary == "10.77.2.2");
    CHECK(parsed_sized_client({"--sctp-primary", "fd00::2"}).common.sctp_paths.primary ==
          "fd00::2");
}

TEST_CASE("path options: ranges and forms, one sentence each") {
    CHECK_THAT(sized_client_usage_error({"--sctp-hb-interval", "0"}),
               Catch::Contains("--sctp-hb-interval must be 1..86400000 milliseconds or off, "
                               "not '0'"));
    CHECK_THAT(sized_client_usage_error({"--sctp-hb-interval", "never"}),
               Catch::Contains("not 'never'"));
    CHECK_THAT(sized_client_usage_error({"--sctp-path-max-retrans", "0"}),
               Catch::Contains("--sctp-path-max-retrans must be 1..65535"));
    CHECK_THAT(sized_client_usage_error({"--sctp-assoc-max-retrans", "65536"}),
               Catch::Contains("--sctp-assoc-max-retrans must be 1..65535"));
    CHECK_THAT(sized_client_usage_error({"--sctp-pf-threshold", "70000"}),
               Catch::Contains("--sctp-pf-threshold must be 0..65535"));
    CHECK_THAT(sized_client_usage_error({"--sctp-primary", "server.example"}),
               Catch::Contains("--sctp-primary takes an IPv4 or IPv6 address of the server, not "
                               "'server.example'"));
}

TEST_CASE("path options: each one refused over TCP, by name") {
    const auto message =
        sized_client_usage_error({"-t", "tcp", "--sctp-hb-interval", "100",
                                  "--sctp-path-max-retrans", "1", "--sctp-assoc-max-retrans", "2",
                                  "--sctp-pf-threshold", "0", "--sctp-primary", "10.0.0.1"});
    for (const char* name : {"--sctp-hb-interval", "--sctp-path-max-retrans",
                             "--sctp-assoc-max-retrans", "--sctp-pf-threshold", "--sctp-primary"}) {
        CHECK_THAT(message, Catch::Contains(std::string(name) +
                                            " applies to SCTP only; drop it or use -t sctp"));
    }
    CHECK_THAT(server_usage_error({"-t", "tcp", "--sctp-pf-threshold", "1"}),
               Catch::Contains("--sctp-pf-threshold applies to SCTP only"));
}

TEST_CASE("path options: --sctp-primary is the client's alone") {
    CHECK_THAT(server_usage_error({"--sctp-primary", "10.0.0.1"}), Catch::Contains("sctp-primary"));
}

TEST_CASE("fault options: --at instants and commands, in command-line order") {
    const auto o = parsed_sized_client({"--at", "2:tc qdisc add dev c1 root netem loss 100%",
                                        "--at", "0.5:echo a:b", "--at-timeout", "3"});
    REQUIRE(o.faults.commands.size() == 2);
    CHECK(o.faults.commands[0].at == std::chrono::seconds(2));
    CHECK(o.faults.commands[0].command == "tc qdisc add dev c1 root netem loss 100%");
    // Only the first colon splits: the command keeps its own.
    CHECK(o.faults.commands[1].at == std::chrono::milliseconds(500));
    CHECK(o.faults.commands[1].command == "echo a:b");
    CHECK(o.faults.timeout == std::chrono::seconds(3));
    CHECK(o.faults.output_dir.empty());
    // Over TCP too: it is a fault injector, not an SCTP option.
    CHECK(parsed_sized_client({"-t", "tcp", "--at", "1:true"}).faults.any());
}

TEST_CASE("fault options: --at with a bad time, an empty command, and the rules around it") {
    CHECK_THAT(sized_client_usage_error({"--at", "soon:true"}),
               Catch::Contains("--at soon:true: the time must be 0..86400 seconds into the "
                               "measured run, not 'soon'"));
    CHECK_THAT(sized_client_usage_error({"--at", "-1:true"}), Catch::Contains("not '-1'"));
    CHECK_THAT(sized_client_usage_error({"--at", "2:  "}),
               Catch::Contains("--at 2:  : the command after the colon is empty"));
    CHECK_THAT(sized_client_usage_error({"--at", "reboot"}),
               Catch::Contains("--at takes SECONDS:COMMAND, such as '2.5:ip link set eth1 "
                               "down', not 'reboot'"));
    CHECK_THAT(sized_client_usage_error({"--at", "5:true", "--duration", "5"}),
               Catch::Contains("--at 5:true: 5 s is not within the measured run of --duration "
                               "5 s"));
    CHECK_THAT(sized_client_usage_error({"--at-timeout", "2"}),
               Catch::Contains("--at-timeout needs --at"));
    CHECK_THAT(sized_client_usage_error({"--at", "1:true", "--at-timeout", "0"}),
               Catch::Contains("--at-timeout must be 0.1..86400 seconds"));
    CHECK_THAT(sized_client_usage_error({"--at", "1:true", "--at-output", "/nonexistent/dir"}),
               Catch::Contains("--at-output /nonexistent/dir: not a directory this program may "
                               "write in"));
    CHECK_THAT(sized_client_usage_error({"--at", "1:true", "--repeat", "2"}),
               Catch::Contains("--at describes one run"));
}
