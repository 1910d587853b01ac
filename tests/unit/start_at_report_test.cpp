// SPDX-License-Identifier: Apache-2.0
// --start-at in both report formats: the instant asked for, when the
// measurement began, and how late, from figures checked by hand.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "report/run_report.hpp"
#include "report_test_support.hpp"

using namespace sctp_perf;
using std::chrono::nanoseconds;
using std::chrono::seconds;

namespace {

// 2026-11-26T14:05:00Z is 1795701900 s after the epoch (start_time_test.cpp).
const wall_time instant{seconds(1'795'701'900)};

nlohmann::json json_of(const run_report& report) {
    std::ostringstream out;
    write_json_report(out, report);
    return nlohmann::json::parse(out.str());
}

std::string text_of(const run_report& report) {
    std::ostringstream out;
    write_ace_report(out, report);
    return out.str();
}

}  // namespace

TEST_CASE("start at: 12.5 us late, in both formats") {
    testing::small_run run;
    run.report.options.start_at = instant;
    run.report.measurement_began = instant + nanoseconds(12'500);
    const auto doc = json_of(run.report);
    CHECK(doc["start_at"]["requested"] == "2026-11-26T14:05:00.000000Z");
    CHECK(doc["start_at"]["actual"] == "2026-11-26T14:05:00.000012Z");  // truncated
    CHECK(doc["start_at"]["late_us"].get<double>() == 12.5);
    CHECK(doc["environment"]["measurement_began_at"] == "2026-11-26T14:05:00.000012Z");
    CHECK_THAT(text_of(run.report),
               Catch::Contains("\tstart at: 2026-11-26T14:05:00.000000Z asked, measuring began "
                               "2026-11-26T14:05:00.000012Z (12.5 us late)\n"));
}

TEST_CASE("start at: early is said so, with the sign in JSON") {
    testing::small_run run;
    run.report.options.start_at = instant;
    run.report.measurement_began = instant - nanoseconds(300);  // 0.3 us early
    CHECK(json_of(run.report)["start_at"]["late_us"].get<double>() == -0.3);
    CHECK_THAT(text_of(run.report), Catch::Contains("(0.3 us early)\n"));
}

TEST_CASE("start at: interrupted before the instant, no actual start") {
    testing::small_run run;
    run.report.options.start_at = instant;
    const auto doc = json_of(run.report);
    CHECK(doc["start_at"]["requested"] == "2026-11-26T14:05:00.000000Z");
    CHECK(doc["start_at"]["actual"].is_null());
    CHECK(doc["start_at"]["late_us"].is_null());
    CHECK(doc["environment"]["measurement_began_at"].is_null());
    CHECK_THAT(text_of(run.report), Catch::Contains("asked, interrupted before measuring began\n"));
}

TEST_CASE("start at: without --start-at, null in JSON and no text line") {
    testing::small_run run;
    run.report.measurement_began = instant;
    const auto doc = json_of(run.report);
    CHECK(doc["start_at"].is_null());
    // Still said, so that reports from several hosts can be aligned.
    CHECK(doc["environment"]["measurement_began_at"] == "2026-11-26T14:05:00.000000Z");
    CHECK_THAT(text_of(run.report), !Catch::Contains("start at:"));
}
