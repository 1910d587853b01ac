// SPDX-License-Identifier: Apache-2.0
// The descriptor count a client run needs, and the sentence when the limit
// is too low.

#include "client/descriptor_budget.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace sctp_perf;

TEST_CASE("descriptor budget: a socket per flow, an epoll per thread, 16 for the rest") {
    CHECK(descriptors_needed(1, 1) == 18);
    CHECK(descriptors_needed(100, 2) == 118);  // 100 + 2 + 16
    CHECK(descriptors_needed(100'000, 2) == 100'018);
}

TEST_CASE("descriptor budget: enough is no error, one short names ulimit -n and the number") {
    CHECK_FALSE(descriptor_shortfall(100, 2, {118, 118}));
    CHECK_FALSE(descriptor_shortfall(100, 2, {}));  // no limit at all
    const auto short_by_one = descriptor_shortfall(100, 2, {117, 1'000'000});
    REQUIRE(short_by_one);
    CHECK(*short_by_one ==
          "100 flows need 118 file descriptors (a socket per flow, an epoll descriptor for each "
          "of the 2 threads and 16 for the standard streams, output files and /proc reads), but "
          "this process may open only 117 (ulimit -n): run 'ulimit -n 118' first, or ask for "
          "fewer --flows");
}

TEST_CASE("descriptor budget: a hard limit too low is named, with how to raise it") {
    const auto message = descriptor_shortfall(1, 1, {10, 10});
    REQUIRE(message);
    CHECK(message->find("1 flow needs 18 file descriptors") == 0);
    CHECK(message->find("'ulimit -n 18'") != std::string::npos);
    CHECK(message->find("the hard limit is 10 (ulimit -Hn), so raise that first, as root") !=
          std::string::npos);
}

TEST_CASE("port budget: each local address has the range's ports, a -i list adds up") {
    const port_range range{32768, 60999};  // 28,232 ports, Linux's default
    CHECK(range.count() == 28'232);
    CHECK_FALSE(port_shortfall(28'232, 0, true, range));
    CHECK_FALSE(port_shortfall(56'464, 2, true, range));  // 2 x 28,232
    const auto one_short = port_shortfall(28'233, 1, true, range);
    REQUIRE(one_short);
    CHECK(*one_short ==
          "28233 flows need 28233 local ports, but 1 local address has only 28232 (28232 per "
          "address, net.ipv4.ip_local_port_range 32768 60999): give -i a list of 2 local "
          "addresses (-i 127.0.0.1,127.0.0.2,... on loopback), which the flows are dealt over, or "
          "ask for fewer --flows");
    // 100,000 flows over 3 addresses: 84,696 ports, 4 addresses needed.
    const auto three = port_shortfall(100'000, 3, true, range);
    REQUIRE(three);
    CHECK(three->find("but 3 local addresses have only 84696") != std::string::npos);
    CHECK(three->find("a list of 4 local addresses") != std::string::npos);
}

TEST_CASE("port budget: where every association binds every address, the list adds nothing") {
    const port_range range{40000, 40999};  // 1,000 ports
    CHECK_FALSE(port_shortfall(1000, 3, false, range));
    const auto message = port_shortfall(1001, 3, false, range);
    REQUIRE(message);
    CHECK(*message ==
          "1001 flows need 1001 local ports, but the kernel hands out only 1000 "
          "(net.ipv4.ip_local_port_range 40000 40999): ask for fewer --flows, or widen the range");
}

TEST_CASE("port budget: with several servers each pair of local address and server has the range") {
    const port_range range{40000, 40999};  // 1,000 ports
    // 2 servers, no -i: 2,000 flows are 1,000 towards each server.
    CHECK_FALSE(port_shortfall(2000, 0, true, range, 2));
    const auto over = port_shortfall(2001, 0, true, range, 2);
    REQUIRE(over);
    CHECK(*over ==
          "2001 flows dealt over 2 servers from 1 local address put 1001 flows on one pair of "
          "local address and server, each holding a local port of its own, but the kernel hands "
          "out only 1000 per pair (net.ipv4.ip_local_port_range 40000 40999): give -i more "
          "local addresses (-i 127.0.0.1,127.0.0.2,... on loopback) or -H more servers, or ask "
          "for fewer --flows");
    // 2 addresses and 3 servers: flow k uses pair (k mod 2, k mod 3), 6 pairs, so 6,000 flows.
    CHECK_FALSE(port_shortfall(6000, 2, true, range, 3));
    CHECK(port_shortfall(6001, 2, true, range, 3));
    // 2 addresses and 2 servers: flows 0,2,4... all on (0, 0), 1,3,5... on (1, 1): 2 pairs.
    CHECK_FALSE(port_shortfall(2000, 2, true, range, 2));
    CHECK(port_shortfall(2001, 2, true, range, 2));
    // The descriptors do not change with the servers: a socket per flow.
    CHECK(descriptors_needed(2001, 2) == 2001 + 2 + descriptor_reserve);
}
