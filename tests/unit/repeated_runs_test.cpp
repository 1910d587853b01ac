// SPDX-License-Identifier: Apache-2.0
// Repeated runs (--repeat): the pooled histograms, the load results pooled,
// the figures over runs on values checked by hand, and both reports of a
// repeated run, read back by sctp-perf-compare.

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "client/load/pooled_load.hpp"
#include "compare/report_reader.hpp"
#include "report/repeat_report.hpp"
#include "report/run_report.hpp"
#include "report_test_support.hpp"
#include "stats/latency_recorder.hpp"
#include "stats/running_stats.hpp"
#include "text_lines.hpp"

using namespace sctp_perf;
using Catch::Matchers::Contains;
using sctp_perf::testing::lines_of;

namespace {

// A run whose p50, p90, p99, p99.9 and p99.99 are p50, 2 p50, 3 p50, 4 p50
// and 5 p50, and whose p99.999, p99.9999 and max are 6 p50, microseconds,
// over 100 points (so its top percentiles are its maximum).
run_figures run_with_p50(double p50) {
    run_figures run;
    run.num_points = 100;
    run.min_us = p50 / 2;
    run.mean_us = p50;
    run.max_us = 6 * p50;
    run.percentile_us = {p50, 2 * p50, 3 * p50, 4 * p50, 5 * p50, 6 * p50, 6 * p50};
    run.duration_s = 0.5;
    return run;
}

repeat_account account_of(const std::vector<double>& p50s, unsigned asked = 0) {
    repeat_account account;
    account.asked = asked != 0 ? asked : static_cast<unsigned>(p50s.size());
    for (const double p50 : p50s) {
        account.runs.push_back(run_with_p50(p50));
    }
    return account;
}

std::string section_of(const repeat_account& account) {
    std::ostringstream out;
    write_runs_section(out, account, "round-trip time");
    return out.str();
}

// The line of `text` that starts with `start`.
std::string line_starting(const std::string& text, const std::string& start) {
    for (const auto& line : lines_of(text)) {
        if (line.rfind(start, 0) == 0) {
            return line;
        }
    }
    FAIL("no line starts with '" << start << "' in:\n" << text);
    return {};
}

// Records `rtt_ns` into `recorder`, numbering the iterations from `first`.
void record_all(latency_recorder& recorder, const std::vector<int>& rtt_ns, std::uint64_t first) {
    for (std::size_t i = 0; i < rtt_ns.size(); ++i) {
        recorder.record(std::chrono::nanoseconds(rtt_ns[i]), first + i);
    }
}

}  // namespace

TEST_CASE("repeated runs: running statistics merge as if every value were added once") {
    // {1, 3} and {5}: delta = 5 - 2 = 3, mean 2 + 3 * 1 / 3 = 3, squared
    // deviations 2 + 0 + 3^2 * 2 * 1 / 3 = 8, variance 8 / 2 = 4: those of
    // {1, 3, 5}.
    running_stats a;
    a.add(1.0);
    a.add(3.0);
    running_stats b;
    b.add(5.0);
    a.merge(b);
    CHECK(a.count() == 3);
    CHECK(a.mean() == Approx(3.0));
    CHECK(a.sample_variance() == Approx(4.0));
    CHECK(a.min() == 1.0);
    CHECK(a.max() == 5.0);
    running_stats empty;
    empty.merge(a);
    CHECK(empty.count() == 3);
    CHECK(empty.mean() == a.mean());
    a.merge(running_stats{});
    CHECK(a.count() == 3);
}

TEST_CASE("repeated runs: the pooled recorder equals one that recorded every sample") {
    // Layout 0..4 us in 4 bins, keeping 3 outliers. Run 1: 0.5, 1.5, 5.0,
    // 2.5 us (iterations 0..3); run 2: 6.0, 1.2, 4.5, 0.7, 7.0 us (its
    // iterations 0..4, pooled 4..8). Outliers above 4 us: 5.0 (pooled
    // iteration 2), 6.0 (4), 4.5 (6), 7.0 (8); the 3 farthest are 7.0, 6.0
    // and 5.0.
    const bin_layout layout{0.0, 4.0, 4, 3};
    const std::vector<int> run_1{500, 1500, 5000, 2500};
    const std::vector<int> run_2{6000, 1200, 4500, 700, 7000};
    latency_recorder pooled(layout);
    record_all(pooled, run_1, 0);
    latency_recorder second(layout);
    record_all(second, run_2, 0);
    pooled.merge(second, run_1.size());

    latency_recorder all(layout);
    record_all(all, run_1, 0);
    record_all(all, run_2, run_1.size());

    CHECK(pooled.summary().count() == 9);
    CHECK(pooled.summary().min() == all.summary().min());
    CHECK(pooled.summary().max() == all.summary().max());
    CHECK(pooled.summary().mean() == Approx(all.summary().mean()));
    CHECK(pooled.summary().sample_variance() == Approx(all.summary().sample_variance()));
    for (std::size_t i = 0; i < layout.bin_count; ++i) {
        CHECK(pooled.bins().bin(i) == all.bins().bin(i));
    }
    CHECK(pooled.bins().below() == all.bins().below());
    CHECK(pooled.bins().above() == 4);
    CHECK(pooled.bins().above() == all.bins().above());
    CHECK(pooled.bins().total() == all.bins().total());
    const auto kept = pooled.bins().outliers();
    REQUIRE(kept.size() == 3);
    CHECK(kept[0].value_us == 7.0);
    CHECK(kept[0].iteration == 8);
    CHECK(kept[1].value_us == 6.0);
    CHECK(kept[1].iteration == 4);
    CHECK(kept[2].value_us == 5.0);
    CHECK(kept[2].iteration == 2);
    const auto expected = all.bins().outliers();
    for (std::size_t i = 0; i < kept.size(); ++i) {
        CHECK(kept[i].value_us == expected[i].value_us);
        CHECK(kept[i].iteration == expected[i].iteration);
    }
    const auto pooled_counts = pooled.percentiles().counts();
    const auto all_counts = all.percentiles().counts();
    CHECK(std::equal(pooled_counts.begin(), pooled_counts.end(), all_counts.begin(),
                     all_counts.end()));
    for (const auto& p : reported_percentiles) {
        CHECK(pooled.percentiles().percentile_ns(p.parts_per_million) ==
              all.percentiles().percentile_ns(p.parts_per_million));
    }
    // p50 of the 9: rank 5 of 0.5 0.7 1.2 1.5 2.5 4.5 5.0 6.0 7.0, 2500 ns,
    // reported as its bucket's highest value: 2501 ns (2048..4095 ns in
    // buckets of 2 ns).
    CHECK(pooled.percentiles().percentile_ns(500'000) == 2501.0);
}

TEST_CASE("repeated runs: load results pool their counts, histograms and flows") {
    // Two runs of one flow: 100 then 300 messages sent, all replied; the
    // achieved rates 1000 and 3000 per second average to 2000; the client's
    // CPU, 10 % over 1 s and 40 % over 2 s, is (10 + 80) / 3 = 30 % over the
    // 3 s; the corrected latencies 10 us (run 1) and 20, 30 us (run 2) pool
    // to three points.
    const auto run = [](std::uint64_t sent, double rate, double cpu, double duration_s,
                        const std::vector<std::uint64_t>& latency_us, std::uint64_t seed) {
        load_result l;
        l.mode = protocol::test_mode::rate;
        l.flows = 1;
        l.threads = 1;
        l.seed = seed;
        l.duration_s = duration_s;
        l.sending_s = duration_s;
        l.messages_sent = sent;
        l.messages_replied = sent;
        l.rate_achieved_per_s = rate;
        l.client_cpu_percent = cpu;
        l.worker_busy_percent = {cpu};
        l.corrected = std::make_unique<log_linear_histogram>();
        l.uncorrected = std::make_unique<log_linear_histogram>();
        flow_result f;
        f.messages_sent = sent;
        f.messages_replied = sent;
        f.rate_per_s = rate;
        for (const auto us : latency_us) {
            l.corrected->record(us * 1000);
            l.uncorrected->record(us * 1000);
            f.latency.record(us * 1000);
        }
        l.per_flow.push_back(std::move(f));
        return l;
    };
    auto pooled = run(100, 1000.0, 10.0, 1.0, {10}, 7);
    pool_load_run(pooled, run(300, 3000.0, 40.0, 2.0, {20, 30}, 7), 1);
    CHECK(pooled.messages_sent == 400);
    CHECK(pooled.messages_replied == 400);
    CHECK(pooled.duration_s == 3.0);
    CHECK(pooled.sending_s == 3.0);
    CHECK(pooled.rate_achieved_per_s == Approx(2000.0));
    CHECK(pooled.client_cpu_percent == Approx(30.0));
    CHECK(pooled.worker_busy_percent == std::vector<double>{40.0});
    CHECK(pooled.corrected->count() == 3);
    CHECK(pooled.headline().max_ns() == 30'000);
    CHECK(pooled.seed == 7U);  // the same seed in both runs
    REQUIRE(pooled.per_flow.size() == 1);
    CHECK(pooled.per_flow[0].messages_sent == 400);
    CHECK(pooled.per_flow[0].rate_per_s == Approx(2000.0));
    CHECK(pooled.per_flow[0].latency.count() == 3);
    // A third run with its own seed: the pool has no one seed any more.
    pool_load_run(pooled, run(300, 3000.0, 40.0, 2.0, {20}, 8), 2);
    CHECK_FALSE(pooled.seed);
    CHECK(pooled.rate_achieved_per_s == Approx(7000.0 / 3.0));  // (1000 + 3000 + 3000) / 3
}

TEST_CASE("repeated runs: the figures over runs, by hand") {
    SECTION("5 runs: [min, max], with the 93.75 % it covers") {
        // p50s 12, 10, 15, 11, 13; sorted 10 11 12 13 15: median 12. No pair
        // of order statistics of 5 reaches 95 %: [x(1), x(5)] = [10, 15]
        // covers 1 - 2 / 2^5 = 0.9375.
        const auto rows = aggregate_over_runs(account_of({12, 10, 15, 11, 13}));
        REQUIRE(rows.size() == 8);  // 7 percentiles and max
        CHECK(rows[0].label == "p50");
        CHECK(rows[0].json_key == "p50_us");
        const auto& p50 = rows[0].over;
        CHECK(p50.runs == 5);
        CHECK(p50.median == 12.0);
        CHECK(p50.interval.low == 10.0);
        CHECK(p50.interval.high == 15.0);
        CHECK(p50.interval.coverage == Approx(0.9375));
        CHECK(p50.min == 10.0);
        CHECK(p50.max == 15.0);
        // max is 6 p50 in every run: median 72.
        CHECK(rows[6].label == "p99.9999");
        CHECK(rows[6].over.median == 72.0);
        CHECK(rows[7].label == "max");
        CHECK(rows[7].over.median == 72.0);
    }
    SECTION("10 runs: the second smallest to the second largest, 97.85 %") {
        // p50s 1..10: median (5 + 6) / 2 = 5.5. [x(2), x(9)] covers
        // 1 - 2 (1 + 10) / 1024 = 0.978515625 >= 95 %; [x(3), x(8)] only
        // 1 - 2 (1 + 10 + 45) / 1024 = 0.890625. So [2, 9].
        const auto rows = aggregate_over_runs(account_of({7, 3, 10, 1, 5, 9, 2, 8, 4, 6}));
        const auto& p50 = rows[0].over;
        CHECK(p50.median == 5.5);
        CHECK(p50.interval.low == 2.0);
        CHECK(p50.interval.high == 9.0);
        CHECK(p50.interval.coverage == Approx(0.978515625));
        CHECK(p50.min == 1.0);
        CHECK(p50.max == 10.0);
        // p99 is 3 p50: [6, 27].
        CHECK(rows[2].label == "p99");
        CHECK(rows[2].over.interval.low == 6.0);
        CHECK(rows[2].over.interval.high == 27.0);
    }
    SECTION("a run that timed nothing is left out") {
        auto account = account_of({10, 20, 30});
        account.runs[1].num_points = 0;
        const auto rows = aggregate_over_runs(account);
        CHECK(rows[0].over.runs == 2);
        CHECK(rows[0].over.median == 20.0);  // (10 + 30) / 2
    }
}

TEST_CASE("repeated runs: coverage in percent with the digits it needs") {
    CHECK(coverage_percent_text(0.978515625) == "97.85");
    CHECK(coverage_percent_text(0.9375) == "93.75");
    CHECK(coverage_percent_text(0.75) == "75");
    CHECK(coverage_percent_text(0.875) == "87.5");
    CHECK(coverage_percent_text(0.0) == "0");
}

TEST_CASE("repeated runs: a pooled iteration number is a run and an iteration in it") {
    auto account = account_of({1, 2, 3});  // 100 points each
    CHECK(locate_iteration(account, 0).run == 1);
    CHECK(locate_iteration(account, 99).iteration == 99);
    CHECK(locate_iteration(account, 100).run == 2);
    CHECK(locate_iteration(account, 100).iteration == 0);
    CHECK(locate_iteration(account, 250).run == 3);
    CHECK(locate_iteration(account, 250).iteration == 50);
}

TEST_CASE("repeated runs: the text section states each interval honestly") {
    SECTION("10 runs reach 95 %") {
        const auto text = section_of(account_of({7, 3, 10, 1, 5, 9, 2, 8, 4, 6}));
        CHECK(text.rfind("runs: 10 of the 10 asked, each connecting anew", 0) == 0);
        CHECK(line_starting(text, "\tp50 ") ==
              "\tp50            5.500  [2.000, 9.000]  95 % CI over 10 runs (order statistics, "
              "coverage 97.85 %); spread 1.000 .. 10.000");
        CHECK_THAT(text, Contains("\tmax           33.000  [12.000, 54.000]  95 % CI"));
        CHECK_THAT(text, !Contains("p99.99"));  // nor p99.999, p99.9999
        CHECK(line_starting(text, "\t  run ") ==
              "\t  run       points       p50 us       p90 us       p99 us     p99.9 us       "
              "max us");
        CHECK(line_starting(text, "\t    4 ") ==
              "\t    4          100        1.000        2.000        3.000        4.000        "
              "6.000");
    }
    SECTION("3 runs: 75 %, never called 95 %") {
        const auto text = section_of(account_of({10, 11, 12}));
        CHECK(line_starting(text, "\tp50 ") ==
              "\tp50           11.000  [10.000, 12.000]  75 % CI over 3 runs (order statistics: "
              "[min, max], as 3 runs cannot reach 95 %); spread 10.000 .. 12.000");
    }
    SECTION("runs that an interrupt or a failure ended") {
        auto interrupted = account_of({10, 11}, 5);
        interrupted.runs.back().interrupted = true;
        const auto text = section_of(interrupted);
        CHECK(text.rfind("runs: 2 of the 5 asked (interrupted)", 0) == 0);
        CHECK(line_starting(text, "\t    2 ").ends_with("  interrupted"));
        auto failed = account_of({10}, 3);
        failed.failure = "the peer closed the connection";
        const auto failed_text = section_of(failed);
        CHECK(failed_text.rfind("runs: 1 of the 3 asked (run 2 failed)", 0) == 0);
        CHECK_THAT(failed_text, Contains("\tp50           10.000  (one run: no interval)"));
    }
}

TEST_CASE("repeated runs: the JSON's runs and aggregate") {
    auto account = account_of({12, 10, 15, 11, 13});
    account.runs[0].load = load_run_counts{1000, 1000, 1000, 999, 1, 0, 500.0, 42};
    const auto runs = runs_json(account);
    REQUIRE(runs.size() == 5);
    CHECK(runs[0]["run"] == 1);
    CHECK(runs[0]["interrupted"] == false);
    CHECK(runs[0]["summary"]["num_points"] == 100);
    CHECK(runs[0]["summary"]["min_us"] == 6.0);
    CHECK(runs[0]["percentiles"]["p50_us"] == 12.0);
    CHECK(runs[0]["percentiles"]["p99_9_us"] == 48.0);
    CHECK(runs[0]["percentiles"]["p99_99_us"] == 60.0);
    CHECK(runs[0]["percentiles"]["max_us"] == 72.0);
    CHECK(runs[0]["load"]["messages_lost"] == 1);
    CHECK(runs[0]["load"]["seed"] == 42);
    CHECK_FALSE(runs[1].contains("load"));

    const auto aggregate = aggregate_json(account);
    CHECK(aggregate["runs"] == 5);
    CHECK(aggregate["runs_done"] == 5);
    CHECK(aggregate["runs_asked"] == 5);
    CHECK(aggregate["method"] == "order statistics");
    CHECK(aggregate["confidence_percent"] == 95.0);
    const auto& p50 = aggregate["percentiles"]["p50_us"];
    CHECK(p50["median_us"] == 12.0);
    CHECK(p50["low_us"] == 10.0);
    CHECK(p50["high_us"] == 15.0);
    CHECK(p50["coverage_percent"] == 93.75);
    CHECK(p50["min_us"] == 10.0);
    CHECK(p50["max_us"] == 15.0);
    std::vector<std::string> keys;
    for (const auto& [key, value] : aggregate["percentiles"].items()) {
        keys.push_back(key);
    }
    CHECK(keys == std::vector<std::string>{"p50_us", "p90_us", "p99_us", "p99_9_us", "p99_99_us",
                                           "p99_999_us", "p99_9999_us", "max_us"});
}

TEST_CASE("repeated runs: both reports of a repeated ping-pong run") {
    // The hand-checked run of report_test_support.hpp as the pool of two
    // runs: run 1 its first 3 round trips (0.5, 1.5, 1.5 us), run 2 its other
    // 4 (1.9, 5.0, 4.5, 6.0 us). The kept outliers, 6.0 (pooled iteration 6)
    // and 5.0 (4), are iterations 3 and 1 of run 2.
    sctp_perf::testing::small_run run;
    repeat_account account;
    account.asked = 2;
    latency_recorder first(run.report.options.histogram);
    record_all(first, {500, 1500, 1500}, 0);
    latency_recorder second(run.report.options.histogram);
    record_all(second, {1900, 5000, 4500, 6000}, 0);
    account.runs.push_back(figures_of_run(first, 0.1));
    account.runs.push_back(figures_of_run(second, 0.15));
    run.report.options.repeat = 2;
    run.report.repeats = &account;

    std::ostringstream text;
    write_ace_report(text, run.report);
    const auto ace = text.str();
    CHECK(ace.find("runs: 2 of the 2 asked") > ace.find("percentiles (microseconds):"));
    CHECK(ace.find("runs: 2 of the 2 asked") < ace.find("\nrun:\n"));
    CHECK_THAT(ace, Contains("\titerations: 7 measured in 2 runs, each after its own 100 "
                             "unrecorded primer iterations\n"));
    // The max of run 1 is 1.5 us, of run 2 6.0 us (exact, as maxima are):
    // median (1.5 + 6.0) / 2 = 3.75, and 2 runs cover 1 - 2 / 4 = 50 %.
    CHECK(line_starting(ace.substr(ace.find("runs:")), "\tmax ") ==
          "\tmax            3.750  [1.500, 6.000]  50 % CI over 2 runs (order statistics: [min, "
          "max], as 2 runs cannot reach 95 %); spread 1.500 .. 6.000");
    CHECK_THAT(ace, Contains("\t       6.000  run 2, iteration 3\n"));
    CHECK_THAT(ace, Contains("\t       5.000  run 2, iteration 1\n"));
    // ACE's block is still last, of all 7 points.
    CHECK_THAT(ace, Contains("num_points: 7\n"));
    CHECK(lines_of(ace).back() == "\t       5.000");

    std::ostringstream json_text;
    write_json_report(json_text, run.report);
    const auto doc = nlohmann::json::parse(json_text.str());
    CHECK(doc["format_version"] == json_format_version);
    CHECK(doc["summary"]["num_points"] == 7);
    CHECK(doc["config"]["repeat"] == 2);
    CHECK(doc["outliers"][0]["run"] == 2);
    CHECK(doc["outliers"][0]["iteration"] == 3);
    REQUIRE(doc["runs"].size() == 2);
    CHECK(doc["runs"][0]["summary"]["num_points"] == 3);
    CHECK(doc["runs"][1]["percentiles"]["max_us"] == 6.0);
    CHECK(doc["aggregate"]["percentiles"]["p50_us"]["coverage_percent"] == 50.0);
    CHECK_FALSE(doc.contains("error"));

    // sctp-perf-compare reads it as its two runs, each by its own percentiles:
    // the p50 of run 1 is rank 2 of 3, 1.5 us (exact below 2048 ns); of run
    // 2 rank 2 of 4, 4.5 us, reported as its bucket's highest value, 4503 ns
    // (4096..8191 ns in buckets of 4 ns).
    const auto read = compare::parse_report(json_text.str(), "repeat.json");
    REQUIRE(read.runs.size() == 2);
    CHECK(read.runs[0][0] == 1.5);
    CHECK(read.runs[1][0] == 4.503);
    CHECK(read.runs[0][4] == 1.5);  // the maxima
    CHECK(read.runs[1][4] == 6.0);
    CHECK(read.config.mode == "ping-pong");
}

TEST_CASE("repeated runs: a failure after the first run, in both reports") {
    sctp_perf::testing::small_run run;
    repeat_account account;
    account.asked = 4;
    account.runs.push_back(figures_of_run(run.recorder, 0.25));
    account.failure = "cannot connect to 127.0.0.1:45453 (Connection refused)";
    run.report.options.repeat = 4;
    run.report.repeats = &account;
    std::ostringstream text;
    write_ace_report(text, run.report);
    CHECK(lines_of(text.str()).front() ==
          "FAILED in run 2 of the 4 asked: cannot connect to 127.0.0.1:45453 (Connection "
          "refused): every figure below covers the 1 run done before it");
    std::ostringstream json_text;
    write_json_report(json_text, run.report);
    const auto doc = nlohmann::json::parse(json_text.str());
    CHECK(doc["error"] ==
          "run 2 of the 4 asked failed: cannot connect to 127.0.0.1:45453 (Connection refused)");
    CHECK(doc["exit_code"] == 1);
    CHECK(doc["aggregate"]["runs_asked"] == 4);
    CHECK(doc["aggregate"]["runs_done"] == 1);
}
