// SPDX-License-Identifier: Apache-2.0
#include "options/client_options.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "errors.hpp"
#include "option_test_support.hpp"

using namespace sctp_perf;
using sctp_perf::testing::command_line;

using sctp_perf::testing::client_usage_error;
using sctp_perf::testing::parsed_client;

TEST_CASE("client options: defaults") {
    const auto o = parsed_client({"-s", "7"});
    CHECK(o.iterations == 1'000'000);
    CHECK(o.payload_power == 7);
    CHECK(o.payload_bytes() == 128);
    CHECK_FALSE(o.common.nagle);
    CHECK(o.common.transport == transport_protocol::sctp);
    CHECK(o.histogram.min_us == 0.0);
    CHECK(o.histogram.max_us == 10000.0);
    CHECK(o.histogram.max_outliers == 100);
    CHECK(o.histogram.bin_count == 1000);
    CHECK(o.client_port == 0);
    CHECK(o.client_addresses.empty());
    CHECK(o.server_port == 45453);
    CHECK(o.server_hosts == std::vector<std::string>{"localhost"});
    CHECK(o.format == report_format::ace);
    CHECK(o.common.io_timeout == std::chrono::seconds(10));
    CHECK_FALSE(o.common.sctp_rto.any());
}

TEST_CASE("client options: every short flag") {
    const auto o = parsed_client({"-c",        "5",  "-n",   "-t", "tcp", "-m", "1.5",  "-M",
                                  "500",       "-x", "7",    "-b", "20",  "-C", "5000", "-i",
                                  "127.0.0.1", "-p", "6000", "-H", "::1", "-s", "16"});
    CHECK(o.iterations == 5);
    CHECK(o.common.nagle);
    CHECK(o.common.transport == transport_protocol::tcp);
    CHECK(o.histogram.min_us == 1.5);
    CHECK(o.histogram.max_us == 500.0);
    CHECK(o.histogram.max_outliers == 7);
    CHECK(o.histogram.bin_count == 20);
    CHECK(o.client_port == 5000);
    CHECK(o.client_addresses == std::vector<std::string>{"127.0.0.1"});
    CHECK(o.server_port == 6000);
    CHECK(o.server_hosts == std::vector<std::string>{"::1"});
    CHECK(o.payload_bytes() == 65536);
}

TEST_CASE("client options: long names with dashes, underscores and =") {
    const auto dashes = parsed_client({"--test-iterations",
                                       "9",
                                       "--payload-size-power-of-2",
                                       "3",
                                       "--test-enable-nagle",
                                       "--test-transport-protocol",
                                       "TCP",
                                       "--histogram-min-bin",
                                       "2",
                                       "--histogram-max-bin",
                                       "4",
                                       "--histogram-num-outliers",
                                       "1",
                                       "--histogram-bin-count",
                                       "2",
                                       "--client-port",
                                       "7",
                                       "--client-connect-addr",
                                       "127.0.0.1",
                                       "--server-port",
                                       "8",
                                       "--server-host",
                                       "127.0.0.2",
                                       "--format",
                                       "json",
                                       "--io-timeout",
                                       "2.5",
                                       "--json-file",
                                       "r.json"});
    const auto underscores = parsed_client(
        {"--test_iterations=9", "--payload_size_power_of_2=3", "--test_enable_nagle",
         "--test_transport_protocol=tcp", "--histogram_min_bin=2", "--histogram_max_bin=4",
         "--histogram_num_outliers=1", "--histogram_bin_count=2", "--client_port=7",
         "--client_connect_addr=127.0.0.1", "--server_port=8", "--server_host=127.0.0.2",
         "--format=json", "--io_timeout=2.5", "--json_file=r.json"});
    for (const auto& o : {dashes, underscores}) {
        CHECK(o.iterations == 9);
        CHECK(o.payload_power == 3);
        CHECK(o.common.nagle);
        CHECK(o.common.transport == transport_protocol::tcp);
        CHECK(o.histogram.min_us == 2.0);
        CHECK(o.histogram.max_us == 4.0);
        CHECK(o.histogram.max_outliers == 1);
        CHECK(o.histogram.bin_count == 2);
        CHECK(o.client_port == 7);
        CHECK(o.client_addresses.front() == "127.0.0.1");
        CHECK(o.server_port == 8);
        CHECK(o.server_hosts.front() == "127.0.0.2");
        CHECK(o.format == report_format::json);
        CHECK(o.common.io_timeout == std::chrono::milliseconds(2500));
        CHECK(o.json_file == "r.json");
    }
}

TEST_CASE("client options: SCTP retransmission timers") {
    const auto o = parsed_client(
        {"-s", "0", "--sctp-rto-initial", "20", "--sctp-rto-min", "20", "--sctp_rto_max", "40"});
    CHECK(o.common.sctp_rto.initial_ms == 20u);
    CHECK(o.common.sctp_rto.min_ms == 20u);
    CHECK(o.common.sctp_rto.max_ms == 40u);
}

TEST_CASE("client options: the waiting policy") {
    using Catch::Matchers::Contains;
    CHECK(parsed_client({"-s", "0"}).common.poll_before_sleep == default_poll_before_sleep);
    CHECK(
        parsed_client({"-s", "0", "--poll-before-sleep", "50"}).common.poll_before_sleep.count() ==
        50);
    CHECK(parsed_client({"-s", "0", "--poll-before-sleep", "1000000"})
              .common.poll_before_sleep.count() == 1'000'000);
    // Spinning, no wait sleeps: the bound the report states is 0.
    const auto spinning = parsed_client({"-s", "0", "--spin"});
    CHECK(spinning.common.spin);
    CHECK(spinning.common.poll_before_sleep.count() == 0);
    CHECK_THAT(client_usage_error({"-s", "0", "--poll-before-sleep", "1000001"}),
               Contains("--poll-before-sleep must be 0..1000000 microseconds"));
    CHECK_THAT(client_usage_error({"-s", "0", "--poll-before-sleep", "-5"}),
               Contains("--poll-before-sleep"));
    CHECK_THAT(client_usage_error({"-s", "0", "--spin", "--poll-before-sleep", "50"}),
               Contains("--spin and --poll-before-sleep are two waiting policies: give one"));
}

TEST_CASE("client options: each rule has its own sentence") {
    using Catch::Matchers::Contains;
    CHECK_THAT(client_usage_error({}),
               Contains("-s/--payload-size-power-of-2 or --payload-bytes is required"));
    CHECK_THAT(client_usage_error({"-s", "17"}), Contains("must be 0..16"));
    CHECK_THAT(client_usage_error({"-s", "-1"}), Contains("not '-1' (negative)"));
    CHECK_THAT(client_usage_error({"-s", "1", "-c", "0"}),
               Contains("-c/--test-iterations must be"));
    CHECK_THAT(client_usage_error({"-s", "1", "-c", "1000000001"}), Contains("--test-iterations"));
    CHECK_THAT(client_usage_error({"-s", "1", "-m", "-1"}), Contains("-m/--histogram-min-bin"));
    CHECK_THAT(client_usage_error({"-s", "1", "-m", "5", "-M", "5"}),
               Contains("-M/--histogram-max-bin must be finite and greater than -m"));
    CHECK_THAT(client_usage_error({"-s", "1", "-M", "1.7e308"}),
               Contains("-M/--histogram-max-bin must be at most 1e9 microseconds"));
    CHECK_THAT(client_usage_error({"-s", "1", "-m", "1e9", "-M", "2e9"}),
               Contains("-m/--histogram-min-bin must be 0 or more and below 1e9"));
    CHECK_THAT(client_usage_error({"-s", "1", "-M", "inf"}),
               Contains("-M/--histogram-max-bin must be a number of microseconds"));
    CHECK_THAT(client_usage_error({"-s", "1", "-b", "0"}), Contains("-b/--histogram-bin-count"));
    CHECK_THAT(client_usage_error({"-s", "1", "-b", "10000001"}),
               Contains("-b/--histogram-bin-count"));
    CHECK_THAT(client_usage_error({"-s", "1", "-x", "-3"}),
               Contains("-x/--histogram-num-outliers"));
    CHECK_THAT(client_usage_error({"-s", "1", "-p", "0"}),
               Contains("-p/--server-port must be 1..65535"));
    CHECK_THAT(client_usage_error({"-s", "1", "-p", "65536"}), Contains("-p/--server-port"));
    CHECK_THAT(client_usage_error({"-s", "1", "-C", "70000"}), Contains("-C/--client-port"));
    CHECK_THAT(client_usage_error({"-s", "1", "-t", "udp"}),
               Contains("must be sctp or tcp, not 'udp'"));
    CHECK_THAT(client_usage_error({"-s", "1", "--format", "xml"}),
               Contains("--format must be ace or json"));
    CHECK_THAT(client_usage_error({"-s", "1", "--io-timeout", "0"}), Contains("--io-timeout"));
    CHECK_THAT(client_usage_error({"-s", "1", "-H", ","}),
               Contains("-H/--server-host must name a host"));
    CHECK_THAT(client_usage_error({"-s", "1", "-H", "a,b"}),
               Contains("-H/--server-host lists 2 servers, but plain ping-pong (one flow) "
                        "reaches one server: give --flows 2 or more"));
    CHECK_THAT(client_usage_error({"-s", "1", "-i", "a,b"}),
               Contains("takes a list here only with --flows"));
    CHECK_THAT(client_usage_error({"-s", "1", "--sctp-rto-min", "0"}),
               Contains("--sctp-rto-min must be"));
    CHECK_THAT(client_usage_error({"-s", "1", "--sctp-rto-min", "50", "--sctp-rto-max", "20"}),
               Contains("must not exceed --sctp-rto-max"));
    CHECK_THAT(client_usage_error({"-s", "1", "-t", "tcp", "--sctp-rto-min", "20"}),
               Contains("apply to SCTP only"));
}

TEST_CASE("client options: all broken rules are reported together") {
    const auto message = client_usage_error({"-s", "99", "-c", "0", "-b", "0"});
    CHECK_THAT(message, Catch::Matchers::Contains("-s/--payload-size-power-of-2"));
    CHECK_THAT(message, Catch::Matchers::Contains("-c/--test-iterations"));
    CHECK_THAT(message, Catch::Matchers::Contains("-b/--histogram-bin-count"));
}

TEST_CASE("client options: malformed and unknown input is a usage error, not a wrap-around") {
    using Catch::Matchers::Contains;
    CHECK_THAT(client_usage_error({"-s", "abc"}), Contains("payload-size-power-of-2"));
    CHECK_THAT(client_usage_error({"-s", "1", "-c", "99999999999999999999"}),
               Contains("test-iterations"));
    CHECK_THAT(client_usage_error({"-s", "1", "--no-such-option"}), Contains("no-such-option"));
    CHECK_THAT(client_usage_error({"-s", "1", "--test-iter", "5"}), Contains("test-iter"));
    CHECK_THAT(client_usage_error({"-s", "1", "extra"}), Contains("extra"));
    CHECK_THAT(client_usage_error({"-s"}), Contains("payload-size-power-of-2"));
}

TEST_CASE("client options: SOCK_SEQPACK takes address lists and refuses -t") {
    const auto o = parsed_client({"-s", "1", "-H", "10.0.0.1,10.0.1.1", "-i", "10.0.0.2,10.0.1.2"},
                                 sctp_perf::testing::seqpack_client);
    CHECK(o.server_hosts == std::vector<std::string>{"10.0.0.1", "10.0.1.1"});
    CHECK(o.client_addresses == std::vector<std::string>{"10.0.0.2", "10.0.1.2"});
    CHECK(o.common.transport == transport_protocol::sctp);
    CHECK_THAT(client_usage_error({"-s", "1", "-t", "sctp"}, sctp_perf::testing::seqpack_client),
               Catch::Matchers::Contains("always uses SCTP"));
}

TEST_CASE("client options: SOCK_STREAM's -H list deals the flows over several servers") {
    using Catch::Matchers::Contains;
    const auto o = parsed_client({"-s", "5", "--flows", "5", "-p", "5000", "-H",
                                  "10.0.0.1,10.0.0.2:6000,[fe80::1]:7000,::1,[::2]"});
    CHECK(o.fan_out());
    CHECK(o.servers == std::vector<server_endpoint>{{"10.0.0.1", 5000},
                                                    {"10.0.0.2", 6000},
                                                    {"fe80::1", 7000},
                                                    {"::1", 5000},
                                                    {"[::2]", 5000}});
    CHECK(o.server_hosts ==
          std::vector<std::string>{"10.0.0.1", "10.0.0.2", "fe80::1", "::1", "[::2]"});
    CHECK(o.server_port == 5000);  // -p, for the entries without a port
    // One server with its port is -H HOST -p PORT, and reports as that does.
    const auto one = parsed_client({"-s", "1", "-H", "10.0.0.1:6000"});
    CHECK_FALSE(one.fan_out());
    CHECK(one.server_hosts == std::vector<std::string>{"10.0.0.1"});
    CHECK(one.server_port == 6000);
    // A single flow reaches one server, and each server needs a flow.
    CHECK_THAT(client_usage_error({"-s", "5", "--rate", "10", "-H", "a,b"}),
               Contains("lists 2 servers, but a run of one flow reaches one server: give --flows "
                        "2 or more to deal the flows over them (flow k to server k modulo 2)"));
    CHECK_THAT(client_usage_error({"-s", "5", "--flows", "2", "-H", "a,b,c"}),
               Contains("--flows 2 leaves 1 of them without a flow: give --flows 3 or more"));
    CHECK_THAT(client_usage_error({"-s", "5", "--flows", "2", "-H", "a:80,a:80"}),
               Contains("names a:80 twice"));
    CHECK_THAT(client_usage_error({"-s", "5", "--flows", "2", "-H", "a:0,b"}),
               Contains("entry 'a:0': the port must be 1..65535"));
    // SOCK_SEQPACK_clt's -H list is one server's addresses: no ports, no fan-out.
    const auto seqpack =
        parsed_client({"-s", "1", "-H", "10.0.0.1,10.0.1.1"}, sctp_perf::testing::seqpack_client);
    CHECK(seqpack.servers.empty());
    CHECK_FALSE(seqpack.fan_out());
}

TEST_CASE("client options: --help and --version answer and stop") {
    const command_line help({"--help"});
    std::ostringstream out;
    CHECK_FALSE(
        parse_client_options(help.argc(), help.argv(), sctp_perf::testing::stream_client, out));
    CHECK_THAT(out.str(), Catch::Matchers::Contains("--payload-size-power-of-2"));
    CHECK_THAT(out.str(), Catch::Matchers::Contains("microseconds"));
    const command_line version({"--version"});
    std::ostringstream version_out;
    CHECK_FALSE(parse_client_options(version.argc(), version.argv(),
                                     sctp_perf::testing::stream_client, version_out));
    CHECK_THAT(version_out.str(), Catch::Matchers::Contains("sctp-perf"));
}

TEST_CASE("client options: the mode and the threads follow from the command line alone") {
    using protocol::test_mode;
    // Without --threads the count is left to client_main, which reads the
    // machine: the same words give the same options on any host.
    CHECK(parsed_client({"-s", "4", "--flows", "8"}).threads == 0);
    CHECK(parsed_client({"-s", "4", "--rate", "5", "--flows", "8"}).threads == 0);
    CHECK(parsed_client({"-s", "4", "--flows", "8", "--threads", "3"}).threads == 3);
    // --threads alone, even 1, asks for the load engine: framed ping-pong.
    CHECK(parsed_client({"-s", "4", "--threads", "1"}).mode == test_mode::framed_ping_pong);
    CHECK(parsed_client(
              {"-s", "4", "--flow-csv", "f.csv", "--histogram-log", "h.hlog", "--interval", "1"})
              .mode == test_mode::framed_ping_pong);
    // The open-loop modes win over what would frame ping-pong.
    CHECK(parsed_client({"-s", "4", "--throughput", "--flows", "2"}).mode == test_mode::throughput);
    CHECK(parsed_client({"-s", "4", "--total-rate", "10", "--flows", "2"}).mode == test_mode::rate);
}

TEST_CASE("client options: --check is a switch that asks for validation only") {
    CHECK_FALSE(parsed_client({"-s", "0"}).check_only);
    CHECK(parsed_client({"-s", "0", "--check"}).check_only);
    // Validated as a run is: the same sentence with it as without.
    CHECK(client_usage_error({"-s", "17", "--check"}) == client_usage_error({"-s", "17"}));
    const command_line help({"--help"});
    std::ostringstream out;
    CHECK_FALSE(
        parse_client_options(help.argc(), help.argv(), sctp_perf::testing::seqpack_client, out));
    CHECK_THAT(out.str(), Catch::Matchers::Contains("--check"));
}

TEST_CASE("client options: --check-lines is given alone") {
    // Alone, client_main reads the lines before any parse (client/check_lines.hpp).
    CHECK_THAT(client_usage_error({"-s", "0", "--check-lines"}),
               Catch::Matchers::Contains("--check-lines is given alone: it reads the command "
                                         "lines to check from standard input"));
    const command_line help({"--help"});
    std::ostringstream out;
    CHECK_FALSE(
        parse_client_options(help.argc(), help.argv(), sctp_perf::testing::stream_client, out));
    CHECK_THAT(out.str(), Catch::Matchers::Contains("--check-lines"));
}

TEST_CASE("client options: the workload modes and what each allows") {
    using protocol::test_mode;
    SECTION("ping-pong, plain") {
        const auto o = parsed_client({"-s", "0"});
        CHECK(o.mode == test_mode::ping_pong);
        CHECK_FALSE(o.interval);
        CHECK(parsed_client({"-s", "0", "--interval", "0"}).mode == test_mode::ping_pong);
        CHECK(parsed_client({"-s", "0", "--duration", "1.5"}).duration ==
              std::chrono::milliseconds(1500));
    }
    SECTION("ping-pong over flows, or with interval outputs, runs framed") {
        CHECK(parsed_client({"-s", "4", "--flows", "2"}).mode == test_mode::framed_ping_pong);
        CHECK(parsed_client({"-s", "4", "--interval", "0.5"}).mode == test_mode::framed_ping_pong);
        CHECK(parsed_client({"-s", "4", "--latency-file", "x.csv"}).mode ==
              test_mode::framed_ping_pong);
        CHECK(client_usage_error({"-s", "3", "--flows", "2"}).find("needs -s 4") !=
              std::string::npos);
    }
    SECTION("rate and throughput, with their defaults") {
        const auto rate = parsed_client({"-s", "7", "--rate", "2000"});
        CHECK(rate.mode == test_mode::rate);
        CHECK(rate.rate_per_s == 2000.0);
        CHECK(rate.echo_every == 1);
        CHECK(rate.interval == std::chrono::seconds(1));
        const auto tp =
            parsed_client({"-s", "7", "--throughput", "--flows", "3", "--threads", "2"});
        CHECK(tp.mode == test_mode::throughput);
        CHECK(tp.echo_every == 1000);
        CHECK(tp.flows == 3);
        CHECK(tp.threads == 2);
    }
    SECTION("each rule has its sentence") {
        CHECK(client_usage_error({"-s", "7", "--rate", "1", "--throughput"})
                  .find("exclude each other") != std::string::npos);
        CHECK(client_usage_error({"-s", "7", "-c", "5", "--duration", "1"})
                  .find("exclude each other") != std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--rate", "0"}).find("--rate must be") !=
              std::string::npos);
        CHECK(client_usage_error({"-s", "3", "--rate", "10"}).find("16-byte message header") !=
              std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--echo-every", "2"}).find("needs --rate") !=
              std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--throughput", "--flows", "2", "--threads", "3"})
                  .find("--threads must be") != std::string::npos);
        CHECK(
            client_usage_error({"-s", "7", "--rate", "5", "--interval", "0", "--interval-csv", "f"})
                .find("need an --interval above 0") != std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--flows", "0"}).find("--flows must be") !=
              std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--sndbuf", "10"}).find("--sndbuf must be") !=
              std::string::npos);
    }
}

TEST_CASE("client options: arrivals, --total-rate and --seed") {
    using Catch::Matchers::Contains;
    const auto plain = parsed_client({"-s", "7", "--rate", "100", "--flows", "4"});
    CHECK(plain.arrivals == arrival_process::uniform);  // the default
    CHECK_FALSE(plain.seed);
    // 10,000 in all over 4 flows: 2,500 each.
    const auto total = parsed_client({"-s", "7", "--total-rate", "10k", "--flows", "4"});
    CHECK(total.mode == protocol::test_mode::rate);
    CHECK(total.rate_per_s == 2500.0);
    const auto poisson =
        parsed_client({"-s", "7", "--rate", "10", "--arrivals", "poisson", "--seed", "42"});
    CHECK(poisson.arrivals == arrival_process::poisson);
    CHECK(poisson.seed == 42U);
    CHECK(parsed_client({"-s", "7", "--rate", "10", "--arrivals", "in-step"}).arrivals ==
          arrival_process::in_step);

    CHECK_THAT(client_usage_error({"-s", "7", "--rate", "10", "--total-rate", "10"}),
               Contains("--rate and --total-rate exclude each other"));
    CHECK_THAT(client_usage_error({"-s", "7", "--rate", "10", "--arrivals", "bursty"}),
               Contains("--arrivals must be uniform, poisson or in-step, not 'bursty'"));
    CHECK_THAT(client_usage_error({"-s", "7", "--throughput", "--arrivals", "poisson"}),
               Contains("--arrivals needs --rate or --total-rate"));
    CHECK_THAT(client_usage_error({"-s", "7", "--rate", "10", "--seed", "1"}),
               Contains("--seed needs --arrivals poisson"));
    CHECK_THAT(client_usage_error({"-s", "7", "--total-rate", "0"}),
               Contains("--total-rate must be more than 0"));
}

TEST_CASE("client options: up to 100000 flows, and --flow-csv") {
    using Catch::Matchers::Contains;
    const auto many =
        parsed_client({"-s", "7", "--rate", "1", "--flows", "100k", "--threads", "2"});
    CHECK(many.flows == 100'000);
    CHECK(many.threads == 2);
    CHECK_THAT(client_usage_error({"-s", "7", "--rate", "1", "--flows", "100001"}),
               Contains("--flows must be 1..100000"));
    // --threads stays 1..--flows.
    CHECK_THAT(
        client_usage_error({"-s", "7", "--rate", "1", "--flows", "2000", "--threads", "2001"}),
        Contains("--threads must be 1..--flows"));

    CHECK(parsed_client({"-s", "7", "--rate", "10", "--flow-csv", "flows.csv"}).flow_csv ==
          "flows.csv");
    // Like the other per-flow files, it takes ping-pong onto the load engine.
    CHECK(parsed_client({"-s", "4", "--flow-csv", "flows.csv"}).mode ==
          protocol::test_mode::framed_ping_pong);
    CHECK_THAT(client_usage_error({"-s", "7", "--rate", "10", "--flow-csv", ""}),
               Contains("--flow-csv needs a file name"));
}

TEST_CASE("client options: --csv-summary keeps ping-pong, and needs a name") {
    using Catch::Matchers::Contains;
    const auto summary = parsed_client({"-s", "4", "--csv-summary", "runs.csv"});
    CHECK(summary.csv_summary == "runs.csv");
    // One line of the whole run: plain ping-pong measures it as it is.
    CHECK(summary.mode == protocol::test_mode::ping_pong);
    CHECK(parsed_client({"-s", "7", "--rate", "10", "--csv-summary", "runs.csv", "--repeat", "3"})
              .csv_summary == "runs.csv");
    CHECK_THAT(client_usage_error({"-s", "7", "--csv-summary", ""}),
               Contains("--csv-summary needs a file name"));
}

TEST_CASE("client options: --repeat and --pause") {
    using Catch::Matchers::Contains;
    const auto once = parsed_client({"-s", "7"});
    CHECK(once.repeat == 1);
    CHECK(once.pause == std::chrono::nanoseconds(0));
    const auto ten = parsed_client({"-s", "7", "--repeat", "10", "--pause", "0.25"});
    CHECK(ten.repeat == 10);
    CHECK(ten.pause == std::chrono::milliseconds(250));
    CHECK(parsed_client({"-s", "7", "--repeat", "1k"}).repeat == 1000);
    // Every mode repeats; --json-file holds every run.
    CHECK(parsed_client({"-s", "7", "--rate", "500", "--repeat", "2"}).repeat == 2);
    CHECK(parsed_client({"-s", "7", "--repeat", "3", "--json-file", "r.json"}).json_file ==
          "r.json");

    CHECK_THAT(client_usage_error({"-s", "7", "--repeat", "0"}),
               Contains("--repeat must be 1..1000"));
    CHECK_THAT(client_usage_error({"-s", "7", "--repeat", "1001"}),
               Contains("--repeat must be 1..1000"));
    CHECK_THAT(client_usage_error({"-s", "7", "--repeat", "2.5"}),
               Contains("--repeat must be a count"));
    CHECK_THAT(client_usage_error({"-s", "7", "--pause", "1"}),
               Contains("--pause needs --repeat above 1: it is the wait between runs"));
    CHECK_THAT(client_usage_error({"-s", "7", "--repeat", "1", "--pause", "1"}),
               Contains("--pause needs --repeat above 1"));
    CHECK_THAT(client_usage_error({"-s", "7", "--repeat", "2", "--pause", "3601"}),
               Contains("--pause must be 0..3600 seconds"));
    CHECK_THAT(client_usage_error({"-s", "7", "--repeat", "2", "--pause", "-1"}),
               Contains("--pause"));
    for (const std::string file : {"latency-file", "histogram-log", "interval-csv", "flow-csv"}) {
        CHECK_THAT(
            client_usage_error({"-s", "7", "--rate", "10", "--repeat", "2", "--" + file, "f"}),
            Contains("--" + file +
                     " describes one run: it cannot be given with --repeat above 1 "
                     "(--json-file holds every run)"));
    }
    // With one run, they are written as always.
    CHECK(parsed_client({"-s", "7", "--rate", "10", "--repeat", "1", "--flow-csv", "f.csv"})
              .flow_csv == "f.csv");
}

TEST_CASE("client options: --primer sets the unrecorded round trips, 100 by default") {
    CHECK(parsed_client({"-s", "7"}).primer_iterations == 100);  // ACE's
    CHECK(parsed_client({"-s", "7", "--primer", "0"}).primer_iterations == 0);
    CHECK(parsed_client({"-s", "7", "--primer", "1k"}).primer_iterations == 1000);
    CHECK(parsed_client({"-s", "7", "--primer", "1000000"}).primer_iterations == 1'000'000);
    CHECK(client_usage_error({"-s", "7", "--primer", "1000001"})
              .find("--primer must be 0..1000000") != std::string::npos);
    CHECK(client_usage_error({"-s", "7", "--primer", "-1"}).find("--primer must be a count") !=
          std::string::npos);
    // A ping-pong header carries -c plus --primer, which a server takes up
    // to 1,000,000,100: 10^9 measured after 100 primers, not after 101.
    CHECK(parsed_client({"-s", "7", "-c", "1000000000"}).primer_iterations == 100);
    CHECK(client_usage_error({"-s", "7", "-c", "1000000000", "--primer", "101"})
              .find("-c/--test-iterations plus --primer must be at most 1000000100") !=
          std::string::npos);
}

TEST_CASE("client options: --warmup runs seconds unrecorded before a --duration") {
    CHECK(parsed_client({"-s", "7"}).warmup == std::chrono::nanoseconds(0));
    CHECK(parsed_client({"-s", "7", "--duration", "5", "--warmup", "1.5"}).warmup ==
          std::chrono::milliseconds(1500));
    CHECK(parsed_client({"-s", "5", "--rate", "100", "--duration", "5", "--warmup", "0"}).warmup ==
          std::chrono::nanoseconds(0));
    CHECK(client_usage_error({"-s", "7", "--warmup", "1"})
              .find("--warmup needs --duration: a counted run (-c) warms up with --primer "
                    "round trips") != std::string::npos);
    CHECK(client_usage_error({"-s", "7", "-c", "10", "--warmup", "1"})
              .find("--warmup needs --duration") != std::string::npos);
    for (const char* bad : {"-1", "3601"}) {
        CHECK(client_usage_error({"-s", "7", "--duration", "5", "--warmup", bad})
                  .find("--warmup must be 0..3600 seconds") != std::string::npos);
    }
}

TEST_CASE("client options: --batch in the load modes, --tick-rate in rate mode") {
    CHECK(parsed_client({"-s", "7", "--throughput"}).batch == 1);
    CHECK(parsed_client({"-s", "7", "--throughput", "--batch", "16"}).batch == 16);
    CHECK(parsed_client({"-s", "7", "--rate", "1000", "--batch", "1024"}).batch == 1024);
    for (const char* bad : {"0", "1025"}) {
        CHECK(client_usage_error({"-s", "7", "--throughput", "--batch", bad})
                  .find("--batch must be 1..1024") != std::string::npos);
    }
    // Ping-pong, plain or framed (several flows), has one request in flight.
    for (const auto& args : {std::vector<std::string>{"-s", "7", "--batch", "4"},
                             std::vector<std::string>{"-s", "7", "--flows", "2", "--batch", "4"}}) {
        CHECK(
            client_usage_error(args).find("--batch needs --rate or --throughput: ping-pong has one "
                                          "request in flight") != std::string::npos);
    }

    CHECK_FALSE(parsed_client({"-s", "7", "--rate", "1000"}).tick_rate_per_s);
    CHECK(parsed_client({"-s", "7", "--rate", "10k", "--tick-rate", "1000"}).tick_rate_per_s ==
          1000.0);
    CHECK(client_usage_error({"-s", "7", "--throughput", "--tick-rate", "1000"})
              .find("--tick-rate needs --rate, not --throughput") != std::string::npos);
    CHECK(client_usage_error({"-s", "7", "--tick-rate", "1000"})
              .find("--tick-rate needs --rate or --total-rate: ping-pong") != std::string::npos);
    for (const char* bad : {"0", "0.5", "2000000"}) {
        CHECK(client_usage_error({"-s", "7", "--rate", "1000", "--tick-rate", bad})
                  .find("--tick-rate must be 1..1000000 ticks per second") != std::string::npos);
    }
}

TEST_CASE("client options: --payload-bytes takes any size from 1 to 65536") {
    const auto hundred = parsed_client({"--payload-bytes", "100"});
    CHECK(hundred.payload_bytes() == 100);
    CHECK_FALSE(hundred.payload_power_of_2());
    const auto size_128 = parsed_client({"--payload-bytes", "128"});
    CHECK(size_128.payload_bytes() == 128);
    CHECK(size_128.payload_power_of_2());  // ACE's title and -s 7 alike
    CHECK(size_128.payload_power == 7);
    CHECK(parsed_client({"--payload-bytes", "1"}).payload_bytes() == 1);
    CHECK(parsed_client({"--payload-bytes", "63000"}).payload_bytes() == 63000);
    CHECK(parsed_client({"--payload-bytes", "64Ki"}).payload_bytes() == 65536);
    CHECK(parsed_client({"-s", "7"}).payload_power_of_2());
    // The framed modes need room for the 16-byte message header.
    CHECK(parsed_client({"--payload-bytes", "16", "--rate", "10"}).payload_bytes() == 16);
    CHECK(parsed_client({"--payload-bytes", "17", "--throughput"}).payload_bytes() == 17);
    CHECK(client_usage_error({"--payload-bytes", "15", "--rate", "10"})
              .find("--rate and --throughput need --payload-bytes 16 or more") !=
          std::string::npos);
    CHECK(client_usage_error({"--payload-bytes", "15", "--flows", "2"})
              .find("needs --payload-bytes 16 or more") != std::string::npos);
    for (const char* bad : {"0", "65537"}) {
        CHECK(
            client_usage_error({"--payload-bytes", bad}).find("--payload-bytes must be 1..65536") !=
            std::string::npos);
    }
    CHECK(client_usage_error({"-s", "7", "--payload-bytes", "100"})
              .find("-s/--payload-size-power-of-2 and --payload-bytes exclude each other") !=
          std::string::npos);
    CHECK(client_usage_error({"-c", "5"})
              .find("-s/--payload-size-power-of-2 or --payload-bytes is required") !=
          std::string::npos);
}

TEST_CASE("client options: --reply-bytes and --echo size the replies") {
    using protocol::test_mode;
    SECTION("by default each reply is the mode's own: 2 bytes, or the 16-byte message header") {
        const auto pp = parsed_client({"--payload-bytes", "100"});
        CHECK(pp.reply_bytes == 0);  // the wire's "the mode's own"
        CHECK(pp.reply_size() == 2);
        CHECK_FALSE(pp.echo);
        CHECK(parsed_client({"-s", "7", "--rate", "10"}).reply_size() == 16);
        CHECK(parsed_client({"-s", "7", "--flows", "2"}).reply_size() == 16);
    }
    SECTION("--reply-bytes: any size from the mode's own to 65536") {
        const auto pp = parsed_client({"--payload-bytes", "100", "--reply-bytes", "1000"});
        CHECK(pp.reply_bytes == 1000);
        CHECK(pp.reply_size() == 1000);
        CHECK(parsed_client({"-s", "0", "--reply-bytes", "2"}).reply_size() == 2);
        CHECK(parsed_client({"-s", "7", "--rate", "10", "--reply-bytes", "16"}).reply_size() == 16);
        CHECK(parsed_client({"-s", "7", "--throughput", "--reply-bytes", "64Ki"}).reply_size() ==
              65536);
        CHECK(client_usage_error({"-s", "7", "--reply-bytes", "1"})
                  .find("--reply-bytes must be 2..65536: a ping-pong reply carries the request's "
                        "first and last check bytes") != std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--rate", "10", "--reply-bytes", "15"})
                  .find("--reply-bytes must be 16..65536 here: a framed reply carries its "
                        "request's 16-byte message header") != std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--reply-bytes", "65537"})
                  .find("--reply-bytes must be 2..65536") != std::string::npos);
    }
    SECTION("--echo: a reply of the payload's size, in every mode") {
        for (const auto& mode_words : std::vector<std::vector<std::string>>{
                 {}, {"--rate", "10"}, {"--throughput"}, {"--flows", "2"}}) {
            auto words = std::vector<std::string>{"--payload-bytes", "1000", "--echo"};
            words.insert(words.end(), mode_words.begin(), mode_words.end());
            const auto o = parsed_client(words);
            CHECK(o.echo);
            CHECK(o.reply_bytes == 1000);
            CHECK(o.reply_size() == 1000);
        }
        CHECK(parsed_client({"-s", "16", "--echo"}).reply_size() == 65536);
        CHECK(client_usage_error({"--payload-bytes", "1", "--echo"})
                  .find("--echo needs a payload of 2 bytes or more") != std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--echo", "--reply-bytes", "100"})
                  .find("--reply-bytes and --echo exclude each other") != std::string::npos);
        // A broken payload is said once, not again as a broken echo.
        CHECK(client_usage_error({"--payload-bytes", "0", "--echo"}).find("--echo") ==
              std::string::npos);
    }
}

TEST_CASE("client options: --one-way makes room for the server's stamps, --half-rtt") {
    SECTION("neither is the default") {
        const auto o = parsed_client({"-s", "7"});
        CHECK_FALSE(o.one_way);
        CHECK_FALSE(o.half_rtt);
        CHECK(o.reply_size() == 2);
    }
    SECTION("--one-way: each reply 16 bytes more, in every mode") {
        // Ping-pong: check byte + 16 + check byte = 18; framed: 16 + 16 = 32.
        const auto pp = parsed_client({"-s", "7", "--one-way"});
        CHECK(pp.one_way);
        CHECK(pp.reply_bytes == 0);  // the wire's "the mode's own", which then has the stamps
        CHECK(pp.reply_size() == 18);
        CHECK(parsed_client({"-s", "7", "--one-way", "--rate", "10"}).reply_size() == 32);
        CHECK(parsed_client({"-s", "7", "--one-way", "--throughput"}).reply_size() == 32);
        CHECK(parsed_client({"-s", "7", "--one-way", "--flows", "2"}).reply_size() == 32);
        CHECK(parsed_client({"-s", "7", "--one-way", "--reply-bytes", "18"}).reply_size() == 18);
        CHECK(parsed_client({"-s", "7", "--one-way", "--echo"}).reply_size() == 128);
    }
    SECTION("--one-way: a reply too small for the stamps is a usage error saying why") {
        CHECK(client_usage_error({"-s", "7", "--one-way", "--reply-bytes", "17"})
                  .find("--reply-bytes must be 18..65536 with --one-way") != std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--one-way", "--rate", "10", "--reply-bytes", "31"})
                  .find("--reply-bytes must be 32..65536 with --one-way") != std::string::npos);
        CHECK(client_usage_error({"--payload-bytes", "17", "--one-way", "--echo"})
                  .find("--echo with --one-way needs a payload of 18 bytes or more") !=
              std::string::npos);
        CHECK(client_usage_error({"--payload-bytes", "31", "--one-way", "--echo", "--rate", "10"})
                  .find("--echo with --one-way needs a payload of 32 bytes or more") !=
              std::string::npos);
    }
    SECTION("--one-way --timestamps: 24 bytes of stamps, 32 over TCP with its transmit stamp") {
        // SCTP (the default transport): check byte + 24 + check byte = 26.
        const auto sctp = parsed_client({"-s", "7", "--one-way", "--timestamps"});
        CHECK(sctp.server_receive_stamps());
        CHECK_FALSE(sctp.server_transmit_stamps());
        CHECK(sctp.reply_size() == 26);
        // TCP: + 8, the previous reply's departure from the server's device = 34.
        const auto tcp = parsed_client({"-t", "tcp", "-s", "7", "--one-way", "--timestamps"});
        CHECK(tcp.server_transmit_stamps());
        CHECK(tcp.reply_size() == 34);
        CHECK_FALSE(
            parsed_client({"-t", "tcp", "-s", "7", "--timestamps"}).server_transmit_stamps());
        // Under load too: the message header + 32 = 48.
        const auto rate =
            parsed_client({"-t", "tcp", "-s", "7", "--one-way", "--timestamps", "--rate", "10"});
        CHECK(rate.server_transmit_stamps());
        CHECK(rate.reply_size() == 48);
        CHECK(client_usage_error({"-t", "tcp", "--payload-bytes", "64", "--one-way", "--timestamps",
                                  "--rate", "10", "--reply-bytes", "47"})
                  .find("--reply-bytes must be 48..65536 with --one-way and --timestamps over "
                        "TCP: a framed reply carries its request's 16-byte message header, then "
                        "the server's 32 bytes of timestamps") != std::string::npos);
        CHECK(client_usage_error(
                  {"-t", "tcp", "-s", "7", "--one-way", "--timestamps", "--reply-bytes", "33"})
                  .find("--reply-bytes must be 34..65536 with --one-way and --timestamps over "
                        "TCP: a ping-pong reply carries the request's two check bytes around the "
                        "server's 32 bytes of timestamps") != std::string::npos);
        CHECK(client_usage_error({"-s", "7", "--one-way", "--timestamps", "--reply-bytes", "25"})
                  .find("--reply-bytes must be 26..65536 with --one-way and --timestamps:") !=
              std::string::npos);
        CHECK(client_usage_error(
                  {"-t", "tcp", "--payload-bytes", "33", "--one-way", "--timestamps", "--echo"})
                  .find("--echo with --one-way needs a payload of 34 bytes or more: the echo "
                        "carries the server's 32 bytes") != std::string::npos);
    }
    SECTION("--half-rtt in every mode") {
        CHECK(parsed_client({"-s", "7", "--half-rtt"}).half_rtt);
        CHECK(parsed_client({"-s", "7", "--half-rtt", "--rate", "10"}).half_rtt);
    }
}
