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

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

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

namespace detail {

// GCC's and Clang's 128-bit integer, wide enough for 19 digits times 2^30.
__extension__ typedef unsigned __int128 uint128;

// The multiplier a suffix stands for, as 10^decimal_exponent * 2^binary_exponent.
struct suffix_scale {
    int decimal_exponent = 0;
    int binary_exponent = 0;
};

inline std::optional<suffix_scale> read_suffix(std::string_view suffix, bool binary_allowed) {
    if (suffix.empty()) {
        return suffix_scale{};
    }
    if (suffix == "k" || suffix == "K") {
        return suffix_scale{3, 0};
    }
    if (suffix == "M") {
        return suffix_scale{6, 0};
    }
    if (suffix == "G") {
        return suffix_scale{9, 0};
    }
    if (binary_allowed) {
        if (suffix == "Ki") {
            return suffix_scale{0, 10};
        }
        if (suffix == "Mi") {
            return suffix_scale{0, 20};
        }
        if (suffix == "Gi") {
            return suffix_scale{0, 30};
        }
    }
    return std::nullopt;
}

inline bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

}  // namespace detail

// Reads a count or size in the forms described at the top of this file.
inline number_reading<long long> read_count(std::string_view text) {
    using detail::is_digit;
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        negative = text[i] == '-';
        ++i;
    }
    // Mantissa: digits, optionally a point and more digits; at least one digit.
    std::string digits;  // every mantissa digit, the point removed
    int fraction_digits = 0;
    bool any_digit = false;
    for (; i < text.size() && is_digit(text[i]); ++i) {
        digits += text[i];
        any_digit = true;
    }
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && is_digit(text[i]); ++i) {
            digits += text[i];
            ++fraction_digits;
            any_digit = true;
        }
    }
    if (!any_digit) {
        return {std::nullopt, number_problem::unreadable};
    }
    // Either an exponent or a suffix, not both ("1e3k" is more likely a typo
    // than a billion).
    long long exponent = 0;
    detail::suffix_scale scale;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool exponent_negative = false;
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
            exponent_negative = text[i] == '-';
            ++i;
        }
        if (i == text.size()) {
            return {std::nullopt, number_problem::unreadable};
        }
        for (; i < text.size(); ++i) {
            if (!is_digit(text[i])) {
                return {std::nullopt, number_problem::unreadable};
            }
            exponent = std::min<long long>(exponent * 10 + (text[i] - '0'), 1'000'000);
        }
        if (exponent_negative) {
            exponent = -exponent;
        }
    } else if (const auto suffix = detail::read_suffix(text.substr(i), true)) {
        scale = *suffix;
    } else {
        return {std::nullopt, number_problem::unreadable};
    }

    // Exact arithmetic: value = digits * 10^(exponent - fraction_digits) * 2^binary.
    const auto first_significant = digits.find_first_not_of('0');
    if (first_significant == std::string::npos) {
        return {0LL, number_problem::none};  // zero in any form, "-0" included
    }
    if (negative) {
        return {std::nullopt, number_problem::negative};
    }
    // Trailing zeros of the mantissa move into the exponent, so "1.50k" and
    // "1500.000" stay small.
    digits.erase(0, first_significant);
    long long decimal_exponent = exponent + scale.decimal_exponent - fraction_digits;
    while (digits.size() > 1 && digits.back() == '0') {
        digits.pop_back();
        ++decimal_exponent;
    }
    if (digits.size() > 19) {
        // More than 19 significant digits: beyond 2^63 - 1 when whole, and a
        // fraction otherwise (the last digit cannot be cancelled by 2^30).
        return {std::nullopt, decimal_exponent < 0 && scale.binary_exponent == 0
                                  ? number_problem::fraction
                                  : number_problem::too_large};
    }
    detail::uint128 value = 0;
    for (const char c : digits) {
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    value <<= scale.binary_exponent;  // at most 10^19 * 2^30, well within 128 bits
    constexpr auto limit = static_cast<detail::uint128>(std::numeric_limits<long long>::max());
    for (; decimal_exponent < 0; ++decimal_exponent) {
        if (value % 10 != 0) {
            return {std::nullopt, number_problem::fraction};
        }
        value /= 10;
    }
    for (; decimal_exponent > 0; --decimal_exponent) {
        value *= 10;
        if (value > limit) {
            return {std::nullopt, number_problem::too_large};
        }
    }
    if (value > limit) {
        return {std::nullopt, number_problem::too_large};
    }
    return {static_cast<long long>(value), number_problem::none};
}

// Reads a real number: a decimal with an optional exponent (10, 0.5, 1e-3,
// -2); with `decimal_suffixes`, also 100k, 2.5M or 1G. Infinity, NaN and hex
// are unreadable.
inline number_reading<double> read_real(std::string_view text, bool decimal_suffixes = false) {
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
    }
    double value = 0.0;
    const auto [end, error] =
        std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
    if (error == std::errc::result_out_of_range) {
        return {std::nullopt, number_problem::too_large};
    }
    if (error != std::errc{} || !std::isfinite(value)) {
        return {std::nullopt, number_problem::unreadable};
    }
    const std::string_view rest(end, text.data() + text.size() - end);
    if (!rest.empty()) {
        const auto scale = decimal_suffixes ? detail::read_suffix(rest, false) : std::nullopt;
        if (!scale) {
            return {std::nullopt, number_problem::unreadable};
        }
        value *= std::pow(10.0, scale->decimal_exponent);
    }
    return {value, number_problem::none};
}

}  // namespace sctp_perf
