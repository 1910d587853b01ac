#include "stats/log_linear_histogram.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

using sctp_perf::log_linear_histogram;

namespace {

// Nearest-rank percentile of a sorted sample: the value at rank ceil(n*q).
std::uint64_t reference_percentile(const std::vector<std::uint64_t>& sorted, std::uint32_t ppm) {
    const std::uint64_t n = sorted.size();
    std::uint64_t rank = (n * ppm + 999'999) / 1'000'000;
    rank = std::max<std::uint64_t>(rank, 1);
    return sorted[rank - 1];
}

}  // namespace

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

TEST_CASE("log_linear_histogram: percentiles within 0.1 % of a sorted reference") {
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
        INFO("ppm " << ppm);
        CHECK(std::abs(h.percentile_ns(ppm) - expected) <= expected * 0.001);
    }
    CHECK(h.min_ns() == values.front());
    CHECK(h.max_ns() == values.back());
}

TEST_CASE("log_linear_histogram: enormous values saturate without losing the exact max") {
    log_linear_histogram h;
    h.record(1ull << 50);
    h.record(10);
    CHECK(h.percentile_ns(1'000'000) == static_cast<double>(1ull << 50));
    CHECK(h.percentile_ns(500'000) == 10.0);
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
