// SPDX-License-Identifier: Apache-2.0
#include "stats/run_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace sctp_perf {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// The median of `values`, which it reorders; not empty.
double median_in_place(std::vector<double>& values) {
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (values.size() % 2 == 1) {
        return *middle;
    }
    // nth_element leaves the lower half below `middle`: its largest is the
    // other middle value.
    return (*std::max_element(values.begin(), middle) + *middle) / 2.0;
}

// log P(Binomial(n, 1/2) = i), through lgamma so that no term underflows:
// 2^-n alone is 0 in a double past n = 1074.
double log_binomial_half(std::size_t n, std::size_t i) {
    const auto dn = static_cast<double>(n);
    const auto di = static_cast<double>(i);
    return std::lgamma(dn + 1.0) - std::lgamma(di + 1.0) - std::lgamma(dn - di + 1.0) -
           dn * std::log(2.0);
}

// A uniform index in [0, n), n >= 1, from one or more draws of `generator`.
// Draws below 2^64 mod n are rejected so that every index is equally likely;
// std::uniform_int_distribution would do the same, but each standard library
// its own way, and the interval must be the same everywhere.
std::size_t uniform_index(std::mt19937_64& generator, std::size_t n) {
    const std::uint64_t bound = n;
    const std::uint64_t rejected_below = (0 - bound) % bound;
    std::uint64_t draw = generator();
    while (draw < rejected_below) {
        draw = generator();
    }
    return static_cast<std::size_t>(draw % bound);
}

void resample(std::span<const double> values, std::mt19937_64& generator,
              std::vector<double>& into) {
    into.resize(values.size());
    for (auto& value : into) {
        value = values[uniform_index(generator, values.size())];
    }
}

}  // namespace

double median(std::span<const double> values) {
    if (values.empty()) {
        return not_a_number;
    }
    std::vector<double> copy(values.begin(), values.end());
    return median_in_place(copy);
}

double interpolated_quantile(std::span<const double> sorted_values, double fraction) {
    const double position =
        std::clamp(fraction, 0.0, 1.0) * static_cast<double>(sorted_values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const auto above = std::min(below + 1, sorted_values.size() - 1);
    const double weight = position - static_cast<double>(below);
    return sorted_values[below] + weight * (sorted_values[above] - sorted_values[below]);
}

double order_statistic_coverage(std::size_t n, std::size_t k) {
    if (k < 1 || k > n / 2) {
        return 0.0;
    }
    double tail = 0.0;  // P(Binomial(n, 1/2) <= k - 1)
    for (std::size_t i = 0; i < k; ++i) {
        tail += std::exp(log_binomial_half(n, i));
    }
    return std::max(0.0, 1.0 - 2.0 * tail);
}

median_interval median_confidence_interval(std::span<const double> values, double confidence) {
    const std::size_t n = values.size();
    if (n == 0) {
        return {not_a_number, not_a_number, 0, 0, 0.0};
    }
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    if (n == 1) {
        return {sorted[0], sorted[0], 1, 1, 0.0};
    }
    // Coverage falls as k grows: keep the last k that still reaches it.
    std::size_t k = 1;
    while (k + 1 <= n / 2 && order_statistic_coverage(n, k + 1) >= confidence) {
        ++k;
    }
    return {sorted[k - 1], sorted[n - k], k, n + 1 - k, order_statistic_coverage(n, k)};
}

figure_over_runs summarize_over_runs(std::span<const double> values, double confidence) {
    if (values.empty()) {
        return {0, not_a_number, median_confidence_interval(values, confidence), not_a_number,
                not_a_number};
    }
    const auto [min, max] = std::minmax_element(values.begin(), values.end());
    return {values.size(), median(values), median_confidence_interval(values, confidence), *min,
            *max};
}

ratio_interval bootstrap_median_ratio(std::span<const double> a, std::span<const double> b,
                                      const bootstrap_settings& settings) {
    if (a.empty() || b.empty()) {
        return {not_a_number, not_a_number, not_a_number};
    }
    std::mt19937_64 generator(settings.seed);
    const std::size_t resamples = std::max<std::size_t>(settings.resamples, 1);
    std::vector<double> ratios;
    ratios.reserve(resamples);
    std::vector<double> a_draw;
    std::vector<double> b_draw;
    for (std::size_t i = 0; i < resamples; ++i) {
        resample(a, generator, a_draw);
        resample(b, generator, b_draw);
        ratios.push_back(median_in_place(b_draw) / median_in_place(a_draw));
    }
    std::sort(ratios.begin(), ratios.end());
    const double outside = (1.0 - settings.confidence) / 2.0;
    return {median(b) / median(a), interpolated_quantile(ratios, outside),
            interpolated_quantile(ratios, 1.0 - outside)};
}

double ratio_order_statistic_coverage(std::size_t m, std::size_t n, std::size_t k) {
    if (k < 1 || 2 * k > m * n) {
        return 0.0;
    }
    const auto distribution = mann_whitney_distribution(m, n);
    double tail = 0.0;  // P(U <= k - 1)
    for (std::size_t u = 0; u < k; ++u) {
        tail += distribution[u];
    }
    return std::max(0.0, 1.0 - 2.0 * tail);
}

std::size_t least_runs_per_side(double confidence) {
    // Coverage with k = 2 is 1 - 4 / C(2n, n), which rises to 1 as n grows:
    // within a double of 1 by 30 values a side, so the bound only guards a
    // confidence of 1 or more. 2 is the least count with two pairs to spare.
    constexpr std::size_t largest = 64;
    for (std::size_t n = 2; n < largest; ++n) {
        if (ratio_order_statistic_coverage(n, n, 2) >= confidence) {
            return n;
        }
    }
    return largest;
}

std::vector<double> mann_whitney_distribution(std::size_t m, std::size_t n) {
    // p(i, j, u) = P(U = u) for i values of a and j of b. The largest of the
    // i + j values is a's with probability i / (i + j), and then it exceeds
    // all j of b's: p(i, j, u) = i/(i+j) p(i-1, j, u-j) + j/(i+j) p(i, j-1, u),
    // with p(0, j, 0) = p(i, 0, 0) = 1. Probabilities, not counts, so that
    // nothing overflows: C(98, 49) is about 2.5e28.
    std::vector<std::vector<double>> previous(n + 1, std::vector<double>{1.0});  // i = 0
    for (std::size_t i = 1; i <= m; ++i) {
        std::vector<std::vector<double>> current(n + 1);
        current[0] = {1.0};
        for (std::size_t j = 1; j <= n; ++j) {
            const double total = static_cast<double>(i + j);
            const double a_largest = static_cast<double>(i) / total;
            const double b_largest = static_cast<double>(j) / total;
            auto& row = current[j];
            row.assign(i * j + 1, 0.0);
            const auto& after_a = previous[j];     // (i - 1, j): u - j
            const auto& after_b = current[j - 1];  // (i, j - 1): u
            for (std::size_t u = 0; u < after_a.size(); ++u) {
                row[u + j] += a_largest * after_a[u];
            }
            for (std::size_t u = 0; u < after_b.size(); ++u) {
                row[u] += b_largest * after_b[u];
            }
        }
        previous = std::move(current);
    }
    return previous[n];
}

u_test_result mann_whitney_u(std::span<const double> a, std::span<const double> b) {
    u_test_result result;
    const std::size_t m = a.size();
    const std::size_t n = b.size();
    if (m == 0 || n == 0) {
        result.method = u_test_method::normal;
        return result;
    }
    for (const double x : a) {
        for (const double y : b) {
            result.u_a += x > y ? 1.0 : x == y ? 0.5 : 0.0;
        }
    }
    const double pairs = static_cast<double>(m) * static_cast<double>(n);
    result.u_b = pairs - result.u_a;

    std::vector<double> pooled(a.begin(), a.end());
    pooled.insert(pooled.end(), b.begin(), b.end());
    std::sort(pooled.begin(), pooled.end());
    double tie_term = 0.0;  // sum of t^3 - t over each group of t equal values
    for (std::size_t i = 0; i < pooled.size();) {
        std::size_t j = i + 1;
        while (j < pooled.size() && pooled[j] == pooled[i]) {
            ++j;
        }
        const auto t = static_cast<double>(j - i);
        tie_term += t * t * t - t;
        i = j;
    }

    if (tie_term == 0.0 && m < 50 && n < 50) {
        result.method = u_test_method::exact;
        const auto distribution = mann_whitney_distribution(m, n);
        // Without ties U is whole; the distribution is symmetric about m n / 2.
        const auto smaller = static_cast<std::size_t>(std::min(result.u_a, result.u_b));
        double lower_tail = 0.0;
        for (std::size_t u = 0; u <= smaller; ++u) {
            lower_tail += distribution[u];
        }
        result.p_value = std::min(1.0, 2.0 * lower_tail);
        return result;
    }

    result.method = u_test_method::normal;
    const double total = static_cast<double>(m + n);
    const double variance = pairs / 12.0 * ((total + 1.0) - tie_term / (total * (total - 1.0)));
    if (variance <= 0.0) {  // every value equal: nothing tells the sides apart
        result.p_value = 1.0;
        return result;
    }
    const double distance = std::max(0.0, std::abs(result.u_a - pairs / 2.0) - 0.5);
    result.p_value = std::min(1.0, std::erfc(distance / std::sqrt(variance) / std::sqrt(2.0)));
    return result;
}

}  // namespace sctp_perf
