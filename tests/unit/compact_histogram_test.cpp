// SPDX-License-Identifier: Apache-2.0
#include "stats/compact_histogram.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <initializer_list>
#include <random>
#include <vector>

#include "reference_percentile.hpp"
#include "stats/log_linear_histogram.hpp"

using sctp_perf::compact_histogram;
using sctp_perf::log_linear_histogram;
using sctp_perf::testing::reference_percentile;

namespace {

constexpr std::uint32_t reported_ppm[] = {1,       100'000, 500'000, 900'000,
                                          990'000, 999'000, 999'900, 1'000'000};

}  // namespace

TEST_CASE("compact_histogram: 16 buckets per power of two, only those reached kept") {
    // 0..31 one each (32), then 39 octaves [2^5, 2^44) of 16: 32 + 624 = 656
    // buckets in the layout, kept 16 at a time as samples reach them.
    CHECK(compact_histogram::bucket_count() == 656);
    compact_histogram h;
    CHECK(h.counts().empty());
    // 20 us: octave [16,384, 32,768), buckets 32 + (14 - 5) x 16 = 176..191;
    // 20,000 is 3,616 into it, 1,024 a bucket: bucket 179.
    h.record(20'000);
    CHECK(h.first_index() == 176);
    CHECK(h.counts().size() == 16);
    CHECK(h.counts()[3] == 1);
    // 10 ms: octave [8,388,608, 16,777,216), 2^23, buckets 32 + 18 x 16 =
    // 320..335: 10 octaves from 176 to 335, 160 counters, 1,280 bytes.
    h.record(10'000'000);
    CHECK(h.first_index() == 176);
    CHECK(h.counts().size_bytes() == 1280);
    // A smaller one widens downwards and keeps what was counted: 5 ns is
    // bucket 5, in the first group (0..15).
    h.record(5);
    CHECK(h.first_index() == 0);
    CHECK(h.counts().size() == 336);
    CHECK(h.counts()[5] == 1);
    CHECK(h.counts()[179] == 1);
    CHECK(h.count() == 3);
    // The beyond-range bucket is the last group's last.
    h.record(1ull << 50);
    CHECK(h.counts().size() == 656);
    CHECK(h.counts()[655] == 1);
    CHECK(compact_histogram::highest_trackable_ns() == (1ull << 44) - 1);
    CHECK(compact_histogram::bucket_index((1ull << 44) - 1) == 655);
    CHECK(compact_histogram::relative_error_bound == 0.0625);
}

TEST_CASE("compact_histogram: 1 to 100 us, checked by hand and against the full histogram") {
    // 100 samples, 1,000 ns to 100,000 ns in steps of 1,000.
    //  p50: rank 50, 50,000 ns, in [32,768, 65,536) where buckets are 2,048
    //       wide: 24 x 2,048 = 49,152, so the bucket is [49,152, 51,199] and
    //       51,199 is reported, 2.4 % above. The full histogram (buckets of
    //       32 there) reports 1,562 x 32 + 31 = 50,015.
    //  p99: rank 99, 99,000 ns, in [65,536, 131,072), buckets of 4,096:
    //       [98,304, 102,399], whose top is above the largest sample, so
    //       the maximum 100,000 is reported, 1 % above; the full one
    //       (buckets of 64 there) 1,546 x 64 + 63 = 99,007.
    //  p90: rank 90, 90,000 ns: [86,016, 90,111] (21 x 4,096), 0.1 % above;
    //       the full one 1,406 x 64 + 63 = 90,047.
    //  p100: the maximum, 100,000, exactly.
    compact_histogram compact;
    log_linear_histogram full;
    for (std::uint64_t v = 1'000; v <= 100'000; v += 1'000) {
        compact.record(v);
        full.record(v);
    }
    CHECK(compact.count() == 100);
    CHECK(compact.min_ns() == 1'000);
    CHECK(compact.max_ns() == 100'000);
    CHECK(compact.percentile_ns(500'000) == 51'199.0);
    CHECK(full.percentile_ns(500'000) == 50'015.0);
    CHECK(compact.percentile_ns(900'000) == 90'111.0);
    CHECK(full.percentile_ns(900'000) == 90'047.0);
    CHECK(compact.percentile_ns(990'000) == 100'000.0);
    CHECK(full.percentile_ns(990'000) == 99'007.0);
    CHECK(compact.percentile_ns(1'000'000) == 100'000.0);
}

TEST_CASE("compact_histogram: values below 32 ns are exact") {
    compact_histogram h;
    for (std::uint64_t v = 1; v <= 31; ++v) {
        h.record(v);
    }
    // 31 samples: p50 is rank 16, the value 16; p10 rank 4, the value 4.
    CHECK(h.percentile_ns(500'000) == 16.0);
    CHECK(h.percentile_ns(100'000) == 4.0);
    CHECK(h.percentile_ns(1'000'000) == 31.0);
}

TEST_CASE("compact_histogram: the worst case is just under 6.25 % above") {
    // 65,536 = 2^16 opens the bucket [65,536, 69,631] (width 4,096):
    // reported as 69,631, 4,095 / 65,536 = 6.2485 % above. A larger sample
    // keeps the clamp to the maximum from hiding the bucket's top.
    compact_histogram h;
    h.record(65'536);
    h.record(1'000'000);
    const double reported = h.percentile_ns(500'000);
    CHECK(reported == 69'631.0);
    CHECK((reported - 65'536.0) / 65'536.0 < compact_histogram::relative_error_bound);
}

TEST_CASE("compact_histogram: one sample, or equal samples, give that value everywhere") {
    compact_histogram one;
    one.record(123'456'789);
    compact_histogram equal;
    for (int i = 0; i < 1000; ++i) {
        equal.record(20'000);
    }
    for (std::uint32_t ppm : reported_ppm) {
        INFO("ppm " << ppm);
        CHECK(one.percentile_ns(ppm) == 123'456'789.0);
        CHECK(equal.percentile_ns(ppm) == 20'000.0);
    }
}

TEST_CASE("compact_histogram: every bucket is at most 1/16 of its lower edge") {
    for (std::uint64_t v : {31ull, 32ull, 33ull, 63ull, 64ull, 65'535ull, 65'536ull, 123'456'789ull,
                            (1ull << 43) + 12'345}) {
        const auto index = compact_histogram::bucket_index(v);
        const auto low = compact_histogram::bucket_low(index);
        const auto width = compact_histogram::bucket_width(index);
        INFO("value " << v);
        CHECK(low <= v);
        CHECK(v < low + width);
        CHECK(static_cast<double>(width) <= std::max(1.0, static_cast<double>(low) / 16.0));
    }
}

TEST_CASE("compact_histogram: never below the true value nor the full histogram, within 6.25 %") {
    std::mt19937_64 rng(20261125);
    // Round trips of 5 us to 50 ms, log-normal-ish with a long tail.
    std::lognormal_distribution<double> rtt(std::log(20'000.0), 1.0);
    std::vector<std::uint64_t> values;
    compact_histogram compact;
    log_linear_histogram full;
    for (int i = 0; i < 100'000; ++i) {
        const auto v = static_cast<std::uint64_t>(std::clamp(rtt(rng), 5'000.0, 5e7));
        values.push_back(v);
        compact.record(v);
        full.record(v);
    }
    std::sort(values.begin(), values.end());
    for (std::uint32_t ppm : reported_ppm) {
        const double truth = static_cast<double>(reference_percentile(values, ppm));
        const double reported = compact.percentile_ns(ppm);
        INFO("ppm " << ppm << ": reported " << reported << ", nearest rank " << truth);
        CHECK(reported >= truth);
        CHECK(reported >= full.percentile_ns(ppm));
        CHECK(reported - truth < truth * compact_histogram::relative_error_bound);
        CHECK(reported <= static_cast<double>(values.back()));
    }
    CHECK(compact.min_ns() == values.front());
    CHECK(compact.max_ns() == values.back());
}

TEST_CASE("compact_histogram: merge adds, beyond-range values keep the exact max") {
    // a: 10 and 2^50 (saturated); b: 20 and 30. Merged: 10, 20, 30, 2^50.
    // p50 is rank 2, 20 (exact below 32); p75 rank 3, 30; p100 the max.
    compact_histogram a;
    CHECK(a.record(10));
    CHECK_FALSE(a.record(1ull << 50));
    compact_histogram b;
    b.record(20);
    b.record(30);
    a.merge(b);
    CHECK(a.count() == 4);
    CHECK(a.beyond_range_count() == 1);
    CHECK(a.min_ns() == 10);
    CHECK(a.percentile_ns(500'000) == 20.0);
    CHECK(a.percentile_ns(750'000) == 30.0);
    CHECK(a.percentile_ns(1'000'000) == static_cast<double>(1ull << 50));
    // Rank 3 of 3 saturated values sits in the last bucket: the max bounds it.
    compact_histogram top;
    top.record(1ull << 44);
    top.record(1ull << 45);
    top.record(1ull << 46);
    CHECK(top.percentile_ns(500'000) == static_cast<double>(1ull << 46));
}

TEST_CASE("compact_histogram: merging ranges apart, into an empty one and either way round") {
    // low: 1 and 2 us; high: 1 and 2 ms, eleven powers of two apart. Merged
    // either way round, or both into an empty one, the four percentiles are
    // those of one histogram that recorded all four values.
    const auto fill = [](compact_histogram& h, std::initializer_list<std::uint64_t> values) {
        for (const auto v : values) {
            h.record(v);
        }
    };
    compact_histogram low, high, all;
    fill(low, {1'000, 2'000});
    fill(high, {1'000'000, 2'000'000});
    fill(all, {1'000, 2'000, 1'000'000, 2'000'000});
    compact_histogram low_first = low;
    low_first.merge(high);
    compact_histogram high_first = high;
    high_first.merge(low);
    compact_histogram empty_first;
    empty_first.merge(high);
    empty_first.merge(low);
    empty_first.merge(compact_histogram{});  // nothing to add
    for (const compact_histogram* merged : {&low_first, &high_first, &empty_first}) {
        CHECK(merged->count() == 4);
        CHECK(merged->first_index() == all.first_index());
        CHECK(std::equal(merged->counts().begin(), merged->counts().end(), all.counts().begin(),
                         all.counts().end()));
        for (const std::uint32_t ppm : {250'000u, 500'000u, 750'000u, 1'000'000u}) {
            CHECK(merged->percentile_ns(ppm) == all.percentile_ns(ppm));
        }
    }
}
