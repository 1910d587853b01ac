// SPDX-License-Identifier: Apache-2.0
#include "stats/running_stats.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using sctp_perf::running_stats;

TEST_CASE("running_stats: mean and sample variance of hand-checked data") {
    // 2, 4, 4, 4, 5, 5, 7, 9: sum 40, mean 5; squared deviations
    // 9+1+1+1+0+0+4+16 = 32; sample variance 32 / 7.
    running_stats s;
    for (double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) {
        s.add(v);
    }
    CHECK(s.count() == 8);
    CHECK(s.mean() == Approx(5.0));
    CHECK(s.sample_variance() == Approx(32.0 / 7.0));
    CHECK(s.min() == 2.0);
    CHECK(s.max() == 9.0);
}

TEST_CASE("running_stats: one point has variance 0, none has NaN summaries") {
    running_stats s;
    CHECK(std::isnan(s.mean()));
    CHECK(s.sample_variance() == 0.0);
    s.add(41.0);
    CHECK(s.mean() == 41.0);
    CHECK(s.sample_variance() == 0.0);
}

TEST_CASE("running_stats: stable for a large offset where the naive formula cancels") {
    // 10^9 + {4, 7, 13, 16}: mean 10^9 + 10, deviations -6,-3,3,6, sum of
    // squares 90, sample variance 30. sum(x^2) - n*mean^2 loses all digits here.
    running_stats s;
    for (double v : {4.0, 7.0, 13.0, 16.0}) {
        s.add(1e9 + v);
    }
    CHECK(s.sample_variance() == Approx(30.0).epsilon(1e-9));
}
