#pragma once
// Percentiles of round-trip times in constant memory.
//
// A log-linear histogram over integer nanoseconds, in the manner of
// HdrHistogram: values below 2048 ns get one exact bucket each; above that,
// every power-of-two range [2^k, 2^(k+1)) is split into 1024 equal buckets, so
// a bucket is never wider than 1/1024 of its lower edge. A percentile is
// reported as the middle of its bucket (clamped to the exact minimum and
// maximum), hence its relative error is at most 1/2048 (about 0.05 %).
//
// Memory is fixed (about 300 KiB) whatever the number of samples. Values of
// 2^44 ns (about 4.9 hours) or more are counted in the last bucket, whose
// percentiles are reported as the exact maximum; the maximum itself (p100) is
// tracked separately and never approximated.

#include <cstdint>
#include <vector>

namespace sctp_perf {

class log_linear_histogram {
  public:
    log_linear_histogram();

    void record(std::uint64_t value_ns) noexcept;

    std::uint64_t count() const noexcept { return count_; }
    std::uint64_t min_ns() const noexcept { return min_ns_; }
    std::uint64_t max_ns() const noexcept { return max_ns_; }

    // The nearest-rank percentile: the smallest recorded value v such that at
    // least `parts_per_million` / 10^6 of all samples are <= v, approximated as
    // described above. Requires count() > 0 and parts_per_million in 1..10^6.
    double percentile_ns(std::uint32_t parts_per_million) const noexcept;

    // Bucket geometry, public for tests of the accuracy bound.
    static std::size_t bucket_index(std::uint64_t value_ns) noexcept;
    static std::uint64_t bucket_low(std::size_t index) noexcept;
    static std::uint64_t bucket_width(std::size_t index) noexcept;

  private:
    std::vector<std::uint64_t> buckets_;
    std::uint64_t count_ = 0;
    std::uint64_t min_ns_ = UINT64_MAX;
    std::uint64_t max_ns_ = 0;
};

}  // namespace sctp_perf
