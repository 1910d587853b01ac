// SPDX-License-Identifier: Apache-2.0
#pragma once
// The percentile every histogram is checked against: computed from the whole
// sorted sample, with no buckets.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sctp_perf::testing {

// Nearest-rank percentile of a sorted sample: the value at rank ceil(n*q),
// q given in parts per million.
inline std::uint64_t reference_percentile(const std::vector<std::uint64_t>& sorted,
                                          std::uint32_t ppm) {
    const std::uint64_t n = sorted.size();
    const std::uint64_t rank = std::max<std::uint64_t>((n * ppm + 999'999) / 1'000'000, 1);
    return sorted[rank - 1];
}

}  // namespace sctp_perf::testing
