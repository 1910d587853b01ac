// SPDX-License-Identifier: Apache-2.0
// The routes SOCK_SEQPACK_clt tries for each association, worked out once
// for all of them: numeric addresses only, so that no resolver is asked and
// no SCTP socket is opened (the build host may have no SCTP).

#include <catch2/catch.hpp>

#include "transport/seqpacket_connector.hpp"

using namespace sctp_perf;

TEST_CASE("seqpacket routes: every -H address and every -i address on one route", "[transport]") {
    seqpacket_connect_request request;
    request.server_hosts = {"127.0.0.1", "127.0.0.3"};
    request.server_port = 45453;
    request.client_addresses = {"127.0.0.1", "127.0.0.2"};
    const auto routes = resolve_seqpacket_routes(request);
    REQUIRE(routes.size() == 1);  // IPv4 servers only: no IPv6 route
    CHECK(routes[0].family == AF_INET);
    CHECK(routes[0].unusable.empty());
    CHECK(routes[0].peers.describe() ==
          std::vector<std::string>{"127.0.0.1:45453", "127.0.0.3:45453"});
    CHECK(routes[0].locals.count() == 2);
}

TEST_CASE("seqpacket routes: a local address of another family says why", "[transport]") {
    seqpacket_connect_request request;
    request.server_hosts = {"127.0.0.1"};
    request.client_addresses = {"::1"};
    const auto routes = resolve_seqpacket_routes(request);
    REQUIRE(routes.size() == 1);
    CHECK(routes[0].unusable == "client address '::1' has no IPv4 form to reach the server");
    const auto failure = seqpacket_connect_failure(request, routes[0].unusable, false);
    CHECK(std::string(failure.what()) ==
          "cannot connect to 127.0.0.1:45453 (client address '::1' has no IPv4 form to reach "
          "the server)");
    CHECK_FALSE(failure.refused());
}

TEST_CASE("seqpacket routes: a fixed local port without -i binds the wildcard", "[transport]") {
    seqpacket_connect_request request;
    request.server_hosts = {"127.0.0.1"};
    request.client_port = 40000;
    const auto routes = resolve_seqpacket_routes(request);
    REQUIRE(routes.size() == 1);
    CHECK(routes[0].locals.describe() == std::vector<std::string>{"0.0.0.0:40000"});
}
