#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "report/run_report.hpp"
#include "report_test_support.hpp"
#include "version.hpp"

namespace {

std::string read_golden(const std::string& name) {
    std::ifstream in(std::string(SCTP_PERF_GOLDEN_DIR) + "/" + name);
    REQUIRE(in);
    std::ostringstream text;
    text << in.rdbuf();
    std::string golden = text.str();
    // The golden file names no version, so a release does not rewrite it.
    const std::string marker = "@VERSION@";
    if (const auto at = golden.find(marker); at != std::string::npos) {
        golden.replace(at, marker.size(), sctp_perf::version_string);
    }
    return golden;
}

}  // namespace

TEST_CASE("ace report: matches the golden text of a hand-checked run") {
    sctp_perf::testing::small_run run;
    std::ostringstream out;
    sctp_perf::write_ace_report(out, run.report);
    CHECK(out.str() == read_golden("ace_small.txt"));
}

TEST_CASE("ace report: a million points fit the Count column") {
    sctp_perf::latency_recorder recorder(sctp_perf::bin_layout{0.0, 10.0, 1, 1});
    for (std::uint64_t i = 0; i < 1'234'567; ++i) {
        recorder.record(std::chrono::nanoseconds(1000), i);
    }
    sctp_perf::testing::small_run run;
    run.report.recorder = &recorder;
    std::ostringstream out;
    sctp_perf::write_ace_report(out, run.report);
    // The single bin holds all: count printed whole, fraction and cumulative 1.
    CHECK_THAT(out.str(), Catch::Matchers::Contains(
                              "\t       0.000  -        10.000  :  1234567    1.000    1.000\n"));
    CHECK_THAT(out.str(), Catch::Matchers::Contains("num_points: 1234567\n"));
}
