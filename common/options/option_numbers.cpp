// SPDX-License-Identifier: Apache-2.0
#include "options/option_numbers.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <system_error>

namespace sctp_perf {

namespace {

// GCC's and Clang's 128-bit integer, wide enough for 19 digits times 2^30.
__extension__ typedef unsigned __int128 uint128;

// The multiplier a suffix stands for, as 10^decimal_exponent * 2^binary_exponent.
struct suffix_scale {
    int decimal_exponent = 0;
    int binary_exponent = 0;
};

std::optional<suffix_scale> read_suffix(std::string_view suffix, bool binary_allowed) {
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

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// A count's sign and mantissa: digits, optionally a point and more digits.
struct mantissa {
    bool negative = false;
    std::string digits;  // every mantissa digit, the point removed
    int fraction_digits = 0;
};

// Reads the sign and mantissa at the start of `text`, leaving `i` after
// them; nullopt without a digit.
std::optional<mantissa> read_mantissa(std::string_view text, std::size_t& i) {
    mantissa m;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        m.negative = text[i] == '-';
        ++i;
    }
    bool any_digit = false;
    for (; i < text.size() && is_digit(text[i]); ++i) {
        m.digits += text[i];
        any_digit = true;
    }
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && is_digit(text[i]); ++i) {
            m.digits += text[i];
            ++m.fraction_digits;
            any_digit = true;
        }
    }
    if (!any_digit) {
        return std::nullopt;
    }
    return m;
}

// What follows the mantissa: an exponent or a suffix, not both ("1e3k" is
// more likely a typo than a billion).
struct count_scale {
    long long exponent = 0;  // of 10, from "e"
    suffix_scale suffix;
};

// Reads the rest of `text` from `i`; nullopt when it is neither an exponent
// nor a suffix.
std::optional<count_scale> read_count_scale(std::string_view text, std::size_t i) {
    count_scale scale;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool exponent_negative = false;
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
            exponent_negative = text[i] == '-';
            ++i;
        }
        if (i == text.size()) {
            return std::nullopt;
        }
        for (; i < text.size(); ++i) {
            if (!is_digit(text[i])) {
                return std::nullopt;
            }
            scale.exponent = std::min<long long>(scale.exponent * 10 + (text[i] - '0'), 1'000'000);
        }
        if (exponent_negative) {
            scale.exponent = -scale.exponent;
        }
    } else if (const auto suffix = read_suffix(text.substr(i), true)) {
        scale.suffix = *suffix;
    } else {
        return std::nullopt;
    }
    return scale;
}

// Exact arithmetic: value = digits * 10^decimal_exponent * 2^binary_exponent,
// for at most 19 significant `digits` without leading zeros.
number_reading<long long> exact_count(const std::string& digits, long long decimal_exponent,
                                      int binary_exponent) {
    uint128 value = 0;
    for (const char c : digits) {
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    value <<= binary_exponent;  // at most 10^19 * 2^30, well within 128 bits
    constexpr auto limit = static_cast<uint128>(std::numeric_limits<long long>::max());
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

}  // namespace

number_reading<long long> read_count(std::string_view text) {
    std::size_t i = 0;
    auto m = read_mantissa(text, i);
    if (!m) {
        return {std::nullopt, number_problem::unreadable};
    }
    const auto scale = read_count_scale(text, i);
    if (!scale) {
        return {std::nullopt, number_problem::unreadable};
    }
    auto& digits = m->digits;
    const auto first_significant = digits.find_first_not_of('0');
    if (first_significant == std::string::npos) {
        return {0LL, number_problem::none};  // zero in any form, "-0" included
    }
    if (m->negative) {
        return {std::nullopt, number_problem::negative};
    }
    // Trailing zeros of the mantissa move into the exponent, so "1.50k" and
    // "1500.000" stay small.
    digits.erase(0, first_significant);
    long long decimal_exponent =
        scale->exponent + scale->suffix.decimal_exponent - m->fraction_digits;
    while (digits.size() > 1 && digits.back() == '0') {
        digits.pop_back();
        ++decimal_exponent;
    }
    if (digits.size() > 19) {
        // More than 19 significant digits: beyond 2^63 - 1 when whole, and a
        // fraction otherwise (the last digit cannot be cancelled by 2^30).
        return {std::nullopt, decimal_exponent < 0 && scale->suffix.binary_exponent == 0
                                  ? number_problem::fraction
                                  : number_problem::too_large};
    }
    return exact_count(digits, decimal_exponent, scale->suffix.binary_exponent);
}

number_reading<double> read_real(std::string_view text, bool decimal_suffixes) {
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
        const auto scale = decimal_suffixes ? read_suffix(rest, false) : std::nullopt;
        if (!scale) {
            return {std::nullopt, number_problem::unreadable};
        }
        value *= std::pow(10.0, scale->decimal_exponent);
    }
    return {value, number_problem::none};
}

}  // namespace sctp_perf
