// SPDX-License-Identifier: Apache-2.0
#pragma once
// A report read as JSON, and its numbers checked where they are read: the
// text parsed with the key path followed, so that a text that is not JSON,
// NaN, or a number beyond a double is named by its key; a number refused,
// naming the key, when it is missing, a text, or outside what a report can
// hold. What the reader of the clients' reports (client_report.hpp) builds
// on. Every refusal is an input_error (errors.hpp).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "errors.hpp"

namespace sctp_perf {

// The JSON a report is read into: one name for every reader, declared once.
// (The writers build nlohmann::ordered_json, which keeps their keys' order;
// the sanitizer and package builds compile report/ eight files at a time, in
// which two files' local aliases of one name for two types collide.)
using parsed_json = nlohmann::json;

// What a number of a report may be, for the sentence that refuses one that
// is not: from `least` to `most`, a `noun` in `unit` ("time", " us").
struct number_range {
    double least = 0.0;
    double most = 0.0;
    std::string_view noun;
    std::string_view unit;
};

// A time in microseconds: the clients time whole nanoseconds, so nothing
// below 1 ns, and count them in 64 bits, so nothing above 2^64 ns (about
// 213 days).
inline constexpr number_range time_us_range{0.001, 18446744073709.551616, "time", " us"};
// A rate of one flow, messages per second: no client sends faster than a
// message a nanosecond.
inline constexpr number_range flow_rate_range{0.0, 1e9, "rate", "/s"};

// A number as the refusals write it: the shortest text that reads back as
// the same double.
std::string format_number(double value);

// The member `key` of `object`, or nullptr when `object` is no object or
// lacks it.
const parsed_json* member_of(const parsed_json& object, std::string_view key);

// `value`, the member `key` of a report (`what`: "x.json", "run 3 of
// x.json"), as a number within `range`. Throws input_error naming both when
// it is missing, not a number, or out of range.
double checked_number(const parsed_json* value, std::string_view key, const std::string& what,
                      const number_range& range);

// As checked_number, but a missing or null member is nullopt.
std::optional<double> optional_number(const parsed_json* value, std::string_view key,
                                      const std::string& what, const number_range& range);

// A report's text as JSON. Throws input_error naming the file, where it
// stops being JSON (the byte and the key) or which key holds a number
// beyond a double's range (1e400).
parsed_json parse_report_json(std::string_view text, const std::string& source);

}  // namespace sctp_perf
