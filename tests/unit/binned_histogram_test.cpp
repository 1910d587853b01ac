#include "stats/binned_histogram.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using sctp_perf::bin_layout;
using sctp_perf::binned_histogram;

TEST_CASE("binned_histogram: a bin holds its low edge and not its high edge") {
    // 0..100 in 10 bins of width 10.
    binned_histogram h(bin_layout{0.0, 100.0, 10, 5});
    CHECK(h.record(0.0, 0));
    CHECK(h.record(9.999, 1));
    CHECK(h.record(10.0, 2));
    CHECK(h.record(30.0, 3));
    CHECK(h.record(70.0, 4));
    CHECK(h.record(99.999, 5));
    CHECK(h.bin(0) == 2);
    CHECK(h.bin(1) == 1);
    CHECK(h.bin(3) == 1);
    CHECK(h.bin(7) == 1);
    CHECK(h.bin(9) == 1);
    CHECK(h.below() == 0);
    CHECK(h.above() == 0);
    CHECK(h.total() == 6);
    CHECK(h.bin_low(3) == Approx(30.0));
    CHECK(h.bin_high(3) == Approx(40.0));
}

TEST_CASE("binned_histogram: below and above the range are counted, not binned") {
    binned_histogram h(bin_layout{10.0, 20.0, 2, 5});
    CHECK_FALSE(h.record(9.99, 0));
    CHECK_FALSE(h.record(20.0, 1));  // max is exclusive
    CHECK_FALSE(h.record(1e6, 2));
    CHECK(h.record(10.0, 3));
    CHECK(h.below() == 1);
    CHECK(h.above() == 2);
    CHECK(h.bin(0) == 1);
    CHECK(h.total() == 4);
}

TEST_CASE("binned_histogram: keeps the most extreme outliers, not the first ones") {
    // Range 0..10, keep 3. Arrivals above: 11, 50, 12, 40, 13, 90 (iterations 0..5).
    // The three farthest out are 90, 50, 40.
    binned_histogram h(bin_layout{0.0, 10.0, 10, 3});
    const double values[] = {11, 50, 12, 40, 13, 90};
    for (std::uint64_t i = 0; i < 6; ++i) {
        h.record(values[i], i);
    }
    const auto kept = h.outliers();
    REQUIRE(kept.size() == 3);
    CHECK(kept[0].value_us == 90.0);
    CHECK(kept[0].iteration == 5);
    CHECK(kept[1].value_us == 50.0);
    CHECK(kept[1].iteration == 1);
    CHECK(kept[2].value_us == 40.0);
    CHECK(kept[2].iteration == 3);
    CHECK(h.above() == 6);
}

TEST_CASE("binned_histogram: outliers below the range compete by distance from it") {
    // Range 100..200: 5 is 95 below, 230 is 30 above, 90 is 10 below. Keep 2.
    binned_histogram h(bin_layout{100.0, 200.0, 1, 2});
    h.record(90.0, 0);
    h.record(5.0, 1);
    h.record(230.0, 2);
    const auto kept = h.outliers();
    REQUIRE(kept.size() == 2);
    CHECK(kept[0].value_us == 230.0);  // listed largest value first
    CHECK(kept[1].value_us == 5.0);
}

TEST_CASE("binned_histogram: zero outliers kept still counts them") {
    binned_histogram h(bin_layout{0.0, 1.0, 1, 0});
    h.record(5.0, 0);
    CHECK(h.above() == 1);
    CHECK(h.outliers().empty());
}

TEST_CASE("binned_histogram: a value a hair below max stays in the last bin") {
    // (v - 0) * 3 / 0.3 rounds up to 3.0 for the largest double below 0.3.
    binned_histogram h(bin_layout{0.0, 0.3, 3, 1});
    CHECK(h.record(std::nextafter(0.3, 0.0), 0));
    CHECK(h.bin(2) == 1);
    CHECK(h.above() == 0);
}
