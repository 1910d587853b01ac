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
