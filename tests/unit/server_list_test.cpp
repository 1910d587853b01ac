// SPDX-License-Identifier: Apache-2.0
#include "options/server_list.hpp"

#include <catch2/catch.hpp>

#include "client/stream_client.hpp"
#include "options/client_options.hpp"

using namespace sctp_perf;

namespace {

server_list_reading read(const std::string& list) {
    return parse_server_list(list, 45453);
}

}  // namespace

TEST_CASE("server list: hosts, with their own port or -p's") {
    const auto r = read("a,b:1,10.0.0.1:65535,::1,[fe80::1%eth0]:80,[::2],");
    REQUIRE(r.error.empty());
    CHECK(r.servers == std::vector<server_endpoint>{{"a", 45453},
                                                    {"b", 1},
                                                    {"10.0.0.1", 65535},
                                                    {"::1", 45453},
                                                    {"fe80::1%eth0", 80},
                                                    {"[::2]", 45453}});
    CHECK(endpoint_text(r.servers[1]) == "b:1");
    CHECK(endpoint_text(r.servers[3]) == "[::1]:45453");
    CHECK(endpoint_text(r.servers[4]) == "[fe80::1%eth0]:80");
    CHECK(endpoint_text(r.servers[5]) == "[::2]:45453");
}

TEST_CASE("server list: an entry that cannot be read is named") {
    using Catch::Matchers::Contains;
    CHECK_THAT(read("a:").error, Contains("entry 'a:': the port must be 1..65535"));
    CHECK_THAT(read("a:65536").error, Contains("entry 'a:65536'"));
    CHECK_THAT(read("a:0").error, Contains("entry 'a:0'"));
    CHECK_THAT(read("a:x1").error, Contains("entry 'a:x1'"));
    CHECK_THAT(read("a:+1").error, Contains("entry 'a:+1'"));
    CHECK_THAT(read(":80").error, Contains("entry ':80' names no host"));
    CHECK_THAT(read("[::1]:").error, Contains("entry '[::1]:'"));
    CHECK_THAT(read("[::1").error, Contains("is not [IPv6]:PORT"));
    CHECK_THAT(read("[::1]80").error, Contains("is not [IPv6]:PORT"));
    CHECK_THAT(read("[]:80").error, Contains("is not [IPv6]:PORT"));
    CHECK_THAT(read(",,").error, Contains("must name a host"));
    CHECK_THAT(read("b,a:45453,a").error, Contains("names a:45453 twice"));
    CHECK(read("a:1").servers.size() == 1);
    CHECK(read("a:1,b:").servers.empty());  // nothing half-read on an error
}

TEST_CASE("server list: flow k goes to server k modulo their number") {
    CHECK(server_of_flow(0, 3) == 0);
    CHECK(server_of_flow(4, 3) == 1);
    CHECK(server_of_flow(5, 3) == 2);
    CHECK(server_of_flow(7, 1) == 0);
    // 7 flows over 3 servers: flows 0,3,6 / 1,4 / 2,5.
    CHECK(flows_per_server(7, 3) == std::vector<unsigned>{3, 2, 2});
    CHECK(flows_per_server(6, 3) == std::vector<unsigned>{2, 2, 2});
    CHECK(flows_per_server(5, 1) == std::vector<unsigned>{5});
}

TEST_CASE("server list: each flow's connection goes to its server, from its local address") {
    client_options options;
    options.servers = {{"10.0.0.1", 5000}, {"10.0.0.2", 6000}};
    options.client_addresses = {"10.0.1.1", "10.0.1.2", "10.0.1.3"};
    for (unsigned flow = 0; flow < 12; ++flow) {
        const auto request = stream_connect_request(options, flow);
        CHECK(request.server_host == options.servers[flow % 2].host);
        CHECK(request.server_port == options.servers[flow % 2].port);
        CHECK(request.client_address == options.client_addresses[flow % 3]);
    }
    // Without a server list (SOCK_SEQPACK's options), the one host and -p.
    client_options plain;
    plain.server_hosts = {"h"};
    plain.server_port = 7;
    CHECK(stream_connect_request(plain, 3).server_host == "h");
    CHECK(stream_connect_request(plain, 3).server_port == 7);
}
