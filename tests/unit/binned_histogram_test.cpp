// SPDX-License-Identifier: Apache-2.0
#include "stats/binned_histogram.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

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

namespace {

// Records k / 1000.0 us for every whole nanosecond k in [0, last_ns] and
// checks that each lands in the bin whose printed [bin_low, bin_high) holds
// it, compared as the doubles those functions return. Returns the histogram
// for further checks.
binned_histogram record_every_nanosecond(const bin_layout& layout, std::uint64_t last_ns) {
    binned_histogram h(layout);
    std::vector<double> edges;
    for (std::size_t i = 0; i <= layout.bin_count; ++i) {
        edges.push_back(h.bin_low(i));
    }
    std::vector<std::uint64_t> expected(layout.bin_count, 0);
    std::vector<double> misplaced;
    for (std::uint64_t k = 0; k <= last_ns; ++k) {
        const double v = static_cast<double>(k) / 1000.0;
        const bool binned = h.record(v, k);
        if (v < edges.front() || v >= edges.back()) {
            if (binned) {
                misplaced.push_back(v);
            }
            continue;
        }
        // The last edge not above v starts v's bin.
        const auto bin = static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), v) -
                                                  edges.begin() - 1);
        ++expected[bin];
        if (!binned || h.bin(bin) != expected[bin]) {
            misplaced.push_back(v);
            expected[bin] = h.bin(bin);  // report each misplaced value once
        }
    }
    INFO("first misplaced value: " << (misplaced.empty() ? 0.0 : misplaced.front()) << " us");
    CHECK(misplaced.empty());
    return h;
}

}  // namespace

TEST_CASE("binned_histogram: every whole nanosecond lands in the bin printed for it") {
    // -m 0 -M 100 -b 1000: bins of 0.1 us, 100 whole ns each. The plain index
    // (v - min) * n / range put 4 of these 100,000 values one bin low (32.3,
    // 64.1, 64.6 and 65.1 us); 100 us itself is the exclusive top edge.
    const auto h = record_every_nanosecond(bin_layout{0.0, 100.0, 1000, 0}, 100'000);
    CHECK(h.above() == 1);
    CHECK(h.below() == 0);
    for (std::size_t i = 0; i < 1000; ++i) {
        INFO("bin " << i);
        REQUIRE(h.bin(i) == 100);
    }
}

TEST_CASE("binned_histogram: whole nanoseconds against an offset layout with uneven edges") {
    // 0.5 .. 77.7 us in 333 bins: edges that are no round number of ns, and a
    // minimum that is not 0. 0..499 ns are below, 77,700..80,000 ns above.
    const auto h = record_every_nanosecond(bin_layout{0.5, 77.7, 333, 0}, 80'000);
    CHECK(h.below() == 500);
    CHECK(h.above() == 2301);
    CHECK(h.total() == 80'001);
}

TEST_CASE("binned_histogram: values on printed edges, checked by hand") {
    // 0..100 us in 1000 bins of 0.1 us. bin_low(323) = 100 * 323 / 1000 =
    // 32300 / 1000, the double nearest 32.3, which is what the literal 32.3
    // is too. (32.3 - 0) * 1000 / 100 rounds to 322.99999999999994, so the
    // plain index would have said 322.
    binned_histogram h(bin_layout{0.0, 100.0, 1000, 1});
    REQUIRE(h.bin_low(323) == 32.3);
    CHECK(h.record(32.3, 0));
    CHECK(h.bin(323) == 1);
    CHECK(h.bin(322) == 0);
    // One ulp below the edge belongs to the bin below it.
    CHECK(h.record(std::nextafter(32.3, 0.0), 1));
    CHECK(h.bin(322) == 1);
    // 64.1 us: 64.1 * 1000 / 100 = 640.9999999999999, bin_low(641) = 64.1.
    REQUIRE(h.bin_low(641) == 64.1);
    CHECK(h.record(64.1, 2));
    CHECK(h.bin(641) == 1);
    // 0 is bin 0; 99.9 us starts the last bin; 100 us, the top edge, is above.
    CHECK(h.record(0.0, 3));
    CHECK(h.bin(0) == 1);
    CHECK(h.record(99.9, 4));
    CHECK(h.bin(999) == 1);
    CHECK_FALSE(h.record(100.0, 5));
    CHECK(h.above() == 1);
    CHECK(h.total() == 6);
}

TEST_CASE("binned_histogram: the last bin's printed high edge is max itself") {
    // 0..0.7 us in 3 bins: 0.7 * 3 / 3 rounds to 0.6999999999999998, but the
    // last bin must end where `above` starts, at 0.7 exactly.
    binned_histogram h(bin_layout{0.0, 0.7, 3, 1});
    CHECK(h.bin_high(2) == 0.7);
    const double hair_below = std::nextafter(0.7, 0.0);
    CHECK(hair_below >= h.bin_low(2));
    CHECK(h.record(hair_below, 0));
    CHECK(h.bin(2) == 1);
    CHECK_FALSE(h.record(0.7, 1));
    CHECK(h.above() == 1);
}
