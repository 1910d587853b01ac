// SPDX-License-Identifier: Apache-2.0
#include "report/csv_summary.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "report_test_support.hpp"

namespace {

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream in(line);
    std::string field;
    while (std::getline(in, field, ',')) {
        fields.push_back(field);
    }
    if (!line.empty() && line.back() == ',') {
        fields.emplace_back();
    }
    return fields;
}

// The row of `report` keyed by the header's column names.
std::map<std::string, std::string> row_of(const sctp_perf::run_report& report) {
    std::ostringstream out;
    sctp_perf::write_csv_summary_row(out, report);
    auto text = out.str();
    REQUIRE(text.back() == '\n');
    text.pop_back();
    const auto names = split(sctp_perf::csv_summary_header());
    const auto values = split(text);
    REQUIRE(names.size() == values.size());
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < names.size(); ++i) {
        row[names[i]] = values[i];
    }
    return row;
}

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

}  // namespace

TEST_CASE("csv summary: the header states every unit and the percentiles reported") {
    const auto header = sctp_perf::csv_summary_header();
    CHECK(
        header.starts_with("started_at,program,service,transport,payload_bytes,reply_bytes,"
                           "mode,flows,rate_per_flow_per_s,runs,interrupted,duration_s,count,"
                           "min_us,mean_us,stddev_us,p50_us,p90_us,p99_us,p99_9_us,p99_99_us,"
                           "p99_999_us,p99_9999_us,max_us,"));
    CHECK(header.ends_with(",max_us,messages_sent,messages_replied,messages_lost"));
}

TEST_CASE("csv summary: every figure of the hand-checked ping-pong run") {
    sctp_perf::testing::small_run run;
    const auto row = row_of(run.report);
    CHECK(row.at("started_at") == "2026-01-02T03:04:05Z");
    CHECK(row.at("program") == "SOCK_STREAM_clt");
    CHECK(row.at("service") == "stream");
    CHECK(row.at("transport") == "tcp");
    CHECK(row.at("payload_bytes") == "128");
    CHECK(row.at("reply_bytes") == "2");
    CHECK(row.at("flows") == "1");
    CHECK(row.at("rate_per_flow_per_s").empty());  // no rate in ping-pong
    CHECK(row.at("runs") == "1");
    CHECK(row.at("interrupted") == "no");
    CHECK(row.at("duration_s") == "0.250000");
    CHECK(row.at("count") == "7");
    CHECK(row.at("min_us") == "0.500");
    CHECK(row.at("mean_us") == "2.986");    // 20.9 / 7 = 2.98571...
    CHECK(row.at("stddev_us") == "2.129");  // sqrt(4.5347619) = 2.12950
    CHECK(row.at("p50_us") == "1.900");     // rank 4 of 7
    CHECK(row.at("p99_us") == "6.000");     // rank 7: the maximum
    CHECK(row.at("max_us") == "6.000");
    // Each request waits for its reply: all sent were replied, none lost.
    CHECK(row.at("messages_sent") == "7");
    CHECK(row.at("messages_replied") == "7");
    CHECK(row.at("messages_lost") == "0");
}

TEST_CASE("csv summary: a run that measured nothing leaves its latencies empty") {
    sctp_perf::latency_recorder empty{sctp_perf::bin_layout{0.0, 4.0, 4, 2}};
    sctp_perf::testing::small_run run;
    run.report.recorder = &empty;
    const auto row = row_of(run.report);
    CHECK(row.at("count") == "0");
    CHECK(row.at("min_us").empty());
    CHECK(row.at("p50_us").empty());
    CHECK(row.at("max_us").empty());
}

TEST_CASE("csv summary: two runs append two lines under one header") {
    const auto path = (std::filesystem::temp_directory_path() /
                       ("csv_summary_test_" + std::to_string(::getpid()) + ".csv"))
                          .string();
    std::filesystem::remove(path);
    sctp_perf::testing::small_run run;
    sctp_perf::check_csv_summary_file(path);  // creates it, empty
    CHECK(lines_of(path).empty());
    sctp_perf::append_csv_summary(path, run.report);
    sctp_perf::append_csv_summary(path, run.report);
    const auto lines = lines_of(path);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == sctp_perf::csv_summary_header());
    CHECK(lines[1] == lines[2]);
    CHECK(lines[1].starts_with("2026-01-02T03:04:05Z,SOCK_STREAM_clt,"));

    // A file under another header is refused, not appended to.
    std::ofstream(path) << "flow,messages_sent\n1,2\n";
    CHECK_THROWS_AS(sctp_perf::check_csv_summary_file(path), std::runtime_error);
    CHECK_THROWS_AS(sctp_perf::append_csv_summary(path, run.report), std::runtime_error);
    CHECK(lines_of(path).size() == 2);
    std::filesystem::remove(path);
}
