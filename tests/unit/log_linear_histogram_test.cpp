#include "stats/log_linear_histogram.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
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
