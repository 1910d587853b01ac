// SPDX-License-Identifier: Apache-2.0
// --bind-device, --max-seg and interface names in -i/-a: what the options
// take and refuse, and what an interface name resolves to. The loopback
// interface "lo" exists on every Linux host, with 127.0.0.1.

#include <catch2/catch.hpp>
#include <sstream>

#include "errors.hpp"
#include "option_test_support.hpp"
#include "options/server_options.hpp"
#include "transport/network_interface.hpp"
#include "transport/seqpacket_connector.hpp"
#include "transport/socket_setup.hpp"
#include "transport/stream_connector.hpp"

using namespace sctp_perf;
using Catch::Matchers::Contains;
using sctp_perf::testing::command_line;

namespace {

// A name no interface has, and that no resolver is asked about in these
// tests (.invalid never resolves, RFC 6761).
constexpr const char* no_such_interface = "nosuchif0";

client_options client(std::vector<std::string> words,
                      const program_info& program = sctp_perf::testing::stream_client) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    auto options = parse_client_options(cl.argc(), cl.argv(), program, out);
    REQUIRE(options);
    return *options;
}

server_options server(std::vector<std::string> words,
                      const program_info& program = sctp_perf::testing::stream_server) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    auto options = parse_server_options(cl.argc(), cl.argv(), program, out);
    REQUIRE(options);
    return *options;
}

std::string server_usage_error(std::vector<std::string> words) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    try {
        parse_server_options(cl.argc(), cl.argv(), sctp_perf::testing::stream_server, out);
    } catch (const usage_error& e) {
        return e.what();
    }
    FAIL("no usage error for that command line");
    return {};
}

std::string host_of(const socket_address& address) {
    return format_address(address.get(), address.length);
}

}  // namespace

TEST_CASE("interfaces: lo is found with 127.0.0.1 first, the port set") {
    CHECK(is_interface_name("lo"));
    CHECK_FALSE(is_interface_name(no_such_interface));
    CHECK_FALSE(is_interface_name(""));
    CHECK_FALSE(is_interface_name("a-name-longer-than-15"));
    CHECK_FALSE(find_interface(no_such_interface, 1));
    const auto lo = find_interface("lo", 4242);
    REQUIRE(lo);
    CHECK(lo->name == "lo");
    REQUIRE_FALSE(lo->addresses.empty());
    // IPv4 first: 127.0.0.1 before ::1 (when lo has IPv6 at all).
    CHECK(host_of(lo->addresses.front()) == "127.0.0.1:4242");
    CHECK(lo->of_family(AF_INET).size() >= 1);
    for (const auto& address : lo->of_family(AF_INET6)) {
        CHECK(address.family() == AF_INET6);
    }
    CHECK(lo->host_list().front() == "127.0.0.1");
    CHECK_THAT(lo->hosts(), Contains("127.0.0.1"));
}

TEST_CASE(
    "device options: --bind-device is an interface of this host, else a usage error naming it") {
    CHECK(client({"-s", "7", "-t", "tcp", "--bind-device", "lo"}).common.bind_device == "lo");
    CHECK(client({"-s", "7"}).common.bind_device.empty());
    CHECK(server({"-t", "tcp", "--bind-device", "lo"}).common.bind_device == "lo");
    CHECK_THAT(sctp_perf::testing::client_usage_error(
                   {"-s", "7", "-t", "tcp", "--bind-device", no_such_interface}),
               Contains("--bind-device nosuchif0: this host has no such network interface "
                        "('ip -brief link' lists those it has)"));
    CHECK_THAT(server_usage_error({"--bind-device", no_such_interface}),
               Contains("--bind-device nosuchif0: this host has no such network interface"));
    CHECK_THAT(sctp_perf::testing::client_usage_error(
                   {"-s", "7", "--bind-device", "a-name-longer-than-15"}),
               Contains("--bind-device takes an interface name of 1..15 characters"));
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "7", "--bind-device", ""}),
               Contains("--bind-device takes an interface name"));
}

TEST_CASE("device options: --max-seg takes TCP_MAXSEG's range over TCP, SCTP_MAXSEG's over SCTP") {
    CHECK_FALSE(client({"-s", "7"}).common.max_seg_bytes);
    CHECK(client({"-s", "7", "-t", "tcp", "--max-seg", "88"}).common.max_seg_bytes == 88u);
    CHECK(client({"-s", "7", "-t", "tcp", "--max-seg", "32767"}).common.max_seg_bytes == 32767u);
    CHECK(client({"-s", "7", "--max-seg", "464"}).common.max_seg_bytes == 464u);
    CHECK(client({"-s", "7", "--max-seg", "65512"}).common.max_seg_bytes == 65512u);
    CHECK(client({"-s", "7", "--max-seg", "1400"}, sctp_perf::testing::seqpack_client)
              .common.max_seg_bytes == 1400u);
    CHECK(server({"-t", "tcp", "--max-seg", "1Ki"}).common.max_seg_bytes == 1024u);
    const char* tcp_range =
        "--max-seg must be 88..32767 bytes over TCP (the range TCP_MAXSEG takes)";
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "7", "-t", "tcp", "--max-seg", "87"}),
               Contains(tcp_range));
    CHECK_THAT(
        sctp_perf::testing::client_usage_error({"-s", "7", "-t", "tcp", "--max-seg", "32768"}),
        Contains(tcp_range));
    const char* sctp_range = "--max-seg must be 464..65512 bytes over SCTP";
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "7", "--max-seg", "463"}),
               Contains(sctp_range));
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "7", "--max-seg", "65513"}),
               Contains(sctp_range));
    CHECK_THAT(server_usage_error({"--max-seg", "0"}), Contains(sctp_range));
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "7", "--max-seg", "1KB"}),
               Contains("--max-seg must be a size in bytes"));
}

TEST_CASE("device options: -i and -a keep an interface name as given, resolved when connecting") {
    CHECK(client({"-s", "7", "-t", "tcp", "-i", "lo"}).client_addresses ==
          std::vector<std::string>{"lo"});
    CHECK(server({"-t", "tcp", "-a", "lo"}).bind_addresses == std::vector<std::string>{"lo"});
}

TEST_CASE("stream routes: -i lo gives lo's address in the server's family") {
    connect_request request;
    request.transport = transport_protocol::tcp;
    request.server_host = "127.0.0.1";
    request.server_port = 45453;
    request.client_address = "lo";
    const auto routes = resolve_routes(request);
    REQUIRE(routes.size() == 1);
    CHECK(routes[0].unusable.empty());
    REQUIRE(routes[0].local);
    CHECK(host_of(*routes[0].local) == "127.0.0.1:0");
    if (!find_interface("lo", 0)->of_family(AF_INET6).empty()) {
        request.server_host = "::1";
        const auto v6 = resolve_routes(request);
        REQUIRE(v6.size() == 1);
        REQUIRE(v6[0].local);
        CHECK(host_of(*v6[0].local) == "[::1]:0");
    }
}

TEST_CASE(
    "stream routes: a local name that is no interface and does not resolve is a usage "
    "error") {
    connect_request request;
    request.server_host = "127.0.0.1";
    request.client_address = "no-such-host.invalid";
    CHECK_THROWS_AS(resolve_routes(request), usage_error);
    CHECK_THROWS_WITH(resolve_routes(request),
                      Contains("-i/--client-connect-addr no-such-host.invalid: neither a network "
                               "interface of this host"));
}

TEST_CASE("seqpacket routes: -i lo binds every IPv4 address of lo for an IPv4 server",
          "[transport]") {
    seqpacket_connect_request request;
    request.server_hosts = {"127.0.0.1"};
    request.server_port = 45453;
    request.client_addresses = {"lo"};
    request.client_port = 4000;
    const auto routes = resolve_seqpacket_routes(request);
    REQUIRE(routes.size() == 1);
    CHECK(routes[0].unusable.empty());
    const auto lo = find_interface("lo", 4000);
    CHECK(routes[0].locals.count() == static_cast<int>(lo->of_family(AF_INET).size()));
    CHECK(routes[0].locals.describe().front() == "127.0.0.1:4000");
}
