// SPDX-License-Identifier: Apache-2.0
#include "options/start_time.hpp"

#include <catch2/catch.hpp>

using namespace sctp_perf;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

namespace {

// Seconds since the epoch of a parsed text, nanoseconds exact.
nanoseconds since_epoch(std::string_view text) {
    const auto parsed = parse_start_time(text);
    INFO(parsed.error);
    REQUIRE(parsed.time);
    return parsed.time->time_since_epoch();
}

std::string error_of(std::string_view text) {
    const auto parsed = parse_start_time(text);
    CHECK_FALSE(parsed.time);
    return parsed.error;
}

// 2026-11-26T00:00:00Z: from 1970-01-01, 56 years of which 14 leap
// (1972..2024) make 56 * 365 + 14 = 20454 days; in 2026, January to October
// hold 31+28+31+30+31+30+31+31+30+31 = 304 days, and the 26th adds 25:
// 20783 days, 20783 * 86400 = 1795651200 s.
constexpr seconds midnight_2026_11_26{1'795'651'200};
// 14:05:00 is 14 * 3600 + 5 * 60 = 50700 s later: 1795701900.
constexpr seconds at_14_05{1'795'701'900};

}  // namespace

TEST_CASE("start time: ISO 8601 in UTC") {
    CHECK(at_14_05 == midnight_2026_11_26 + seconds(50'700));
    CHECK(since_epoch("2026-11-26T14:05:00Z") == at_14_05);
    CHECK(since_epoch("2026-11-26t14:05:00z") == at_14_05);  // RFC 3339 allows lower case
    CHECK(since_epoch("2026-11-26T00:00:00Z") == midnight_2026_11_26);
    CHECK(since_epoch("1970-01-01T00:00:00Z") == seconds(0));
    // 2028-02-29 exists (2028 is a leap year): from 2026-11-26, 5 days to
    // 2026-12-01, 31 through December, 365 through 2027, 31 through January
    // and 28 to the 29th: 460 days on.
    CHECK(since_epoch("2028-02-29T00:00:00Z") == midnight_2026_11_26 + std::chrono::days(460));
    CHECK_FALSE(parse_start_time("2027-02-29T00:00:00Z").time);  // 2027 is not
}

TEST_CASE("start time: fractions and offsets") {
    // 14:05:00.250 at +01:00 is 13:05:00.250 UTC: 1795701900 - 3600 + 0.25.
    CHECK(since_epoch("2026-11-26T14:05:00.250+01:00") ==
          at_14_05 - seconds(3600) + milliseconds(250));
    // West of Greenwich the UTC time is later: 09:35 at -04:30 is 14:05 UTC.
    CHECK(since_epoch("2026-11-26T09:35:00-04:30") == at_14_05);
    CHECK(since_epoch("2026-11-26T14:05:00+00:00") == at_14_05);
    CHECK(since_epoch("2026-11-26T14:05:00.000000001Z") == at_14_05 + nanoseconds(1));
    CHECK(since_epoch("2026-11-26T14:05:00.5Z") == at_14_05 + milliseconds(500));
}

TEST_CASE("start time: Unix seconds") {
    CHECK(since_epoch("1795701900") == at_14_05);
    CHECK(since_epoch("1795701900.5") == at_14_05 + milliseconds(500));
    CHECK(since_epoch("1795701900.000001") == at_14_05 + std::chrono::microseconds(1));
    CHECK(since_epoch("0") == seconds(0));
}

TEST_CASE("start time: bad forms are refused with a sentence") {
    // No zone: a local time is a different instant on each host.
    CHECK_THAT(error_of("2026-11-26T14:05:00"), Catch::Contains("needs its zone"));
    CHECK_THAT(error_of("2026-11-26T14:05:00.25"), Catch::Contains("needs its zone"));
    CHECK_THAT(error_of("2026-02-30T14:05:00Z"), Catch::Contains("no such date"));
    CHECK_THAT(error_of("2026-13-01T14:05:00Z"), Catch::Contains("no such date"));
    CHECK_THAT(error_of("1969-12-31T23:59:59Z"), Catch::Contains("before 1970"));
    CHECK_THAT(error_of("2026-11-26T24:00:00Z"), Catch::Contains("00:00:00 to 23:59:59"));
    CHECK_THAT(error_of("2026-11-26T14:05:60Z"), Catch::Contains("00:00:00 to 23:59:59"));
    CHECK_THAT(error_of("2026-11-26T14:05:00+1:00"), Catch::Contains("zone must be"));
    CHECK_THAT(error_of("2026-11-26T14:05:00+24:00"), Catch::Contains("zone must be"));
    CHECK_THAT(error_of("2026-11-26T14:05:00ZZ"), Catch::Contains("zone must be"));
    CHECK_THAT(error_of("2026-11-26T14:05:00.Z"), Catch::Contains("1 to 9 digits"));
    CHECK_THAT(error_of("2026-11-26T14:05:00.1234567891Z"), Catch::Contains("1 to 9 digits"));
    CHECK_THAT(error_of("1795701900."), Catch::Contains("1 to 9 digits"));
    CHECK_THAT(error_of("123456789012"), Catch::Contains("too many digits"));
    for (const char* bad : {"", "now", "-5", "+5", "1e9", "17957O1900", "2026-11-26 14:05:00Z",
                            "2026-11-26", "26-11-2026T14:05:00Z", " 1795701900"}) {
        INFO(bad);
        const auto error = error_of(bad);
        CHECK_THAT(error, Catch::StartsWith("--start-at"));
        CHECK_THAT(error, Catch::Contains("2026-11-26T14:05:00Z"));
    }
}

TEST_CASE("start time: written back as ISO 8601 UTC with microseconds") {
    CHECK(utc_iso_text(wall_time(at_14_05)) == "2026-11-26T14:05:00.000000Z");
    CHECK(utc_iso_text(wall_time(at_14_05 + milliseconds(250) + nanoseconds(999))) ==
          "2026-11-26T14:05:00.250000Z");  // truncated, not rounded up
    CHECK(utc_iso_text(wall_time(seconds(0))) == "1970-01-01T00:00:00.000000Z");
    // What is written reads back as the same instant.
    const auto back = parse_start_time(utc_iso_text(wall_time(at_14_05 + milliseconds(7))));
    REQUIRE(back.time);
    CHECK(back.time->time_since_epoch() == at_14_05 + milliseconds(7));
}
