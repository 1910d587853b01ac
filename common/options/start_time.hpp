// SPDX-License-Identifier: Apache-2.0
#pragma once
// --start-at: the wall-clock instant at which clients on several hosts all
// begin to measure, so that their runs can be merged as one.
//
// The forms taken, all naming one instant whatever the host's time zone:
//   2026-11-26T14:05:00Z               ISO 8601 in UTC
//   2026-11-26T14:05:00.250+01:00      ISO 8601 with a fraction and an offset
//   1795701900.5                       Unix time: seconds since 1970-01-01 UTC
// A local time without a zone is refused: on hosts in different zones it
// would name different instants. The fraction takes up to 9 digits.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace sctp_perf {

using wall_time = std::chrono::system_clock::time_point;

// The latest --start-at taken, counted from when the options are read: a
// start further off is a typo (a wrong day or year), not a plan.
inline constexpr std::chrono::hours max_start_ahead{24};

// What parse_start_time made of a text: the instant, or why there is none
// (a sentence naming the forms taken).
struct parsed_start_time {
    std::optional<wall_time> time;
    std::string error;
};

// Pure: reads one of the forms above. No clock is read.
parsed_start_time parse_start_time(std::string_view text);

// The instant as ISO 8601 in UTC with microseconds, "2026-11-26T14:05:00.250000Z"
// (truncated towards the past, as clocks count).
std::string utc_iso_text(wall_time time);

}  // namespace sctp_perf
