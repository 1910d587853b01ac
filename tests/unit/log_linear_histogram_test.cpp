// SPDX-License-Identifier: Apache-2.0
#include "stats/log_linear_histogram.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <random>
#include <vector>

#include "reference_percentile.hpp"
#include "stats/latency_recorder.hpp"

using sctp_perf::log_linear_histogram;
using sctp_perf::testing::reference_percentile;

TEST_CASE("log_linear_histogram: small values are exact") {
    log_linear_histogram h;
    // 1..100 ns: p50 is the 50th value, 50; p99 the 99th, 99; p100 the max.
    for (std::uint64_t v = 1; v <= 100; ++v) {
        h.record(v);
    }
    CHECK(h.percentile_ns(500'000) == 50.0);
    CHECK(h.percentile_ns(990'000) == 99.0);
    CHECK(h.percentile_ns(1'000'000) == 100.0);
    CHECK(h.percentile_ns(1) == 1.0);
}

TEST_CASE("log_linear_histogram: every percentile below 2048 ns is the nearest-rank value") {
    // Each of 0..2047 ns once and 2047 once more (2049 samples): below 2048
    // every bucket is one ns wide, so the reported value is the true one.
    std::vector<std::uint64_t> values;
    log_linear_histogram h;
    for (std::uint64_t v = 0; v < 2048; ++v) {
        values.push_back(v);
        h.record(v);
    }
    values.push_back(2047);
    h.record(2047);
    for (std::uint32_t ppm = 1; ppm <= 1'000'000; ppm += 997) {
        INFO("ppm " << ppm);
        REQUIRE(h.percentile_ns(ppm) == static_cast<double>(reference_percentile(values, ppm)));
    }
    CHECK(h.percentile_ns(1'000'000) == 2047.0);
}

TEST_CASE("log_linear_histogram: one sample is every percentile") {
    // 123,456,789 ns lies in a bucket 65,536 ns wide ([2^26, 2^27) in 1024
    // buckets); its highest equivalent value is clamped to the one sample.
    log_linear_histogram h;
    h.record(123'456'789);
    for (std::uint32_t ppm : {1u, 500'000u, 990'000u, 999'999u, 1'000'000u}) {
        INFO("ppm " << ppm);
        CHECK(h.percentile_ns(ppm) == 123'456'789.0);
    }
}

TEST_CASE("log_linear_histogram: equal samples give that value at every percentile") {
    // 20,000 ns is the low edge of the bucket [20,000, 20,015] (width 16 in
    // [2^14, 2^15)); clamped to the maximum, every percentile is 20,000.
    log_linear_histogram h;
    for (int i = 0; i < 1000; ++i) {
        h.record(20'000);
    }
    for (std::uint32_t ppm : {1u, 500'000u, 900'000u, 990'000u, 999'000u, 999'900u, 1'000'000u}) {
        INFO("ppm " << ppm);
        CHECK(h.percentile_ns(ppm) == 20'000.0);
    }
}

TEST_CASE("log_linear_histogram: a percentile is the highest value of its bucket") {
    // 2048 and 2049 share the bucket [2048, 2049] (width 2 in [2^11, 2^12)),
    // 2050 starts the next one, [2050, 2051].
    log_linear_histogram alone;
    alone.record(2048);
    CHECK(alone.percentile_ns(500'000) == 2048.0);  // 2049 clamped to the max 2048

    log_linear_histogram h;
    for (std::uint64_t v : {2048ull, 2049ull, 2050ull}) {
        h.record(v);
    }
    // p33: rank ceil(3 * 0.33) = 1, the true value 2048, reported as 2049:
    // an upper bound, one bucket width minus 1 above.
    CHECK(h.percentile_ns(330'000) == 2049.0);
    // p50: rank 2, 2049, exact. p100: rank 3, the maximum 2050 (2051 clamped).
    CHECK(h.percentile_ns(500'000) == 2049.0);
    CHECK(h.percentile_ns(1'000'000) == 2050.0);
}

TEST_CASE("log_linear_histogram: percentiles never leave [min, max]") {
    // 3001 ns is the top of the bucket [3000, 3001]: its highest equivalent
    // value is the sample itself (the bucket's middle, 3000.5, is below the
    // minimum). 1,000,000 ns lies in [999,936, 1,000,447] (width 512 in
    // [2^19, 2^20)): 1,000,447 is clamped to the maximum 1,000,001.
    log_linear_histogram h;
    h.record(3001);
    h.record(1'000'000);
    h.record(1'000'001);
    CHECK(h.percentile_ns(1) == 3001.0);
    CHECK(h.percentile_ns(333'333) == 3001.0);
    CHECK(h.percentile_ns(500'000) == 1'000'001.0);
    CHECK(h.percentile_ns(1'000'000) == 1'000'001.0);
    for (std::uint32_t ppm = 1; ppm <= 1'000'000; ppm += 9973) {
        INFO("ppm " << ppm);
        CHECK(h.percentile_ns(ppm) >= 3001.0);
        CHECK(h.percentile_ns(ppm) <= 1'000'001.0);
    }
}

TEST_CASE("log_linear_histogram: nearest rank is computed exactly") {
    // 1000 values 1..1000: p99.9 is rank ceil(999.0) = 999, not 1000.
    log_linear_histogram h;
    for (std::uint64_t v = 1; v <= 1000; ++v) {
        h.record(v);
    }
    CHECK(h.percentile_ns(999'000) == 999.0);
    CHECK(h.percentile_ns(999'900) == 1000.0);
}

TEST_CASE("log_linear_histogram: every bucket is narrower than 1/1024 of its value") {
    for (std::uint64_t v :
         {2047ull, 2048ull, 2049ull, 4095ull, 4096ull, 123456789ull, (1ull << 43) + 12345}) {
        const auto index = log_linear_histogram::bucket_index(v);
        const auto low = log_linear_histogram::bucket_low(index);
        const auto width = log_linear_histogram::bucket_width(index);
        INFO("value " << v);
        CHECK(low <= v);
        CHECK(v < low + width);
        CHECK(static_cast<double>(width) <= std::max(1.0, static_cast<double>(low) / 1024.0));
    }
}

TEST_CASE("log_linear_histogram: percentiles bound the sorted reference from above within 1/1024") {
    std::mt19937_64 rng(20261122);
    // Round trips of 5 us to 50 ms, log-normal-ish with a long tail.
    std::lognormal_distribution<double> rtt(std::log(20'000.0), 1.0);
    std::vector<std::uint64_t> values;
    log_linear_histogram h;
    for (int i = 0; i < 200'000; ++i) {
        const auto v = static_cast<std::uint64_t>(std::clamp(rtt(rng), 5'000.0, 5e7));
        values.push_back(v);
        h.record(v);
    }
    std::sort(values.begin(), values.end());
    for (std::uint32_t ppm :
         {1u, 100'000u, 500'000u, 900'000u, 990'000u, 999'000u, 999'900u, 1'000'000u}) {
        const double expected = static_cast<double>(reference_percentile(values, ppm));
        const double reported = h.percentile_ns(ppm);
        INFO("ppm " << ppm << ": reported " << reported << ", nearest rank " << expected);
        CHECK(reported >= expected);
        CHECK(reported - expected < expected / 1024.0);
        CHECK(reported <= static_cast<double>(values.back()));
    }
    CHECK(h.percentile_ns(1'000'000) == static_cast<double>(values.back()));
    CHECK(h.min_ns() == values.front());
    CHECK(h.max_ns() == values.back());
}

TEST_CASE("log_linear_histogram: enormous values saturate without losing the exact max") {
    log_linear_histogram h;
    CHECK_FALSE(h.record(1ull << 50));
    CHECK(h.record(10));
    CHECK(h.beyond_range_count() == 1);
    CHECK(h.percentile_ns(1'000'000) == static_cast<double>(1ull << 50));
    CHECK(h.percentile_ns(500'000) == 10.0);
}

TEST_CASE("log_linear_histogram: values beyond the trackable range are counted apart") {
    // The highest trackable value is 2^44 - 1 ns; 2^44 and above share the
    // last bucket with [2^44 - 2^33, 2^44 - 1] and are counted as beyond.
    CHECK(log_linear_histogram::highest_trackable_ns() == (1ull << 44) - 1);
    log_linear_histogram h;
    CHECK(h.record(0));
    CHECK(h.record((1ull << 44) - 1));
    CHECK(h.beyond_range_count() == 0);
    CHECK_FALSE(h.record(1ull << 44));
    CHECK_FALSE(h.record(1ull << 60));
    CHECK(h.beyond_range_count() == 2);
    CHECK(h.count() == 4);
    CHECK(h.counts().back() == 3);
    // p50 is rank 2, 2^44 - 1, in the last bucket: with saturated values in
    // it, the only bound known is the maximum.
    CHECK(h.percentile_ns(500'000) == static_cast<double>(1ull << 60));

    // merge adds the counts; reset clears them.
    log_linear_histogram other;
    other.record(1ull << 45);
    other.record(1000);
    h.merge(other);
    CHECK(h.beyond_range_count() == 3);
    h.reset();
    CHECK(h.beyond_range_count() == 0);
    h.record(1ull << 44);
    CHECK(h.beyond_range_count() == 1);
}

TEST_CASE("log_linear_histogram: a full last bucket without saturation reports its samples") {
    // 2^44 - 2^33 and 2^44 - 1 are both trackable and both in the last
    // bucket: p50 (rank 1) is bounded by the maximum, 2^44 - 1.
    log_linear_histogram h;
    h.record((1ull << 44) - (1ull << 33));
    h.record((1ull << 44) - 1);
    CHECK(h.beyond_range_count() == 0);
    CHECK(h.percentile_ns(500'000) == static_cast<double>((1ull << 44) - 1));
}

TEST_CASE("latency_recorder: one sample feeds the summary, the bins and the percentiles") {
    // 1500 ns is 1.5 us, bin 1 of the 1 us bins over 0..4 us; the summary is
    // in us, the percentiles in ns (exact below 2048 ns). 2^44 ns (about 4.9
    // hours) is above the bins and beyond the percentiles' range; both count it.
    sctp_perf::latency_recorder recorder(sctp_perf::bin_layout{0.0, 4.0, 4, 1});
    recorder.record(std::chrono::nanoseconds(1500), 0);
    recorder.record(std::chrono::nanoseconds(1ll << 44), 1);
    CHECK(recorder.summary().count() == 2);
    CHECK(recorder.summary().min() == 1.5);
    CHECK(recorder.bins().bin(1) == 1);
    CHECK(recorder.bins().above() == 1);
    CHECK(recorder.percentiles().percentile_ns(500'000) == 1500.0);
    CHECK(recorder.percentiles().beyond_range_count() == 1);
    // A negative duration counts as 0.
    recorder.record(std::chrono::nanoseconds(-5), 2);
    CHECK(recorder.percentiles().min_ns() == 0);
    CHECK(recorder.bins().bin(0) == 1);
}

TEST_CASE("log_linear_histogram: bucket index matches the octave-by-octave definition") {
    // Octave 0 is 0..2047 one per bucket; octave k >= 1 is [2^(k+10), 2^(k+11))
    // in 1024 buckets of 2^k. So 2048 -> 2048, 4095 -> 2048 + 1023 = 3071,
    // 4096 -> 3072, and 2^44 - 1 is the last bucket, shared by all larger values.
    CHECK(log_linear_histogram::bucket_index(0) == 0);
    CHECK(log_linear_histogram::bucket_index(2047) == 2047);
    CHECK(log_linear_histogram::bucket_index(2048) == 2048);
    CHECK(log_linear_histogram::bucket_index(4095) == 3071);
    CHECK(log_linear_histogram::bucket_index(4096) == 3072);
    const auto last = log_linear_histogram().counts().size() - 1;
    CHECK(log_linear_histogram::bucket_index((1ull << 44) - 1) == last);
    CHECK(log_linear_histogram::bucket_index(1ull << 44) == last);
    CHECK(log_linear_histogram::bucket_index(UINT64_MAX) == last);
    // Every bucket's edges map back to it, and buckets tile the line.
    for (std::size_t i = 0; i < last; ++i) {
        const auto low = log_linear_histogram::bucket_low(i);
        const auto width = log_linear_histogram::bucket_width(i);
        INFO("index " << i);
        REQUIRE(log_linear_histogram::bucket_index(low) == i);
        REQUIRE(log_linear_histogram::bucket_index(low + width - 1) == i);
        REQUIRE(log_linear_histogram::bucket_low(i + 1) == low + width);
    }
}

TEST_CASE("log_linear_histogram: mean and standard deviation of hand-checked data") {
    // 2, 4, 4, 4, 5, 5, 7, 9: sum 40, mean 5; squared deviations
    // 9+1+1+1+0+0+4+16 = 32; sample variance 32 / 7.
    log_linear_histogram h;
    for (std::uint64_t v : {2, 4, 4, 4, 5, 5, 7, 9}) {
        h.record(v);
    }
    CHECK(h.mean_ns() == 5.0);
    CHECK(h.stddev_ns() == std::sqrt(32.0 / 7.0));

    // A mean that is not a whole number: 1 and 2 have mean 1.5, squared
    // deviations 0.25 + 0.25 = 0.5, sample variance 0.5 / 1.
    log_linear_histogram halves;
    halves.record(1);
    halves.record(2);
    CHECK(halves.mean_ns() == 1.5);
    CHECK(halves.stddev_ns() == std::sqrt(0.5));
}

TEST_CASE("log_linear_histogram: too few samples give a mean and deviation of 0") {
    log_linear_histogram h;
    CHECK(h.mean_ns() == 0.0);
    CHECK(h.stddev_ns() == 0.0);
    h.record(41);
    CHECK(h.mean_ns() == 41.0);
    CHECK(h.stddev_ns() == 0.0);
}

TEST_CASE("log_linear_histogram: deviation of a small spread around a large value is exact") {
    // 10^6 samples alternating 20 ms - 10 ns and 20 ms + 10 ns: every squared
    // deviation is 100, so the sample variance is 10^8 / (10^6 - 1). Summed in
    // doubles, sum(x^2) = 4e20 has a spacing of 65536 ns^2 between neighbours,
    // and sum(x^2) - sum(x)^2/n would be noise.
    log_linear_histogram h;
    for (int i = 0; i < 500'000; ++i) {
        h.record(20'000'000 - 10);
        h.record(20'000'000 + 10);
    }
    CHECK(h.mean_ns() == 20'000'000.0);
    CHECK(h.stddev_ns() == Approx(std::sqrt(1e8 / 999'999.0)).epsilon(1e-12));
}

TEST_CASE("log_linear_histogram: deviation stays exact near the largest representable sums") {
    // 2^62 and 2^62 + 2: mean 2^62 + 1, squared deviations 1 + 1, sample
    // variance 2 / 1. Their squares need 125 bits; no digit may be lost.
    log_linear_histogram h;
    h.record(1ull << 62);
    h.record((1ull << 62) + 2);
    CHECK(h.stddev_ns() == std::sqrt(2.0));
}

TEST_CASE("log_linear_histogram: mean and deviation agree with a two-pass reference") {
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> rtt(std::log(20'000.0), 1.0);
    std::vector<std::uint64_t> values;
    log_linear_histogram h;
    for (int i = 0; i < 100'000; ++i) {
        const auto v = static_cast<std::uint64_t>(rtt(rng));
        values.push_back(v);
        h.record(v);
    }
    long double sum = 0;
    for (const auto v : values) {
        sum += static_cast<long double>(v);
    }
    const long double mean = sum / values.size();
    long double squared_deviations = 0;
    for (const auto v : values) {
        squared_deviations += (v - mean) * (v - mean);
    }
    const double stddev = static_cast<double>(std::sqrt(squared_deviations / (values.size() - 1)));
    CHECK(h.mean_ns() == Approx(static_cast<double>(mean)).epsilon(1e-12));
    CHECK(h.stddev_ns() == Approx(stddev).epsilon(1e-12));
}

TEST_CASE("log_linear_histogram: merge equals recording everything in one histogram") {
    // 1..1000 split by parity into two histograms, and all of it into a third.
    log_linear_histogram odd;
    log_linear_histogram even;
    log_linear_histogram all;
    for (std::uint64_t v = 1; v <= 1000; ++v) {
        (v % 2 ? odd : even).record(v * 1000);
        all.record(v * 1000);
    }
    odd.merge(even);
    CHECK(odd.count() == 1000);
    CHECK(odd.min_ns() == 1000);
    CHECK(odd.max_ns() == 1'000'000);
    CHECK(odd.mean_ns() == all.mean_ns());
    CHECK(odd.stddev_ns() == all.stddev_ns());
    CHECK(std::equal(odd.counts().begin(), odd.counts().end(), all.counts().begin()));
    for (std::uint32_t ppm : {1u, 500'000u, 990'000u, 1'000'000u}) {
        CHECK(odd.percentile_ns(ppm) == all.percentile_ns(ppm));
    }

    // An empty histogram changes nothing, in either direction.
    log_linear_histogram empty;
    odd.merge(empty);
    CHECK(odd.count() == 1000);
    CHECK(odd.min_ns() == 1000);
    empty.merge(all);
    CHECK(empty.count() == 1000);
    CHECK(empty.min_ns() == 1000);
    CHECK(empty.max_ns() == 1'000'000);
    CHECK(empty.stddev_ns() == all.stddev_ns());
}

TEST_CASE("log_linear_histogram: reset forgets every sample") {
    log_linear_histogram h;
    for (std::uint64_t v : {5ull, 50'000ull, 1ull << 50}) {
        h.record(v);
    }
    h.reset();
    CHECK(h.count() == 0);
    CHECK(h.beyond_range_count() == 0);
    CHECK(h.min_ns() == UINT64_MAX);
    CHECK(h.max_ns() == 0);
    CHECK(h.mean_ns() == 0.0);
    CHECK(h.stddev_ns() == 0.0);
    CHECK(std::all_of(h.counts().begin(), h.counts().end(), [](auto c) { return c == 0; }));
    // Recording afterwards starts from nothing: 3 and 5 have mean 4,
    // squared deviations 1 + 1, sample variance 2.
    h.record(3);
    h.record(5);
    CHECK(h.count() == 2);
    CHECK(h.mean_ns() == 4.0);
    CHECK(h.stddev_ns() == std::sqrt(2.0));
    CHECK(h.percentile_ns(1'000'000) == 5.0);
}
