// SPDX-License-Identifier: Apache-2.0
#pragma once
// How numbers on the command line may be written, and how they are read.
//
// A count or size is a whole number written as people type it:
//   100000   1e5   100k   1M   1.5k   64Ki   4Mi
// The suffixes are k or K = 10^3, M = 10^6, G = 10^9 (decimal, as in "1M
// round trips") and Ki = 2^10, Mi = 2^20, Gi = 2^30 (binary, as in "4Mi
// bytes"). A mantissa may have a fraction and an exponent may be given
// instead of a suffix, but the value must come out whole: 1.5k is 1500, while
// 2.5 or 1e-1 are errors, as are a negative number and one beyond 2^63 - 1.
// Nothing is ever rounded.
//
// A real number (seconds, microseconds, a rate) is a decimal such as 10, 0.5
// or 1e-3; a rate also takes the decimal suffixes (100k messages per second).
//
// Pure functions, no I/O: the options layer turns a problem into a sentence
// that names the option.

#include <optional>
#include <string_view>

namespace sctp_perf {

// Why a text is not a number of the kind asked for.
enum class number_problem {
    none,
    unreadable,  // not a number in any accepted form ("abc", "1e", "5kb", "")
    fraction,    // a count that is not whole ("2.5", "1e-1", "1.0001k")
    negative,    // a count below zero ("-5")
    too_large,   // a count beyond 2^63 - 1, or a real beyond double's range
};

// A number as read, or why it could not be.
template <typename T>
struct number_reading {
    std::optional<T> value;
    number_problem problem = number_problem::none;
};

// Reads a count or size in the forms described at the top of this file.
number_reading<long long> read_count(std::string_view text);

// Reads a real number: a decimal with an optional exponent (10, 0.5, 1e-3,
// -2); with `decimal_suffixes`, also 100k, 2.5M or 1G. Infinity, NaN and hex
// are unreadable.
number_reading<double> read_real(std::string_view text, bool decimal_suffixes = false);

}  // namespace sctp_perf
