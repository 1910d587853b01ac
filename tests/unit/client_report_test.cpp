// SPDX-License-Identifier: Apache-2.0
// The client's report written by its one writer (write_json_report) and read
// back by its one reader (read_client_report, read_report_figures): every
// field the reader gives must be what the writer was given, so that a key
// renamed or a unit changed on one side fails here, not in a user's
// comparison.

#include "report/client_report.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "client/load/load_result.hpp"
#include "report/run_report.hpp"
#include "report_test_support.hpp"

using namespace sctp_perf;

namespace {

std::string written(const run_report& report) {
    std::ostringstream out;
    write_json_report(out, report);
    return out.str();
}

double stated(const std::vector<stated_percentile>& run, const std::string& key) {
    for (const auto& percentile : run) {
        if (percentile.key == key) {
            return percentile.us;
        }
    }
    FAIL("the run states no " << key);
    return 0.0;
}

// A rate-mode result of two flows at 1000/s each that sent 100 and 300
// messages, every one replied; corrected latencies 10, 20 and 30 us,
// uncorrected 9, 19 and 29 us.
load_result two_flows() {
    load_result l;
    l.mode = protocol::test_mode::rate;
    l.flows = 2;
    l.threads = 1;
    l.duration_s = 0.2;
    l.sending_s = 0.2;
    l.rate_asked_per_s = 1000.0;
    l.rate_achieved_per_s = 990.0;
    l.messages_sent = 400;
    l.messages_replied = 400;
    l.payload_bytes = 128;
    l.corrected = std::make_unique<log_linear_histogram>();
    l.uncorrected = std::make_unique<log_linear_histogram>();
    for (const std::uint64_t sent : {100U, 300U}) {
        flow_result f;
        f.flow = static_cast<unsigned>(l.per_flow.size());
        f.messages_sent = sent;
        f.messages_replied = sent;
        f.rate_per_s = 990.0;
        l.per_flow.push_back(std::move(f));
    }
    for (const std::uint64_t us : {10U, 20U, 30U}) {
        l.corrected->record(us * 1000);
        l.uncorrected->record((us - 1) * 1000);
        l.per_flow[0].latency.record(us * 1000);
    }
    return l;
}

}  // namespace

TEST_CASE("client report: a ping-pong report reads back as it was written") {
    // The hand-checked run of report_test_support.hpp: 7 round trips over
    // 0.25 s, p50 1.9 us, p90 and above 6.0 us, the maximum; mean 2.985714 us.
    testing::small_run run;
    const auto report = read_client_report(written(run.report), "pp.json");
    CHECK(report.source == "pp.json");
    CHECK(report.program == "SOCK_STREAM_clt");
    CHECK(report.config.service == "stream");
    CHECK(report.config.transport == "tcp");
    CHECK(report.config.mode == "ping-pong");
    CHECK(report.config.payload_bytes == 128);  // 2^7
    CHECK(report.config.reply_bytes == reply_bytes_of(run.report.options));
    CHECK_FALSE(report.config.nagle);
    CHECK(report.settings.spin == false);
    CHECK(report.settings.server_spin == false);
    CHECK(report.settings.timestamps == false);
    CHECK_FALSE(report.settings.flows);  // ping-pong has none
    CHECK_FALSE(report.settings.rate_per_s);
    REQUIRE(report.runs.size() == 1);
    CHECK(stated(report.runs[0], "p50_us") == Approx(1.9));
    CHECK(stated(report.runs[0], "p99_9_us") == Approx(6.0));
    CHECK(stated(report.runs[0], "max_us") == Approx(6.0));
    CHECK(report.runs[0].back().parts_per_million == 1'000'000);

    const auto figures = read_report_figures(report);
    CHECK(figures.hostname == "testhost");
    CHECK(figures.duration_s == Approx(0.25));
    CHECK(figures.headline.histogram.count() == 7);
    CHECK(figures.headline.histogram.min_ns() == 500);
    CHECK(figures.headline.histogram.max_ns() == 6000);
    // The report states times to the nanosecond: 2.986 and 2.129 us.
    CHECK(figures.headline.mean_us == Approx(20.9 / 7).margin(0.0005));
    CHECK(figures.headline.stddev_us == Approx(std::sqrt(4.5347619)).margin(0.0005));
    CHECK(figures.measurement_began_at.empty());  // the run never stated a start
    CHECK_FALSE(figures.load);
}

TEST_CASE("client report: a load report's settings, counts and series read back") {
    testing::small_run run;
    auto& options = run.report.options;
    options.mode = protocol::test_mode::rate;
    options.rate_per_s = 1000.0;
    options.flows = 2;
    options.batch = 1;
    const auto load = two_flows();
    run.report.load = &load;
    const auto report = read_client_report(written(run.report), "rate.json");
    CHECK(report.config.mode == "rate");
    CHECK(report.settings.rate_per_s == 1000.0);
    CHECK(report.settings.flows == 2U);
    CHECK(report.settings.batch == 1U);
    REQUIRE(report.runs.size() == 1);

    const auto figures = read_report_figures(report);
    REQUIRE(figures.load);
    CHECK(figures.load->flows == 2);
    CHECK(figures.load->rate_asked_per_flow_s == 1000.0);
    CHECK(figures.load->rate_achieved_per_flow_s == 990.0);
    CHECK(figures.load->counts.at("messages_sent") == 400);
    CHECK(figures.load->counts.at("messages_replied") == 400);
    CHECK(figures.load->counts.size() == load_count_keys().size());
    REQUIRE(figures.load->corrected);
    REQUIRE(figures.load->uncorrected);
    CHECK(figures.load->corrected->histogram.count() == 3);
    CHECK(figures.load->corrected->histogram.max_ns() == 30'000);
    CHECK(figures.load->uncorrected->histogram.min_ns() == 9'000);
    CHECK(figures.load->corrected->mean_us == Approx(20.0));
}

TEST_CASE("client report: what the writer never writes is refused by the reader") {
    testing::small_run run;
    auto doc = nlohmann::json::parse(written(run.report));
    SECTION("a report of an older format") {
        doc["format_version"] = 1;
        CHECK_THROWS_AS(read_client_report(doc.dump(), "old.json"), input_error);
    }
    SECTION("a server's report") {
        doc["program"] = "SOCK_STREAM_srv";
        CHECK_THROWS_AS(read_client_report(doc.dump(), "srv.json"), input_error);
    }
    SECTION("a run without a percentile every run states") {
        doc["percentiles"].erase("p99_9_us");
        CHECK_THROWS_AS(read_client_report(doc.dump(), "short.json"), input_error);
    }
}
