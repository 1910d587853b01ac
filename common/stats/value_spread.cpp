// SPDX-License-Identifier: Apache-2.0
#include "stats/value_spread.hpp"

#include <algorithm>
#include <numeric>

namespace sctp_perf {

value_spread spread_of(std::span<const double> values) {
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    return {sorted.front(), sorted[(sorted.size() + 1) / 2 - 1], sorted.back()};
}

std::vector<std::size_t> largest_first(std::span<const double> values, std::size_t count) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto shown = std::min(count, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown),
                      order.end(), [&](std::size_t a, std::size_t b) {
                          return values[a] != values[b] ? values[a] > values[b] : a < b;
                      });
    order.resize(shown);
    return order;
}

}  // namespace sctp_perf
