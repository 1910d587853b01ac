// SPDX-License-Identifier: Apache-2.0
// Addresses as users type them and as the programs print them.

#include <catch2/catch.hpp>

#include "transport/socket_setup.hpp"

TEST_CASE("addresses: an IPv6 literal is bracketed beside its port, and only then") {
    CHECK(sctp_perf::host_and_port("::1", 45453) == "[::1]:45453");
    CHECK(sctp_perf::host_and_port("[::1]", 45453) == "[::1]:45453");
    CHECK(sctp_perf::host_and_port("fe80::1%lo", 1) == "[fe80::1%lo]:1");
    CHECK(sctp_perf::host_and_port("127.0.0.1", 45453) == "127.0.0.1:45453");
    CHECK(sctp_perf::host_and_port("localhost", 80) == "localhost:80");
}

TEST_CASE("addresses: brackets are taken off before resolving") {
    CHECK(sctp_perf::unbracketed_host("[::1]") == "::1");
    CHECK(sctp_perf::unbracketed_host("::1") == "::1");
    CHECK(sctp_perf::unbracketed_host("10.0.0.1") == "10.0.0.1");
    CHECK(sctp_perf::unbracketed_host("localhost") == "localhost");
}
