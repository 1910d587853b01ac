// SPDX-License-Identifier: Apache-2.0
// The spread of one figure over many of its kind (stats/value_spread.hpp).

#include "stats/value_spread.hpp"

#include <catch2/catch.hpp>
#include <vector>

using namespace sctp_perf;

TEST_CASE("value spread: the ends and the value of rank ceil(n / 2)") {
    // Sorted: 1 2 3 5; ceil(4 / 2) = 2, so the median is 2, a value of the
    // four, not the mean of 2 and 3.
    const std::vector<double> four{3, 1, 5, 2};
    const auto spread = spread_of(four);
    CHECK(spread.min == 1.0);
    CHECK(spread.median == 2.0);
    CHECK(spread.max == 5.0);
    // Sorted: 1 2 7; ceil(3 / 2) = 2.
    const auto three = spread_of(std::vector<double>{7, 2, 1});
    CHECK(three.median == 2.0);
    const auto one = spread_of(std::vector<double>{4.5});
    CHECK(one.min == 4.5);
    CHECK(one.median == 4.5);
    CHECK(one.max == 4.5);
    // The caller's values keep their order.
    CHECK(four == std::vector<double>{3, 1, 5, 2});
}

TEST_CASE("value spread: the positions of the largest, largest first") {
    const std::vector<double> values{3, 1, 5, 2};
    CHECK(largest_first(values, 2) == std::vector<std::size_t>{2, 0});
    CHECK(largest_first(values, 10) == std::vector<std::size_t>{2, 0, 3, 1});
    CHECK(largest_first(values, 0).empty());
    // Equal values in the order of their positions.
    CHECK(largest_first(std::vector<double>{4, 9, 4, 9}, 3) == std::vector<std::size_t>{1, 3, 0});
    CHECK(largest_first(std::vector<double>{}, 3).empty());
}
