#include "stats/log_linear_histogram.hpp"

#include <algorithm>
#include <bit>

namespace sctp_perf {
namespace {

constexpr unsigned sub_bucket_bits = 10;  // 1024 buckets per octave
constexpr std::uint64_t sub_bucket_count = 1u << sub_bucket_bits;
constexpr std::uint64_t exact_limit = 2 * sub_bucket_count;  // below this, one bucket per ns
constexpr unsigned highest_bit = 44;  // values >= 2^44 ns share the top bucket
constexpr std::size_t bucket_total =
    exact_limit + (highest_bit - (sub_bucket_bits + 1)) * sub_bucket_count;

}  // namespace

log_linear_histogram::log_linear_histogram() : buckets_(bucket_total, 0) {}

std::size_t log_linear_histogram::bucket_index(std::uint64_t value_ns) noexcept {
    if (value_ns < exact_limit) {
        return static_cast<std::size_t>(value_ns);
    }
    const unsigned top_bit = static_cast<unsigned>(std::bit_width(value_ns)) - 1;  // >= 11
    if (top_bit >= highest_bit) {
        return bucket_total - 1;
    }
    const unsigned shift = top_bit - sub_bucket_bits;                  // >= 1
    const std::uint64_t sub = (value_ns >> shift) - sub_bucket_count;  // 0..1023
    return static_cast<std::size_t>(exact_limit + (shift - 1) * sub_bucket_count + sub);
}

std::uint64_t log_linear_histogram::bucket_low(std::size_t index) noexcept {
    if (index < exact_limit) {
        return index;
    }
    const std::uint64_t above = index - exact_limit;
    const unsigned shift = static_cast<unsigned>(above / sub_bucket_count) + 1;
    const std::uint64_t sub = above % sub_bucket_count + sub_bucket_count;
    return sub << shift;
}

std::uint64_t log_linear_histogram::bucket_width(std::size_t index) noexcept {
    if (index < exact_limit) {
        return 1;
    }
    return std::uint64_t{1} << ((index - exact_limit) / sub_bucket_count + 1);
}

void log_linear_histogram::record(std::uint64_t value_ns) noexcept {
    ++buckets_[bucket_index(value_ns)];
    ++count_;
    min_ns_ = std::min(min_ns_, value_ns);
    max_ns_ = std::max(max_ns_, value_ns);
}

double log_linear_histogram::percentile_ns(std::uint32_t parts_per_million) const noexcept {
    // rank = ceil(count * ppm / 10^6) in integers, so that p99.9 of 1000
    // samples is exactly rank 999, not 1000 through a rounding accident. Split
    // count = whole * 10^6 + rest so that no product overflows.
    constexpr std::uint64_t million = 1'000'000;
    const std::uint64_t whole = count_ / million;
    const std::uint64_t rest = count_ % million;
    const std::uint64_t rank = std::max<std::uint64_t>(
        1, whole * parts_per_million + (rest * parts_per_million + million - 1) / million);
    if (rank >= count_) {
        return static_cast<double>(max_ns_);  // the largest sample is known exactly
    }
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
        seen += buckets_[i];
        if (seen >= rank) {
            if (i == buckets_.size() - 1) {
                return static_cast<double>(max_ns_);  // saturated: no finer knowledge
            }
            const double middle =
                static_cast<double>(bucket_low(i)) + static_cast<double>(bucket_width(i) - 1) / 2.0;
            return std::clamp(middle, static_cast<double>(min_ns_), static_cast<double>(max_ns_));
        }
    }
    return static_cast<double>(max_ns_);
}

}  // namespace sctp_perf
