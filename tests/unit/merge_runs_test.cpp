// SPDX-License-Identifier: Apache-2.0
// Merging several clients' runs: histograms, series, reports and interval
// logs. Data small enough to check by hand.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "compare/compare_options.hpp"
#include "compare/merge_logs.hpp"
#include "compare/merge_reports.hpp"
#include "compare/merged_report.hpp"
#include "compare/report_reader.hpp"
#include "report/histogram_log.hpp"
#include "report/histogram_log_reader.hpp"
#include "report/run_report.hpp"
#include "report_test_support.hpp"
#include "text_lines.hpp"

using sctp_perf::latency_series;
using sctp_perf::log_linear_histogram;
using namespace sctp_perf::compare;

namespace {

log_linear_histogram histogram_of(const std::vector<std::uint64_t>& values_ns) {
    log_linear_histogram h;
    for (const auto v : values_ns) {
        h.record(v);
    }
    return h;
}

// What a report carries of a client's run: its histogram encoded, and its
// exact minimum and maximum beside it.
latency_series as_reported(const std::vector<std::uint64_t>& values_ns) {
    const auto original = histogram_of(values_ns);
    latency_series series;
    series.histogram =
        sctp_perf::decode_compressed_histogram(sctp_perf::encode_compressed_histogram(original));
    REQUIRE(series.histogram.restore_extremes(original.min_ns(), original.max_ns()));
    series.mean_us = original.mean_ns() / 1000.0;
    series.stddev_us = original.stddev_ns() / 1000.0;
    return series;
}

}  // namespace

TEST_CASE("merge: the merged histogram equals one built from all the samples") {
    // Host A and host B, ns. All seven sorted: 1000 1500 2000 2500 3000
    // 50000 100000. p50 is rank ceil(3.5) = 4, 2500 ns, whose bucket
    // (2048..4095 ns go in pairs) is [2500, 2501]: reported as 2501. p99 is
    // rank ceil(6.93) = 7, the maximum, 100000 exactly.
    const std::vector<std::uint64_t> a = {1000, 2000, 3000, 50'000};
    const std::vector<std::uint64_t> b = {1500, 2500, 100'000};
    std::vector<std::uint64_t> all = a;
    all.insert(all.end(), b.begin(), b.end());
    const auto expected = histogram_of(all);

    const auto merged =
        merge_series(merge_series(latency_series{}, as_reported(a)), as_reported(b));
    const auto& h = merged.histogram;
    for (std::size_t i = 0; i < h.counts().size(); ++i) {
        INFO("bucket " << i);
        REQUIRE(h.counts()[i] == expected.counts()[i]);
    }
    CHECK(h.count() == 7);
    CHECK(h.min_ns() == 1000);
    CHECK(h.max_ns() == 100'000);
    CHECK(h.percentile_ns(500'000) == 2501.0);
    CHECK(h.percentile_ns(990'000) == 100'000.0);
    for (const auto& p : sctp_perf::reported_percentiles) {
        CHECK(h.percentile_ns(p.parts_per_million) == expected.percentile_ns(p.parts_per_million));
    }
    // The mean of all seven: 160000 / 7 ns.
    CHECK(merged.mean_us == Approx(160.0 / 7.0));
    CHECK(merged.stddev_us == Approx(expected.stddev_ns() / 1000.0));
}

TEST_CASE("merge: the pooled mean and deviation of hand-checked series") {
    // {1, 3} us: mean 2, deviation sqrt(2); {5} us: mean 5, deviation 0.
    // Together {1, 3, 5}: mean 3, squared deviations 4 + 0 + 4 = 8, / 2 = 4,
    // deviation 2.
    latency_series a;
    a.histogram = histogram_of({1000, 3000});
    a.mean_us = 2.0;
    a.stddev_us = std::sqrt(2.0);
    latency_series b;
    b.histogram = histogram_of({5000});
    b.mean_us = 5.0;
    const auto merged = merge_series(a, b);
    CHECK(merged.mean_us == Approx(3.0));
    CHECK(merged.stddev_us == Approx(2.0));
}

namespace {

// The first seven words of the text's line that begins with `first` (and
// ends with `last`, when given).
std::vector<std::string> words_of_row(const std::string& text, const std::string& first,
                                      const std::string& last = {}) {
    for (const auto& line : sctp_perf::testing::lines_of(text)) {
        if (line.starts_with(first) && line.ends_with(last)) {
            std::istringstream in(line);
            std::vector<std::string> words;
            for (std::string word; words.size() < 7 && in >> word;) {
                words.push_back(word);
            }
            return words;
        }
    }
    return {};
}

std::string report_text(sctp_perf::testing::small_run& run, const std::string& host) {
    run.report.environment.hostname = host;
    std::ostringstream out;
    sctp_perf::write_json_report(out, run.report);
    return out.str();
}

}  // namespace

TEST_CASE("merge: two clients' reports as one, with a row per host") {
    // Each host timed the hand-checked run (report_test_support.hpp): 500,
    // 1500, 1500, 1900, 5000, 4500, 6000 ns. Merged, 14 samples sorted: 500
    // 500 1500 x4 1900 1900 4500 4500 5000 5000 6000 6000. p50 is rank 7,
    // 1900 ns; p90 is rank ceil(12.6) = 13, 6000 ns.
    sctp_perf::testing::small_run run;
    std::vector<host_run> hosts;
    hosts.push_back(parse_host_run(report_text(run, "alpha"), "alpha.json"));
    hosts.push_back(parse_host_run(report_text(run, "beta"), "beta.json"));
    const auto merged = merge_host_runs(hosts, false);
    const auto doc = nlohmann::json::parse(merged_report_json(merged).dump());
    CHECK(doc["summary"]["num_points"] == 14);
    CHECK(doc["summary"]["min_us"] == 0.5);
    CHECK(doc["summary"]["max_us"] == 6.0);
    CHECK(doc["summary"]["mean_us"] == 2.986);  // each host's mean, 20.9 / 7
    CHECK(doc["percentiles"]["p50_us"] == 1.9);
    CHECK(doc["percentiles"]["p90_us"] == 6.0);
    CHECK(doc["ping_pong"]["round_trips"] == 14);
    // 7 round trips in 0.25 s on each host.
    CHECK(doc["ping_pong"]["round_trips_per_s"] == 56.0);
    REQUIRE(doc["hosts"].size() == 2);
    CHECK(doc["hosts"][1]["hostname"] == "beta");
    CHECK(doc["hosts"][1]["num_points"] == 7);
    CHECK(doc["hosts"][1]["p50_us"] == 1.9);
    // These runs say nothing of when they began to measure.
    CHECK(doc["hosts"][0]["measurement_began_at"].is_null());
    CHECK(doc["hosts"][0]["start_offset_us"].is_null());
    CHECK(doc["latency_scope"].get<std::string>().find("every client") != std::string::npos);
    // The merged report is a report too: it merges and compares again.
    const auto again = parse_host_run(doc.dump(), "merged.json");
    CHECK(again.headline.histogram.count() == 14);
    CHECK(parse_report(doc.dump(), "merged.json").runs.size() == 1);

    std::ostringstream text;
    write_text_merged(text, merged);
    CHECK(text.str().find("merged ") != std::string::npos);
    CHECK(text.str().find("distribution over every timed message") != std::string::npos);
}

TEST_CASE("merge: reports of different configurations are refused, naming the difference") {
    sctp_perf::testing::small_run run;
    std::vector<host_run> hosts;
    hosts.push_back(parse_host_run(report_text(run, "alpha"), "alpha.json"));
    run.report.options.payload_power = 8;
    hosts.push_back(parse_host_run(report_text(run, "beta"), "beta.json"));
    CHECK_THROWS_WITH(merge_host_runs(hosts, false), Catch::Contains("alpha.json") &&
                                                         Catch::Contains("beta.json") &&
                                                         Catch::Contains("--allow-different"));
    CHECK(merge_host_runs(hosts, true).differences.size() == 1);
}

TEST_CASE("merge: a report without its histogram, or with another's, is refused") {
    sctp_perf::testing::small_run run;
    auto doc = nlohmann::json::parse(report_text(run, "alpha"));
    auto without = doc;
    without.erase("hdr_histogram");
    CHECK_THROWS_WITH(parse_host_run(without.dump(), "old.json"),
                      Catch::Contains("old.json has no hdr_histogram"));
    auto altered = doc;
    altered["summary"]["num_points"] = 8;
    CHECK_THROWS_WITH(parse_host_run(altered.dump(), "x.json"), Catch::Contains("altered"));
    altered = doc;
    altered["summary"]["max_us"] = 9.0;
    CHECK_THROWS_WITH(parse_host_run(altered.dump(), "x.json"), Catch::Contains("altered"));
    altered = doc;
    altered["hdr_histogram"] = "HISTFAAAAAAAAAAA";
    CHECK_THROWS_WITH(parse_host_run(altered.dump(), "x.json"),
                      Catch::Contains("x.json: its hdr_histogram cannot be read"));
}

TEST_CASE("merge: each host's measurement start, its offset from the earliest, how late") {
    // Three clients on hosts of one name (network namespaces share it), two
    // given --start-at T = 2026-11-26T14:05:00Z (1795701900 s after the
    // epoch). Measuring began at T + 250 us on the first, at T + 12.5 us on
    // the second (reported truncated to T + 12 us), and at T + 3 s + 0.5 us
    // on the third, which had no --start-at. Offsets from the earliest, the
    // second's T + 12 us: 250 - 12 = 238 us, 0, 3000000 - 12 = 2999988 us.
    // The clients' own start, started_at, whole seconds before connecting,
    // is not what they are aligned on: the first started a second earlier.
    using std::chrono::nanoseconds;
    const sctp_perf::wall_time instant{std::chrono::seconds(1'795'701'900)};
    sctp_perf::testing::small_run run;
    std::vector<host_run> hosts;
    run.report.options.start_at = instant;
    run.report.measurement_began = instant + nanoseconds(250'000);
    run.report.environment.started_at = "2026-11-26T14:04:54Z";
    hosts.push_back(parse_host_run(report_text(run, "box"), "a.json"));
    run.report.measurement_began = instant + nanoseconds(12'500);
    run.report.environment.started_at = "2026-11-26T14:04:55Z";
    hosts.push_back(parse_host_run(report_text(run, "box"), "b.json"));
    run.report.options.start_at.reset();
    run.report.measurement_began = instant + nanoseconds(3'000'000'500);
    hosts.push_back(parse_host_run(report_text(run, "box"), "c.json"));
    // Each measured for 0.25 s: the third began long after the others had
    // finished, which only --allow-apart merges.
    const auto merged = merge_host_runs(hosts, false, true);
    const auto doc = nlohmann::json::parse(merged_report_json(merged).dump());

    REQUIRE(doc["hosts"].size() == 3);  // one row per report, whatever its host's name
    const auto& h = doc["hosts"];
    CHECK(h[0]["measurement_began_at"] == "2026-11-26T14:05:00.000250Z");
    CHECK(h[1]["measurement_began_at"] == "2026-11-26T14:05:00.000012Z");
    CHECK(h[2]["measurement_began_at"] == "2026-11-26T14:05:03.000000Z");
    CHECK(h[0]["start_offset_us"] == 238);
    CHECK(h[1]["start_offset_us"] == 0);
    CHECK(h[2]["start_offset_us"] == 2'999'988);
    CHECK(h[0]["start_at_requested"] == "2026-11-26T14:05:00.000000Z");
    CHECK(h[0]["start_late_us"] == 250.0);
    CHECK(h[1]["start_late_us"] == 12.5);
    CHECK(h[2]["start_at_requested"].is_null());
    CHECK(h[2]["start_late_us"].is_null());
    CHECK(doc["summary"]["num_points"] == 21);

    std::ostringstream text;
    write_text_merged(text, merged);
    INFO(text.str());
    CHECK(words_of_row(text.str(), "host")[2] == "measuring");
    CHECK(words_of_row(text.str(), "host")[5] == "offset_us");
    CHECK(words_of_row(text.str(), "host")[6] == "late_us");
    const std::vector<std::string> a = {
        "box", "SOCK_STREAM_clt", "2026-11-26T14:05:00.000250Z", "238", "250.000", "7", "28.0"};
    const std::vector<std::string> c = {
        "box", "SOCK_STREAM_clt", "2026-11-26T14:05:03.000000Z", "2999988", "-", "7", "28.0"};
    CHECK(words_of_row(text.str(), "box", "a.json") == a);
    CHECK(words_of_row(text.str(), "box", "c.json") == c);
}

TEST_CASE("merge: one report given twice is refused, by content whatever its name") {
    sctp_perf::testing::small_run run;
    const auto text = report_text(run, "alpha");
    std::vector<host_run> hosts;
    hosts.push_back(parse_host_run(text, "alpha.json"));
    hosts.push_back(parse_host_run(report_text(run, "beta"), "beta.json"));
    hosts.push_back(parse_host_run(nlohmann::json::parse(text).dump(4), "copy.json"));
    CHECK_THROWS_WITH(merge_host_runs(hosts, false),
                      "alpha.json and copy.json are the same report (the same content): a copy "
                      "would count as another run that agrees; give one of them, or its counts "
                      "would be added twice");
    hosts.back().source = "alpha.json";
    CHECK_THROWS_WITH(merge_host_runs(hosts, false),
                      Catch::StartsWith("alpha.json is given twice: each report must count once"));
}

TEST_CASE("merge: reports measured one after another are not summed into a rate") {
    // Three clients of 0.25 s each (report_test_support.hpp), begun at T,
    // T + 1 s and T + 2 s: the latest start, T + 2 s, comes 1.75 s after the
    // earliest end, T + 0.25 s.
    using std::chrono::seconds;
    const sctp_perf::wall_time instant{seconds(1'795'701'900)};
    sctp_perf::testing::small_run run;
    std::vector<host_run> hosts;
    for (int i = 0; i < 3; ++i) {
        run.report.measurement_began = instant + seconds(i);
        hosts.push_back(parse_host_run(report_text(run, "box"), fmt::format("{}.json", i)));
    }
    CHECK_THROWS_WITH(merge_host_runs(hosts, false),
                      "2.json began to measure 1.750 s after 0.json had finished "
                      "(measurement_began_at plus summary.duration_s): the clients did not "
                      "measure at once, so their rates do not add up (--allow-apart merges their "
                      "latencies, without a rate)");
    const auto apart = merge_host_runs(hosts, false, true);
    CHECK(apart.at_once == false);
    const auto doc = nlohmann::json::parse(merged_report_json(apart).dump());
    CHECK(doc["measured_at_once"] == false);
    CHECK(doc["ping_pong"]["round_trips"] == 21);
    CHECK(doc["ping_pong"]["round_trips_per_s"].is_null());
    std::ostringstream text;
    write_text_merged(text, apart);
    CHECK_THAT(text.str(), Catch::Contains("Not at once (--allow-apart): 2.json began to measure "
                                           "1.750 s after 0.json had finished"));
    CHECK_THAT(text.str(), Catch::Contains("totals: 21 round trips, - round trips/s in all"));

    // Overlapping by a little is at once: the rates add up.
    hosts.clear();
    for (int i = 0; i < 3; ++i) {
        run.report.measurement_began = instant + std::chrono::milliseconds(100 * i);
        hosts.push_back(parse_host_run(report_text(run, "box"), fmt::format("{}.json", i)));
    }
    const auto at_once = merge_host_runs(hosts, false);
    CHECK(at_once.at_once == true);
    CHECK(nlohmann::json::parse(
              merged_report_json(at_once).dump())["ping_pong"]["round_trips_per_s"] == 84.0);
}

TEST_CASE("merge: a number beyond what a report holds is refused, naming the key") {
    sctp_perf::testing::small_run run;
    auto doc = nlohmann::json::parse(report_text(run, "alpha"));
    doc["summary"]["duration_s"] = -1.0;
    CHECK_THROWS_WITH(parse_host_run(doc.dump(), "x.json"),
                      "x.json has summary.duration_s = -1.0, below 0 s, the least duration a "
                      "report can hold: the report was altered");
    doc = nlohmann::json::parse(report_text(run, "alpha"));
    doc["summary"]["mean_us"] = "2";
    CHECK_THROWS_WITH(parse_host_run(doc.dump(), "x.json"),
                      "x.json has summary.mean_us = \"2\", a text where a number belongs");
}

TEST_CASE("merge: a measurement start that is not a time is refused") {
    sctp_perf::testing::small_run run;
    run.report.measurement_began = sctp_perf::wall_time{std::chrono::seconds(1'795'701'900)};
    auto doc = nlohmann::json::parse(report_text(run, "alpha"));
    doc["environment"]["measurement_began_at"] = "2026-11-26 14:05";
    CHECK_THROWS_WITH(
        parse_host_run(doc.dump(), "x.json"),
        Catch::Contains("x.json: environment.measurement_began_at '2026-11-26 14:05'") &&
            Catch::Contains("altered"));
}

namespace {

sctp_perf::histogram_log log_of(
    std::int64_t start_ms,
    const std::vector<std::pair<std::int64_t, log_linear_histogram>>& lengths_and_histograms,
    std::int64_t first_start_ms = 0) {
    std::ostringstream out;
    using namespace std::chrono;
    sctp_perf::histogram_log_writer writer(out, system_clock::time_point(milliseconds(start_ms)));
    std::int64_t at = first_start_ms;
    for (const auto& [length, h] : lengths_and_histograms) {
        writer.write_interval(milliseconds(at), milliseconds(length), h);
        writer.write_interval(milliseconds(at), milliseconds(length), h, "uncorrected");
        at += length;
    }
    std::istringstream in(out.str());
    return sctp_perf::read_histogram_log(in, "log");
}

}  // namespace

TEST_CASE("merge logs: intervals aligned by absolute start, added per interval and tag") {
    // Log A starts at T, with intervals [0, 1 s) and a last one of 0.412 s;
    // log B starts 3 ms later (as clients given one --start-at do), with two
    // whole intervals. Each B interval lands on the A interval 3 ms before it.
    constexpr std::int64_t t = 1'700'000'000'000;
    const auto a1 = histogram_of({1000, 2000});
    const auto a2 = histogram_of({3000});
    const auto b1 = histogram_of({1500});
    const auto b2 = histogram_of({2500, 100'000});
    const auto a = log_of(t, {{1000, a1}, {412, a2}});
    const auto b = log_of(t + 3, {{1000, b1}, {1000, b2}});
    const auto merged = merge_histogram_logs({a, b}, {"a.hlog", "b.hlog"});
    CHECK(merged.interval_ms == 1000);
    CHECK(merged.start_time_ms == t);
    CHECK(merged.largest_misalignment_ms == 3);
    CHECK(merged.input_counts == std::vector<std::uint64_t>{6, 6});
    CHECK(merged.merged_count == 12);
    CHECK(merged.tags == std::vector<std::string>{"", "uncorrected"});
    REQUIRE(merged.intervals.size() == 4);  // 2 places x 2 series
    CHECK(merged.intervals[2].start_ms == 1000);
    CHECK(merged.intervals[2].length_ms == 1000);  // the longer of 412 and 1000 ms

    std::ostringstream out;
    write_merged_log(out, merged);
    std::istringstream in(out.str());
    const auto back = sctp_perf::read_histogram_log(in, "merged.hlog");
    REQUIRE(back.intervals.size() == 4);
    CHECK(back.start_time_ms == t);
    auto second = a2;
    second.merge(b2);
    const auto decoded = sctp_perf::decode_compressed_histogram(back.intervals[2].histogram_base64);
    CHECK(back.intervals[2].tag.empty());
    CHECK(decoded.count() == 3);
    for (std::size_t i = 0; i < decoded.counts().size(); ++i) {
        REQUIRE(decoded.counts()[i] == second.counts()[i]);
    }
}

TEST_CASE("merge logs: a log that starts before the first moves the merged start back") {
    constexpr std::int64_t t = 1'700'000'000'000;
    const auto h = histogram_of({1000});
    const auto a = log_of(t, {{1000, h}});
    const auto b = log_of(t - 998, {{1000, h}, {1000, h}});
    const auto merged = merge_histogram_logs({a, b}, {"a.hlog", "b.hlog"});
    CHECK(merged.start_time_ms == t - 1000);
    CHECK(merged.intervals.front().start_ms == 0);
    CHECK(merged.largest_misalignment_ms == 2);
}

TEST_CASE("merge logs: one log given twice is refused") {
    constexpr std::int64_t t = 1'700'000'000'000;
    const auto h = histogram_of({1000});
    const auto a = log_of(t, {{1000, h}});
    const auto b = log_of(t + 5, {{1000, h}});
    CHECK_NOTHROW(merge_histogram_logs({a, b}, {"a.hlog", "b.hlog"}));
    CHECK_THROWS_WITH(merge_histogram_logs({a, b, a}, {"a.hlog", "b.hlog", "a.hlog"}),
                      "a.hlog is given twice: each log must count once, or its values would be "
                      "added twice");
    CHECK_THROWS_WITH(merge_histogram_logs({a, a}, {"a.hlog", "copy.hlog"}),
                      Catch::StartsWith("a.hlog and copy.hlog are the same log"));
}

TEST_CASE("merge logs: intervals of different lengths are refused") {
    constexpr std::int64_t t = 1'700'000'000'000;
    const auto h = histogram_of({1000});
    const auto a = log_of(t, {{1000, h}, {1000, h}});
    const auto b = log_of(t, {{2000, h}, {2000, h}});
    CHECK_THROWS_WITH(merge_histogram_logs({a, b}, {"a.hlog", "b.hlog"}),
                      Catch::Contains("a.hlog has intervals of 1.000 s, another log of 2.000 s"));
}

// A run's last interval ends with the run: log A's last replies came 4 ms
// after its second interval's nominal end, so that interval is 1.004 s long
// (no third one was begun for them); log B's ended on time. Both are logs of
// 1 s intervals, and their two intervals add up one to one.
TEST_CASE("merge logs: a last interval a few ms long or short is the same length") {
    constexpr std::int64_t t = 1'700'000'000'000;
    const auto h = histogram_of({1000});
    const auto a = log_of(t, {{1000, h}, {1004, h}});
    const auto b = log_of(t, {{1000, h}, {1000, h}});
    const auto merged = merge_histogram_logs({a, b}, {"a.hlog", "b.hlog"});
    CHECK(merged.interval_ms == 1000);
    CHECK(merged.merged_count == 8);  // 2 logs x 2 intervals x 2 tags, one sample each
    // A first interval of 1 s against one of 2 s is still refused, whatever
    // the last intervals hold.
    const auto c = log_of(t, {{2000, h}, {1000, h}});
    CHECK_THROWS_WITH(merge_histogram_logs({a, c}, {"a.hlog", "c.hlog"}),
                      Catch::Contains("has intervals of"));
}

TEST_CASE("merge: the command line, and the rules a merge adds") {
    std::ostringstream out;
    const char* reports[] = {"sctp-perf-compare", "--merge", "a.json", "b.json", "-o", "m.json"};
    const auto options = parse_compare_options(static_cast<int>(std::size(reports)), reports, out);
    REQUIRE(options);
    CHECK(options->action == compare_action::merge_reports);
    CHECK(options->merge_paths == std::vector<std::string>{"a.json", "b.json"});
    CHECK(options->output_file == "m.json");

    const char* logs[] = {"sctp-perf-compare", "--merge-logs", "a.hlog", "b.hlog", "-o", "m.hlog"};
    CHECK(parse_compare_options(static_cast<int>(std::size(logs)), logs, out)->action ==
          compare_action::merge_logs);

    const char* bad[] = {
        "sctp-perf-compare", "--merge-logs", "a.hlog", "--a", "x.json", "--plot", "p.png",
        "--allow-different"};
    try {
        parse_compare_options(static_cast<int>(std::size(bad)), bad, out);
        FAIL("accepted");
    } catch (const sctp_perf::usage_error_list& e) {
        const auto& sentences = e.sentences();
        REQUIRE(sentences.size() == 5);
        CHECK_THAT(sentences[0], Catch::Contains("two or more files to merge, not 1"));
        CHECK_THAT(sentences[1], Catch::Contains("--a and --b compare"));
        CHECK_THAT(sentences[2], Catch::Contains("--plot are for comparisons"));
        CHECK_THAT(sentences[3], Catch::Contains("needs -o FILE"));
        CHECK_THAT(sentences[4], Catch::Contains("--allow-different is for reports"));
    }
    const char* output_alone[] = {"sctp-perf-compare", "--a", "x", "--b", "y", "-o", "z"};
    CHECK_THROWS_WITH(
        parse_compare_options(static_cast<int>(std::size(output_alone)), output_alone, out),
        Catch::Contains("-o is for --merge and --merge-logs"));
}
