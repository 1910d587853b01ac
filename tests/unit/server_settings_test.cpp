// SPDX-License-Identifier: Apache-2.0
// The settings a server sends each client, and the client's reading of them:
// what makes a report describe both ends.

#include "server/server_settings.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "protocol/server_settings_blob.hpp"
#include "report/run_notes.hpp"
#include "report_test_support.hpp"
#include "transport/unique_fd.hpp"
#include "version.hpp"

namespace {

sctp_perf::server_identity tcp_identity() {
    sctp_perf::server_identity identity;
    identity.program = "SOCK_STREAM_srv";
    identity.host = "serverhost";
    identity.kernel = "Linux 6.1.0 x86_64";
    identity.cpu_affinity = "1";
    identity.cpu_count = 2;
    identity.spin = true;
    identity.transport = sctp_perf::transport_protocol::tcp;
    identity.nagle = true;
    return identity;
}

}  // namespace

TEST_CASE("server settings: every key a client's report reads, from a real socket") {
    const sctp_perf::unique_fd socket(::socket(AF_INET, SOCK_STREAM, 0));
    REQUIRE(socket.get() >= 0);
    const auto settings =
        nlohmann::json::parse(sctp_perf::server_settings_json(tcp_identity(), socket.get()));
    CHECK(settings["version"] == sctp_perf::version_string);
    CHECK(settings["protocol_version"] == 3);
    CHECK(settings["program"] == "SOCK_STREAM_srv");
    CHECK(settings["host"] == "serverhost");
    CHECK(settings["cpu_affinity"] == "1");
    CHECK(settings["cpu_count"] == 2);
    CHECK(settings["spin"] == true);
    CHECK(settings["nagle"] == true);
    CHECK(settings["transport"] == "tcp");
    CHECK(settings["sndbuf_bytes"].get<int>() > 0);  // read back from the socket
    CHECK(settings["rcvbuf_bytes"].get<int>() > 0);
    CHECK(settings["sctp_rto"].is_null());  // TCP
    CHECK(settings["sctp"].is_null());
    CHECK(settings["poll_before_sleep_us"] == 0);  // spinning

    auto polling = tcp_identity();
    polling.spin = false;
    polling.poll_before_sleep = std::chrono::microseconds(40);
    const auto polled =
        nlohmann::json::parse(sctp_perf::server_settings_json(polling, socket.get()));
    CHECK(polled["spin"] == false);
    CHECK(polled["poll_before_sleep_us"] == 40);
}

TEST_CASE("server settings: as parsed by a client, they place the server and flag Nagle") {
    const sctp_perf::unique_fd socket(::socket(AF_INET, SOCK_STREAM, 0));
    REQUIRE(socket.get() >= 0);
    sctp_perf::testing::small_run run;
    run.report.server_settings =
        nlohmann::json::parse(sctp_perf::server_settings_json(tcp_identity(), socket.get()));
    const auto server = sctp_perf::server_placement(run.report);
    REQUIRE(server);
    CHECK(server->cpu_affinity == "1");
    CHECK(server->pinned);  // 1 CPU of 2
    const auto warnings = sctp_perf::run_warnings(run.report);
    // The server is pinned, so no placement warning; Nagle is on there only.
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].starts_with("Nagle differs between the ends: client off, server on"));
}

TEST_CASE("server settings: a peer's settings of the wrong shape describe nothing") {
    sctp_perf::testing::small_run run;
    run.report.server_settings =
        nlohmann::json::parse(R"({"cpu_affinity": 7, "cpu_count": "two", "nagle": "yes"})");
    CHECK_FALSE(sctp_perf::server_placement(run.report));
    // Unknown placement of the server, client unpinned: warned; a Nagle
    // that is not a boolean is not compared.
    const auto warnings = sctp_perf::run_warnings(run.report);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].starts_with("neither end is pinned"));
    run.report.server_settings = nullptr;
    CHECK_FALSE(sctp_perf::server_placement(run.report));
}

// The exact bytes a server sends over TCP, captured from the encoder before
// the blob had its own definition in protocol/, so that a change of key,
// order or spelling shows here. The buffers are set, and Linux reads back
// twice what was set (socket(7)): 8192 -> 16384, 65536 -> 131072. An
// unconnected socket reads back the TCP_MAXSEG set on it (tcp(7)), and no
// device: "".
TEST_CASE("server settings: the blob's exact bytes over TCP") {
    const sctp_perf::unique_fd socket(::socket(AF_INET, SOCK_STREAM, 0));
    REQUIRE(socket.get() >= 0);
    const int send_bytes = 8192;
    const int receive_bytes = 65536;
    REQUIRE(::setsockopt(socket.get(), SOL_SOCKET, SO_SNDBUF, &send_bytes, sizeof send_bytes) == 0);
    REQUIRE(::setsockopt(socket.get(), SOL_SOCKET, SO_RCVBUF, &receive_bytes,
                         sizeof receive_bytes) == 0);
    const int max_seg_bytes = 1000;
    REQUIRE(::setsockopt(socket.get(), IPPROTO_TCP, TCP_MAXSEG, &max_seg_bytes,
                         sizeof max_seg_bytes) == 0);
    auto identity = tcp_identity();
    identity.max_seg_bytes = 1000;
    identity.threads = 2;
    identity.data_path = "one-to-one";
    identity.io_timeout = std::chrono::milliseconds(1500);
    const std::string expected =
        std::string(R"({"protocol_version":3,"version":")") + sctp_perf::version_string +
        R"(","program":"SOCK_STREAM_srv","host":"serverhost","kernel":"Linux 6.1.0 x86_64",)"
        R"("cpu_count":2,"cpu_affinity":"1","spin":true,"poll_before_sleep_us":0,"threads":2,)"
        R"("data_path":"one-to-one",)"
        R"("transport":"tcp","nagle":true,"io_timeout_ms":1500,"sndbuf_bytes":16384,)"
        R"("rcvbuf_bytes":131072,"bind_device":"","max_seg_requested_bytes":1000,)"
        R"("max_seg_bytes":1000,"sctp_rto":null,"sctp":null,)"
        R"("realtime_minus_monotonic_ns":)";
    // The last member is sampled as the settings are made: its value is
    // checked apart, the bytes before it exactly.
    const auto text = sctp_perf::server_settings_json(identity, socket.get());
    CHECK(text.substr(0, expected.size()) == expected);
    const auto doc = nlohmann::json::parse(text);
    const auto sampled = doc["realtime_minus_monotonic_ns"].get<std::int64_t>();
    // CLOCK_REALTIME is after 2020 and CLOCK_MONOTONIC far smaller on any host.
    CHECK(sampled > std::int64_t{1'577'836'800} * 1'000'000'000);
}

TEST_CASE("server settings: the boot id, for one-way latency on one host") {
    const sctp_perf::unique_fd socket(::socket(AF_INET, SOCK_STREAM, 0));
    REQUIRE(socket.get() >= 0);
    auto identity = tcp_identity();
    identity.boot_id = "0d3c7b1e-2f4a-4d5e-9c8b-7a6f5e4d3c2b";
    const auto settings =
        nlohmann::json::parse(sctp_perf::server_settings_json(identity, socket.get()));
    CHECK(settings["boot_id"] == "0d3c7b1e-2f4a-4d5e-9c8b-7a6f5e4d3c2b");
    const auto decoded = sctp_perf::protocol::decode_server_settings(settings);
    CHECK(decoded.boot_id == identity.boot_id);
    CHECK(decoded.realtime_minus_monotonic_ns.has_value());
}
