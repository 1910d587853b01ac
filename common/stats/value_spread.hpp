// SPDX-License-Identifier: Apache-2.0
#pragma once
// How one figure spreads over many of its kind: the per-flow p50s of a load
// run, say, where a table of 10,000 flows would say nothing at a glance.
//
// Pure functions over doubles: no I/O, no unit (the caller's values keep
// theirs). NaN is not a legal value.

#include <cstddef>
#include <span>
#include <vector>

namespace sctp_perf {

// The smallest, the median and the largest of some values. The median is the
// value of rank ceil(n / 2) in increasing order, one of the values
// themselves, never a mean of two: a median flow is a flow.
struct value_spread {
    double min = 0.0;
    double median = 0.0;
    double max = 0.0;
};

// The spread of `values`, which must not be empty (their order does not
// matter). Of {3, 1, 5, 2}: min 1, median 2 (rank ceil(4 / 2) = 2 of 1, 2,
// 3, 5), max 5.
value_spread spread_of(std::span<const double> values);

// The positions in `values` of the `count` largest (all of them when there
// are fewer), largest first; equal values in the order of their positions.
// Of {3, 1, 5, 2} and a count of 2: {2, 0}.
std::vector<std::size_t> largest_first(std::span<const double> values, std::size_t count);

}  // namespace sctp_perf
