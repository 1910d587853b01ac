// SPDX-License-Identifier: Apache-2.0
#include "report/interval_report.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <sstream>

using sctp_perf::interval_sample;
using sctp_perf::log_linear_histogram;

namespace {

// 100 samples of 1001..1100 ns, all below 2048 ns and so exact: the nearest-rank
// p50 is rank 50 = 1050 ns, p99 rank 99 = 1099 ns, max 1100 ns; in
// microseconds 1.050, 1.099 and 1.100. Min 1001 ns, mean 1050.5 ns; the
// sample standard deviation of 100 consecutive integers is
// sqrt(100 x 101 / 12) = 29.01 ns: 1.001, 1.050 (1.0505, below it in
// binary), 0.029 us.
log_linear_histogram hundred_samples() {
    log_linear_histogram h;
    for (std::uint64_t ns = 1001; ns <= 1100; ++ns) {
        h.record(ns);
    }
    return h;
}

// Half a second ending 3 s in: 128000 bytes out / 0.5 s = 0.256 MB/s, 32000
// bytes in / 0.5 s = 0.064 MB/s; 5324 KiB / 1024 = 5.199 MiB, shown as 5.2.
interval_sample half_second(const log_linear_histogram* latency) {
    interval_sample s;
    s.elapsed_s = 3.0;
    s.length_s = 0.5;
    s.messages_sent = 1000;
    s.messages_received = 999;
    s.bytes_sent = 128000;
    s.bytes_received = 32000;
    s.latency = latency;
    s.cpu_percent = 12.5;
    s.rss_kib = 5324;
    return s;
}

const std::string header =
    "elapsed_s,length_s,messages_sent,messages_received,mb_per_s_sent,mb_per_s_received,"
    "p50_us,p99_us,max_us,latency_kind,cpu_percent,rss_kib,utc,min_us,mean_us,stddev_us,"
    "latency_samples\n";

// 2026-11-26T07:08:03.5Z on the wall clock.
std::chrono::system_clock::time_point half_past_three_s() {
    using namespace std::chrono;
    return sys_days{year{2026} / November / 26} + hours{7} + minutes{8} + seconds{3} +
           milliseconds{500};
}

}  // namespace

TEST_CASE("interval csv: header once, then one row per interval", "[interval]") {
    const log_linear_histogram latency = hundred_samples();
    std::ostringstream out;
    sctp_perf::interval_csv_writer csv(out);
    interval_sample s = half_second(&latency);
    csv.write(s);
    s.elapsed_s = 3.5;
    s.latency_corrected = false;
    s.ends_at = half_past_three_s();
    csv.write(s);
    CHECK(out.str() ==
          header +
              "3.000,0.500,1000,999,0.256000,0.064000,1.050,1.099,1.100,"
              "corrected,12.5,5324,,1.001,1.050,0.029,100\n"
              "3.500,0.500,1000,999,0.256000,0.064000,1.050,1.099,1.100,"
              "uncorrected,12.5,5324,2026-11-26T07:08:03.500000Z,1.001,1.050,0.029,100\n");
}

TEST_CASE("interval csv: an interval without timed replies leaves latency empty", "[interval]") {
    const log_linear_histogram empty;
    for (const log_linear_histogram* latency :
         std::initializer_list<const log_linear_histogram*>{&empty, nullptr}) {
        std::ostringstream out;
        sctp_perf::interval_csv_writer csv(out);
        interval_sample s;
        s.elapsed_s = 1.0;
        s.length_s = 1.0;
        s.latency = latency;
        s.rss_kib = 4096;
        csv.write(s);
        CHECK(out.str() ==
              header + "1.000,1.000,0,0,0.000000,0.000000,,,,corrected,0.0,4096,,,,,0\n");
    }
}

// One reply that straggled past the last whole interval: 12775320 ns, so min,
// mean, max, p50 and p99 are all 12775.320 us; the sample standard deviation
// divides by n - 1 = 0 and is left empty, as "-" in the line.
TEST_CASE("interval csv and line: one sample defines every figure but the deviation",
          "[interval]") {
    log_linear_histogram one;
    one.record(12'775'320);
    std::ostringstream out;
    sctp_perf::interval_csv_writer csv(out);
    interval_sample s;
    s.elapsed_s = 1.012;
    s.length_s = 0.012;
    s.messages_received = 1;
    s.latency = &one;
    s.rss_kib = 29932;
    csv.write(s);
    const double p50_us = static_cast<double>(one.percentile_ns(500'000)) / 1000.0;
    CHECK(out.str() == header + fmt::format("1.012,0.012,0,1,0.000000,0.000000,{0:.3f},{0:.3f},"
                                            "12775.320,corrected,0.0,29932,,12775.320,"
                                            "12775.320,,1\n",
                                            p50_us));
    const std::string line = sctp_perf::format_interval_line(s);
    CHECK(line.find("min  12775.320 mean  12775.320 sd          - us") != std::string::npos);
}

TEST_CASE("interval line: every number of the interval, with units", "[interval]") {
    const log_linear_histogram latency = hundred_samples();
    interval_sample s = half_second(&latency);
    s.ends_at = half_past_three_s();
    CHECK(sctp_perf::format_interval_line(s) ==
          "[   3.000 s] sent     1000 recv      999 |     0.256 MB/s out     0.064 MB/s in | "
          "corrected   p50      1.050 p99      1.099 max      1.100 us | cpu  12.5 % rss      "
          "5.2 MiB | min      1.001 mean      1.050 sd      0.029 us | "
          "2026-11-26T07:08:03.500000Z");
}

TEST_CASE("interval line: dashes for latency when no timed reply arrived", "[interval]") {
    interval_sample s;
    s.elapsed_s = 1.0;
    s.length_s = 0.0;  // rates of a zero-length interval read 0
    s.bytes_sent = 100;
    s.latency_corrected = false;
    CHECK(
        sctp_perf::format_interval_line(s) ==
        "[   1.000 s] sent        0 recv        0 |     0.000 MB/s out     0.000 MB/s in | "
        "uncorrected p50          - p99          - max          - us | cpu   0.0 % rss      "
        "0.0 MiB | min          - mean          - sd          - us | -                          ");
}

TEST_CASE("interval line: fields keep their columns as the numbers grow", "[interval]") {
    const log_linear_histogram small = hundred_samples();
    log_linear_histogram large;
    large.record(250'000'000);  // 250 ms
    interval_sample a = half_second(&small);
    interval_sample b = half_second(&large);
    b.elapsed_s = 1234.5;
    b.messages_sent = 12'345'678;
    b.bytes_sent = 1'000'000'000;
    b.cpu_percent = 187.25;
    b.rss_kib = 2'000'000;
    b.ends_at = half_past_three_s();  // a's is unknown: "-", padded
    const std::string line_a = sctp_perf::format_interval_line(a);
    const std::string line_b = sctp_perf::format_interval_line(b);
    CHECK(line_a.size() == line_b.size());
    for (std::size_t at = 0; at < line_a.size(); ++at) {
        INFO("column " << at << "\n" << line_a << "\n" << line_b);
        CHECK((line_a[at] == '|') == (line_b[at] == '|'));
    }
}

namespace {

// Two paths of an association: the first one unreachable, the second one
// primary, as SCTP_GET_PEER_ADDR_INFO gives them (srtt and rto in ms).
sctp_perf::interval_paths_sample two_paths() {
    sctp_perf::interval_paths_sample p;
    p.primary = "10.77.2.2:45453";
    p.events = 1;
    p.paths = {{"10.77.1.2:45453", "inactive", 1, 400, 4380},
               {"10.77.2.2:45453", "active", 2, 50, 8760}};
    return p;
}

}  // namespace

TEST_CASE("interval line: over SCTP the paths come last", "[interval]") {
    const log_linear_histogram latency = hundred_samples();
    interval_sample s = half_second(&latency);
    const auto paths = two_paths();
    s.paths = &paths;
    const auto line = sctp_perf::format_interval_line(s);
    CHECK(line.starts_with(sctp_perf::format_interval_line(half_second(&latency))));
    CHECK(
        line.ends_with(" | primary 10.77.2.2:45453 events 1 | 10.77.1.2:45453 inactive srtt 1 "
                       "rto 400 cwnd 4380, 10.77.2.2:45453 active srtt 2 rto 50 cwnd 8760"));
}

// After latency_samples, which stays where scripts that read it by position
// find it.
TEST_CASE("interval csv: over SCTP the path columns follow the others", "[interval]") {
    const log_linear_histogram latency = hundred_samples();
    std::ostringstream out;
    sctp_perf::interval_csv_writer csv(out);
    interval_sample s = half_second(&latency);
    auto paths = two_paths();
    s.paths = &paths;
    csv.write(s);
    // A path gone from the association leaves its columns empty.
    paths.paths.pop_back();
    paths.events = 0;
    csv.write(s);
    const std::string path_header =
        ",primary_path,path_events,path1_address,path1_state,path1_srtt_ms,path1_rto_ms,"
        "path1_cwnd_bytes,path2_address,path2_state,path2_srtt_ms,path2_rto_ms,"
        "path2_cwnd_bytes\n";
    const std::string row =
        "3.000,0.500,1000,999,0.256000,0.064000,1.050,1.099,1.100,corrected,12.5,5324,,1.001,"
        "1.050,0.029,100";
    CHECK(out.str() == header.substr(0, header.size() - 1) + path_header + row +
                           ",10.77.2.2:45453,1,10.77.1.2:45453,inactive,1,400,4380,"
                           "10.77.2.2:45453,active,2,50,8760\n" +
                           row + ",10.77.2.2:45453,0,10.77.1.2:45453,inactive,1,400,4380,,,,,\n");
}
