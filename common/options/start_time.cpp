// SPDX-License-Identifier: Apache-2.0
#include "options/start_time.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace sctp_perf {
namespace {

using std::chrono::nanoseconds;
using std::chrono::seconds;

constexpr std::string_view forms =
    "an ISO 8601 time with a zone (2026-11-26T14:05:00Z, 2026-11-26T14:05:00.250+01:00) or "
    "Unix seconds (1795701900.5)";

bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

// The number in text[at, at + width), all digits; nullopt otherwise.
std::optional<int> digits_at(std::string_view text, std::size_t at, std::size_t width) {
    if (at + width > text.size()) {
        return std::nullopt;
    }
    int value = 0;
    for (std::size_t i = at; i < at + width; ++i) {
        if (!is_digit(text[i])) {
            return std::nullopt;
        }
        value = value * 10 + (text[i] - '0');
    }
    return value;
}

// ".250" -> 250 ms as nanoseconds: 1 to 9 digits after the point. `at` is
// moved past them. nullopt when no digit follows the point or more than 9 do.
std::optional<nanoseconds> fraction_at(std::string_view text, std::size_t& at) {
    const std::size_t first = at;
    std::int64_t ns = 0;
    while (at < text.size() && is_digit(text[at])) {
        if (at - first == 9) {
            return std::nullopt;
        }
        ns = ns * 10 + (text[at] - '0');
        ++at;
    }
    const std::size_t count = at - first;
    if (count == 0) {
        return std::nullopt;
    }
    for (std::size_t i = count; i < 9; ++i) {
        ns *= 10;
    }
    return nanoseconds(ns);
}

parsed_start_time refused(std::string_view text, std::string_view why = {}) {
    if (why.empty()) {
        return {std::nullopt, fmt::format("--start-at must be {}, not '{}'", forms, text)};
    }
    return {std::nullopt, fmt::format("--start-at '{}': {}", text, why)};
}

// "1795701900" or "1795701900.5": at most 11 digits of seconds (year 5138),
// so that nothing overflows.
parsed_start_time parse_unix_seconds(std::string_view text) {
    std::size_t at = 0;
    std::int64_t whole = 0;
    while (at < text.size() && is_digit(text[at])) {
        if (at == 11) {
            return refused(text, "too many digits for Unix seconds");
        }
        whole = whole * 10 + (text[at] - '0');
        ++at;
    }
    nanoseconds fraction{0};
    if (at < text.size()) {
        if (text[at] != '.') {
            return refused(text);
        }
        ++at;
        const auto parsed = fraction_at(text, at);
        if (!parsed || at != text.size()) {
            return refused(text, "a fraction of a second takes 1 to 9 digits after the point");
        }
        fraction = *parsed;
    }
    return {wall_time(std::chrono::duration_cast<wall_time::duration>(seconds(whole) + fraction)),
            {}};
}

// "Z", "+01:00" or "-05:30" at text[at..]: the zone's offset from UTC.
std::optional<seconds> zone_at(std::string_view text, std::size_t at) {
    if (at + 1 == text.size() && (text[at] == 'Z' || text[at] == 'z')) {
        return seconds(0);
    }
    if (at + 6 != text.size() || (text[at] != '+' && text[at] != '-') || text[at + 3] != ':') {
        return std::nullopt;
    }
    const auto hours = digits_at(text, at + 1, 2);
    const auto minutes = digits_at(text, at + 4, 2);
    if (!hours || !minutes || *hours > 23 || *minutes > 59) {
        return std::nullopt;
    }
    const seconds offset = std::chrono::hours(*hours) + std::chrono::minutes(*minutes);
    return text[at] == '-' ? -offset : offset;
}

// "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)".
parsed_start_time parse_iso(std::string_view text) {
    const auto year = digits_at(text, 0, 4);
    const auto month = digits_at(text, 5, 2);
    const auto day = digits_at(text, 8, 2);
    const auto hour = digits_at(text, 11, 2);
    const auto minute = digits_at(text, 14, 2);
    const auto second = digits_at(text, 17, 2);
    if (!year || !month || !day || !hour || !minute || !second || text[4] != '-' ||
        text[7] != '-' || (text[10] != 'T' && text[10] != 't') || text[13] != ':' ||
        text[16] != ':') {
        return refused(text);
    }
    const std::chrono::year_month_day date{std::chrono::year(*year),
                                           std::chrono::month(static_cast<unsigned>(*month)),
                                           std::chrono::day(static_cast<unsigned>(*day))};
    if (!date.ok() || *year < 1970) {
        return refused(text, "no such date (or one before 1970)");
    }
    if (*hour > 23 || *minute > 59 || *second > 59) {
        return refused(text, "the time of day must be 00:00:00 to 23:59:59");
    }
    std::size_t at = 19;
    nanoseconds fraction{0};
    if (at < text.size() && text[at] == '.') {
        ++at;
        const auto parsed = fraction_at(text, at);
        if (!parsed) {
            return refused(text, "a fraction of a second takes 1 to 9 digits after the point");
        }
        fraction = *parsed;
    }
    if (at == text.size()) {
        return refused(text,
                       "a time needs its zone: end it with Z (UTC) or an offset such as +01:00, "
                       "since a local time names a different instant on each host");
    }
    const auto offset = zone_at(text, at);
    if (!offset) {
        return refused(text, "the zone must be Z or an offset +HH:MM or -HH:MM");
    }
    const auto local = std::chrono::sys_days(date).time_since_epoch() + std::chrono::hours(*hour) +
                       std::chrono::minutes(*minute) + seconds(*second) + fraction;
    return {wall_time(std::chrono::duration_cast<wall_time::duration>(local - *offset)), {}};
}

}  // namespace

parsed_start_time parse_start_time(std::string_view text) {
    if (text.empty()) {
        return refused(text);
    }
    if (text.size() > 10 && text[4] == '-') {
        return parse_iso(text);
    }
    if (is_digit(text.front())) {
        return parse_unix_seconds(text);
    }
    return refused(text);
}

std::string utc_iso_text(wall_time time) {
    const auto us = std::chrono::floor<std::chrono::microseconds>(time.time_since_epoch());
    const auto days = std::chrono::floor<std::chrono::days>(us);
    const std::chrono::year_month_day date{std::chrono::sys_days(days)};
    const std::chrono::hh_mm_ss clock{us - days};
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", static_cast<int>(date.year()),
                       static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                       clock.hours().count(), clock.minutes().count(), clock.seconds().count(),
                       clock.subseconds().count());
}

}  // namespace sctp_perf
