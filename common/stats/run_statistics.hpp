// SPDX-License-Identifier: Apache-2.0
#pragma once
// Statistics over runs. One run of a benchmark gives one value of each
// percentile (its p50, its p99, ...); the same benchmark run again gives
// another, and on a real machine the two differ by far more than the
// histogram's resolution (a p50 moves by a quarter between runs on one
// loopback). So a claim about a configuration rests on several runs, and
// these functions say what the runs support.
//
// Concepts, defined here once:
//   run value   one figure of one run, e.g. that run's p99 in microseconds.
//   sample      the run values of one percentile over a set of runs, in no
//               particular order. Nothing is assumed of their distribution.
//   coverage    the probability, before the runs are made, that an interval
//               computed from them holds the true value; 0.95 is "95 %".
//
// Pure functions over spans of doubles: no I/O, no global state. Each copies
// what it sorts; the caller's values are never reordered. NaN and infinity
// are not legal run values.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sctp_perf {

// The median of `values`: the middle value of an odd count, the mean of the
// two middle values of an even count. NaN when `values` is empty.
double median(std::span<const double> values);

// The value at `fraction` (0..1) of sorted `sorted_values`, interpolated
// linearly between the two nearest ranks (Hyndman and Fan's type 7, what R's
// quantile() and numpy's percentile() give by default). `sorted_values` must
// be sorted ascending and not empty.
double interpolated_quantile(std::span<const double> sorted_values, double fraction);

// An interval between two order statistics of a sample.
struct median_interval {
    double low = 0.0;           // the low_rank-th smallest value
    double high = 0.0;          // the high_rank-th smallest value
    std::size_t low_rank = 0;   // 1-based; 0 when the sample is empty
    std::size_t high_rank = 0;  // n + 1 - low_rank
    double coverage = 0.0;      // 0..1, exact for any continuous distribution
};

// The probability that [x(k), x(n+1-k)], the k-th smallest and k-th largest
// of n values drawn independently from one continuous distribution, holds
// that distribution's median: 1 - 2 P(Binomial(n, 1/2) <= k - 1). The median
// lies outside only when k or more values fall on one side of it, and each
// value falls below it with probability 1/2 whatever the distribution.
// 0 unless 1 <= k <= n / 2 (k = (n+1)/2 of an odd n is the sample median
// alone, which holds the true median with probability 0).
double order_statistic_coverage(std::size_t n, std::size_t k);

// The distribution-free confidence interval for the median of the
// distribution the runs were drawn from: [x(k), x(n+1-k)] with the largest k
// whose coverage reaches `confidence` (0 < confidence < 1), so the narrowest
// such interval. No assumption of normality: the runs need only be
// independent and continuous. When no k reaches it, the widest interval,
// [min, max], with the coverage it has (for 95 %: 4 runs give 87.5 %, 5 runs
// 93.75 %, 6 runs 96.9 %); a caller should state that coverage. One value
// gives [x, x] with coverage 0; no value gives ranks 0 and NaN bounds.
median_interval median_confidence_interval(std::span<const double> values, double confidence);

// One figure over a set of runs, as a report states it: the median of the
// run values, the interval for that median (median_confidence_interval, at
// `confidence`) and the spread, the smallest and largest run value. Empty
// `values` give runs 0 and NaN everywhere.
struct figure_over_runs {
    std::size_t runs = 0;
    double median = 0.0;
    median_interval interval;
    double min = 0.0;
    double max = 0.0;
};
figure_over_runs summarize_over_runs(std::span<const double> values, double confidence);

// The probability that [r(k), r(m n + 1 - k)], the k-th smallest and k-th
// largest of the m n ratios b / a of every pair of a value of a sample of m
// (a) and one of a sample of n (b), holds the factor by which b's
// distribution is a's scaled (b drawn as factor times a draw of a's
// distribution, both continuous): 1 - 2 P(U <= k - 1), U being
// Mann-Whitney's statistic of two samples of one distribution. The factor
// lies below r(k) only when fewer than k ratios are below it, that is when
// fewer than k pairs have b / factor < a; b / factor and a are draws of one
// distribution, so that count is U under no difference. k = 1 is the widest
// such interval, [min(b) / max(a), max(b) / min(a)]. 0 unless
// 1 <= k <= m n / 2.
double ratio_order_statistic_coverage(std::size_t m, std::size_t n, std::size_t k);

// The fewest values a sample (of two of equal size) needs before a
// distribution-free interval for the ratio of two scaled distributions can be
// narrower than the widest one and still reach `confidence` (0 < confidence
// < 1): the least n with ratio_order_statistic_coverage(n, n, 2) >=
// confidence. 5 for 95 %: with 4 a side only [min(b) / max(a), max(b) /
// min(a)] reaches it (97.1 %; the next, 94.3 %). A percentile bootstrap of the
// ratio of medians cuts its 2.5 % tails inside that widest interval from 4
// values a side on, so below this count it claims more than the values can
// support.
std::size_t least_runs_per_side(double confidence);

// How a bootstrap is drawn. The seed makes the interval reproducible: the
// same values and settings give the same interval on every machine, as the
// generator (std::mt19937_64) and the way indices are drawn from it are fixed
// here, not left to the standard library's distributions.
struct bootstrap_settings {
    double confidence = 0.95;        // 0 < confidence < 1
    std::size_t resamples = 10'000;  // at least 1; 10,000 puts the 2.5 % points within ~0.3 %
    std::uint64_t seed = 0x5c7b'0e4f'2d13'a6c9;
};

// A ratio and the interval around it.
struct ratio_interval {
    double ratio = 0.0;  // median(b) / median(a)
    double low = 0.0;
    double high = 0.0;
};

// The ratio of the medians, median(b) / median(a), with a percentile
// bootstrap interval: each resample draws len(a) values of `a` with
// replacement and len(b) values of `b` with replacement, and takes the ratio
// of their medians; the interval runs between the (1 - confidence) / 2 and
// (1 + confidence) / 2 quantiles of those ratios (interpolated_quantile).
// Resampling within each side keeps the two sides' run counts and lets each
// side's spread count separately. Every value must be positive (latencies
// are); `a` and `b` must not be empty.
ratio_interval bootstrap_median_ratio(std::span<const double> a, std::span<const double> b,
                                      const bootstrap_settings& settings = {});

// How a Mann-Whitney U test computed its p-value.
enum class u_test_method {
    exact,   // the exact null distribution of U: no ties, both samples under 50
    normal,  // the normal approximation with tie and continuity corrections
};

struct u_test_result {
    double u_a = 0.0;      // pairs (x from a, y from b) with x > y, plus half of those with x == y
    double u_b = 0.0;      // the same from b's side: len(a) * len(b) - u_a
    double p_value = 1.0;  // two-sided, 0..1
    u_test_method method = u_test_method::exact;
};

// The two-sided Mann-Whitney U (Wilcoxon rank-sum) test of whether values of
// `a` and of `b` tend to be larger than each other, from the run values
// alone, with no assumption of their distribution. Exact, from the
// distribution of U over all equally likely arrangements, when there are no
// ties and each sample has fewer than 50 values (as R's wilcox.test);
// otherwise the normal approximation, its variance corrected for ties and
// |U - mean| reduced by 1/2 for continuity. An empty sample gives p = 1.
u_test_result mann_whitney_u(std::span<const double> a, std::span<const double> b);

// The exact null distribution of U for samples of m and n values without
// ties: element u is P(U = u), u = 0 .. m * n. Its sum is 1.
std::vector<double> mann_whitney_distribution(std::size_t m, std::size_t n);

}  // namespace sctp_perf
