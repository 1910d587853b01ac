// SPDX-License-Identifier: Apache-2.0
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "compare/compare_options.hpp"
#include "compare/compare_report.hpp"
#include "compare/comparison.hpp"
#include "compare/report_reader.hpp"
#include "compare/spectrum_plot.hpp"
#include "report/run_report.hpp"
#include "report_test_support.hpp"
#include "text_lines.hpp"

using namespace sctp_perf::compare;
using Catch::Matchers::Contains;

namespace {

// A ratio interval around `ratio` from `low` to `high`.
sctp_perf::ratio_interval interval(double low, double high) {
    return {(low + high) / 2.0, low, high};
}

// A comparison row of one percentile with the given ratio interval.
percentile_comparison row_with(compared_percentile percentile, double low, double high) {
    percentile_comparison row;
    row.percentile = percentile;
    row.ratio = interval(low, high);
    return row;
}

// A plain report: a ping-pong run over TCP, 64-byte requests, as a client
// writes it (the members a comparison reads, and a few it does not).
nlohmann::json plain_report(double p50_us = 14.095) {
    return {{"tool", "sctp-perf"},
            {"tool_version", "1.0.0"},
            {"format_version", 2},
            {"program", "SOCK_STREAM_clt"},
            {"interrupted", false},
            {"interrupted_by", nullptr},
            {"config",
             {{"service", "stream"},
              {"transport", "tcp"},
              {"nagle", false},
              {"payload_bytes", 64},
              {"reply_bytes", 2},
              {"mode", "ping-pong"}}},
            {"percentiles",
             {{"p50_us", p50_us},
              {"p90_us", 15.2},
              {"p99_us", 19.0},
              {"p99_9_us", 89.2},
              {"p99_99_us", 96.4},
              {"max_us", 96.4}}}};
}

// One element of a report's "runs": its own percentiles and summary.
nlohmann::json run_of(double p50_us) {
    return {{"percentiles",
             {{"p50_us", p50_us},
              {"p90_us", 20},
              {"p99_us", 30},
              {"p99_9_us", 40},
              {"p99_99_us", 50},
              {"max_us", 60}}},
            {"summary", {{"num_points", 1000}}}};
}

std::string refusal_of(const std::string& text) {
    try {
        parse_report(text, "x.json");
    } catch (const input_error& e) {
        return e.what();
    }
    return "(accepted)";
}

side_runs side_of(std::vector<double> p50s, const std::string& path) {
    side_runs side;
    side.paths = {path};
    side.config = {"stream", "tcp", "ping-pong", 64, 2, false};
    for (const double p50 : p50s) {
        side.files.push_back(path + "/" + std::to_string(side.files.size()) + ".json");
        side.runs.push_back({p50, p50 * 1.1, p50 * 2, p50 * 5, p50 * 10});
    }
    return side;
}

}  // namespace

TEST_CASE("compare: a verdict needs the whole interval beyond the threshold") {
    const double slower_edge = 1.0 + 0.05;
    const double faster_edge = 1.0 - 0.05;
    CHECK(judge(interval(slower_edge, 1.3), 0.05) == verdict::no_difference);
    CHECK(judge(interval(std::nextafter(slower_edge, 2.0), 1.3), 0.05) == verdict::slower);
    CHECK(judge(interval(0.7, faster_edge), 0.05) == verdict::no_difference);
    CHECK(judge(interval(0.7, std::nextafter(faster_edge, 0.0)), 0.05) == verdict::faster);
    // An interval straddling 1 is never a difference, however wide.
    CHECK(judge(interval(0.5, 2.0), 0.05) == verdict::no_difference);
    // With no threshold, any interval clear of 1.
    CHECK(judge(interval(1.001, 1.002), 0.0) == verdict::slower);
    CHECK(name_of(verdict::no_difference) == "no difference");
}

TEST_CASE("compare: the gate exits 3 only when an interval lies wholly above its limit") {
    const std::vector<percentile_comparison> rows{
        row_with(compared_percentile::p50, 1.0 + 0.03, 1.10),
        row_with(compared_percentile::p99, 0.98, 1.04),
    };
    SECTION("p50 at exactly 1 + 3 %: passes") {
        const std::vector<gate_rule> rules{{compared_percentile::p50, 0.03}};
        const auto outcomes = apply_gate(rows, rules);
        REQUIRE(outcomes.size() == 1);
        CHECK_FALSE(outcomes[0].failed);
        CHECK(gate_exit_status(outcomes) == 0);
    }
    SECTION("p50 with a threshold just under its low end: fails") {
        const std::vector<gate_rule> rules{{compared_percentile::p50, 0.029999},
                                           {compared_percentile::p99, 0.05}};
        const auto outcomes = apply_gate(rows, rules);
        REQUIRE(outcomes.size() == 2);
        CHECK(outcomes[0].failed);
        CHECK_FALSE(outcomes[1].failed);
        CHECK(gate_exit_status(outcomes) == exit_slower);
        CHECK(exit_slower == 3);
    }
    SECTION("no rule: passes") {
        CHECK(gate_exit_status(apply_gate(rows, std::vector<gate_rule>{})) == 0);
    }
}

TEST_CASE("compare: percentages and gate rules as the options take them") {
    CHECK(read_percent("5%") == Approx(0.05));
    CHECK(read_percent("5") == Approx(0.05));
    CHECK(read_percent("2.5%") == Approx(0.025));
    CHECK(read_percent("0") == 0.0);
    CHECK_FALSE(read_percent("-1%"));
    CHECK_FALSE(read_percent("five"));
    CHECK_FALSE(read_percent("%"));
    CHECK_FALSE(read_percent("5%%"));

    std::vector<std::string> errors;
    const auto rules = read_gate_rules("p99:5%,p50:3%,p99.9,max:100", 0.07, errors);
    CHECK(errors.empty());
    REQUIRE(rules.size() == 4);
    CHECK(rules[0].percentile == compared_percentile::p99);
    CHECK(rules[0].threshold_fraction == Approx(0.05));
    CHECK(rules[1].percentile == compared_percentile::p50);
    CHECK(rules[1].threshold_fraction == Approx(0.03));
    CHECK(rules[2].percentile == compared_percentile::p99_9);
    CHECK(rules[2].threshold_fraction == Approx(0.07));  // --threshold's
    CHECK(rules[3].threshold_fraction == Approx(1.0));

    read_gate_rules("p95:5%,p50:x,p50:1,p50:2", 0.05, errors);
    REQUIRE(errors.size() == 3);
    CHECK_THAT(errors[0], Contains("'p95' is not a percentile compared"));
    CHECK_THAT(errors[1], Contains("'p50:x' must be PERCENTILE:PERCENT"));
    CHECK_THAT(errors[2], Contains("names p50 twice"));
}

TEST_CASE("compare: the command line, and every broken rule at once") {
    std::ostringstream out;
    const char* good[] = {"sctp-perf-compare", "--a",    "x.json",   "y.json", "-b", "z",
                          "--fail-if-slower",  "p99:5%", "--format", "json"};
    const auto options = parse_compare_options(static_cast<int>(std::size(good)), good, out);
    REQUIRE(options);
    CHECK(options->a_paths == std::vector<std::string>{"x.json", "y.json"});
    CHECK(options->b_paths == std::vector<std::string>{"z"});
    CHECK(options->format == output_format::json);
    CHECK(options->threshold_fraction == Approx(0.05));
    CHECK(options->fail_if_slower.size() == 1);

    const char* bad[] = {"sctp-perf-compare", "--threshold", "100%", "--format", "csv"};
    try {
        parse_compare_options(static_cast<int>(std::size(bad)), bad, out);
        FAIL("accepted");
    } catch (const sctp_perf::usage_error_list& e) {
        const auto& sentences = e.sentences();
        REQUIRE(sentences.size() == 4);
        CHECK_THAT(sentences[0], Contains("--a PATH"));
        CHECK_THAT(sentences[1], Contains("--b PATH"));
        CHECK_THAT(sentences[2], Contains("--threshold must be below 100%"));
        CHECK_THAT(sentences[3], Contains("--format must be text or json, not 'csv'"));
    }

    const char* help[] = {"sctp-perf-compare", "--help"};
    CHECK_FALSE(parse_compare_options(2, help, out));
    CHECK(out.str().rfind("sctp-perf-compare - ", 0) == 0);  // help2man's NAME line
}

TEST_CASE("compare: report reader on plain reports and reports with runs") {
    SECTION("a plain report is one run") {
        const auto report = parse_report(plain_report().dump(2), "a1.json");
        CHECK(report.config.transport == "tcp");
        CHECK(report.config.service == "stream");
        CHECK(report.config.mode == "ping-pong");
        CHECK(report.config.payload_bytes == 64);
        CHECK(report.config.reply_bytes == 2);
        REQUIRE(report.runs.size() == 1);
        CHECK(report.runs[0][0] == 14.095);  // p50
        CHECK(report.runs[0][3] == 89.2);    // p99.9
        CHECK(report.runs[0][4] == 96.4);    // max
    }
    SECTION("a report with runs is each of its runs; its own figures are not read") {
        auto doc = plain_report();
        doc["runs"] = {run_of(11), run_of(12), run_of(13)};
        doc["aggregate"] = {{"p50_us", 12}};
        const auto report = parse_report(doc.dump(), "r.json");
        REQUIRE(report.runs.size() == 3);
        CHECK(report.runs[0][0] == 11.0);
        CHECK(report.runs[2][0] == 13.0);
        CHECK(report.runs[1][4] == 60.0);
    }
}

TEST_CASE("compare: report reader refuses what would mislead, naming the file and why") {
    CHECK_THAT(refusal_of("p50 14.1 us"),
               Contains("x.json is not an sctp-perf report: it is not JSON"));
    CHECK_THAT(refusal_of(nlohmann::json{{"tool", "iperf3"}}.dump()),
               Contains("x.json is not an sctp-perf report"));
    const nlohmann::json failed = {
        {"tool", "sctp-perf"},
        {"format_version", 2},
        {"program", "SOCK_STREAM_clt"},
        {"error", "cannot connect to 127.0.0.1:45453 (Connection refused)"},
        {"exit_code", 1}};
    CHECK_THAT(refusal_of(failed.dump()),
               Contains("x.json is the report of a failed run, with no figures to compare: cannot "
                        "connect to 127.0.0.1:45453"));
    auto interrupted = plain_report();
    interrupted["interrupted"] = true;
    interrupted["interrupted_by"] = "SIGINT";
    CHECK(refusal_of(interrupted.dump()) ==
          "x.json is the report of an interrupted run (SIGINT): its figures cover only part of "
          "the run");
    const nlohmann::json sweep = {
        {"tool", "sctp-perf"}, {"format_version", 1}, {"program", "run_spectrum.pl"}};
    CHECK_THAT(refusal_of(sweep.dump()),
               Contains("x.json was written by run_spectrum.pl, not by a client: give the "
                        "JSON reports of SOCK_STREAM_clt or SOCK_SEQPACK_clt (--format json)"));
    auto old = plain_report();
    old["format_version"] = 1;
    CHECK_THAT(refusal_of(old.dump()), Contains("x.json is in report format 1"));
    auto empty = plain_report();
    empty["percentiles"]["p50_us"] = nullptr;
    CHECK_THAT(refusal_of(empty.dump()),
               Contains("x.json has no percentiles.p50_us: the run timed no round trip"));
    CHECK_THAT(refusal_of(plain_report(0.0).dump()), Contains("not a positive time"));
    auto failed_run = plain_report();
    failed_run["runs"] = {run_of(11), {{"error", "the peer went silent"}}};
    CHECK_THAT(refusal_of(failed_run.dump()),
               Contains("run 2 of x.json is the report of a failed run"));
    auto no_runs = plain_report();
    no_runs["runs"] = nlohmann::json::array();
    CHECK_THAT(refusal_of(no_runs.dump()), Contains("not a list of runs"));
}

TEST_CASE("compare: a side mixing configurations is refused, differences name both sides") {
    const auto tcp = parse_report(plain_report().dump(), "a/1.json");
    auto sctp_doc = plain_report();
    sctp_doc["config"]["transport"] = "sctp";
    const auto sctp = parse_report(sctp_doc.dump(), "a/2.json");
    try {
        gather_side('A', {"a"}, {tcp, sctp});
        FAIL("accepted");
    } catch (const input_error& e) {
        CHECK(std::string(e.what()) ==
              "the A side mixes configurations, so its runs measure different things: a/1.json "
              "is tcp, a/2.json is sctp");
    }
    const auto side = gather_side('A', {"a"}, {tcp, tcp});
    CHECK(side.runs.size() == 2);
    CHECK(side.files == std::vector<std::string>{"a/1.json", "a/1.json"});

    run_config a{"stream", "tcp", "ping-pong", 64, 2, false};
    run_config b{"seqpack", "sctp", "rate", 16, 16, true};
    const auto differences = config_differences(a, b);
    REQUIRE(differences.size() == 5);
    CHECK(differences[0] == "A is tcp, B is sctp");
    CHECK(differences[1] == "A uses stream sockets, B seqpack sockets");
    CHECK(differences[2] == "A runs ping-pong, B runs rate");
    CHECK(differences[3] == "A sends 64-byte requests, B 16-byte requests");
    CHECK(differences[4] == "A gets 2-byte replies, B 16-byte replies");
    b = a;
    b.nagle = true;  // what is being compared, not a reason to refuse
    CHECK(config_differences(a, b).empty());
    CHECK(different_sides_sentence(std::vector<std::string>{"A is tcp, B is sctp"}) ==
          "A and B measure different things (A is tcp, B is sctp); compare them all the same "
          "with --allow-different");
}

TEST_CASE("compare: the text and JSON reports of a clear difference") {
    // B's p50 is twice A's in every run: 20..24 against 10..12.
    auto result =
        compare_runs(side_of({10, 11, 12, 11, 10}, "a"), side_of({20, 22, 24, 22, 21}, "b"), {},
                     {{compared_percentile::p50, 0.5}});
    REQUIRE(result.rows.size() == 5);
    const auto& p50 = result.rows[0];
    CHECK(p50.a.median_us == 11.0);
    CHECK(p50.b.median_us == 22.0);
    CHECK(p50.ratio.ratio == 2.0);
    CHECK(p50.result == verdict::slower);
    // Ties within each side (10, 11 twice; 22 twice) but none across: U_a = 0,
    // normal approximation.
    CHECK(p50.test.u_a == 0.0);
    CHECK(p50.test.method == sctp_perf::u_test_method::normal);
    CHECK(p50.a.median_interval_us.coverage == Approx(0.9375));
    CHECK(result.exit_status == exit_slower);
    CHECK(result.warnings.empty());

    std::ostringstream text;
    write_text_comparison(text, result);
    const auto lines = sctp_perf::testing::lines_of(text.str());
    CHECK(lines[0] ==
          "A: 5 runs from a (5 reports): tcp stream, ping-pong, 64-byte requests, 2-byte "
          "replies, Nagle off");
    CHECK_THAT(text.str(), Contains("percentile  A median us  B median us"));
    CHECK_THAT(text.str(), Contains("gate --fail-if-slower: FAILED (exit 3)"));
    bool p50_row = false;
    for (const auto& line : lines) {
        p50_row =
            p50_row || (line.rfind("p50 ", 0) == 0 && line.find("11.000") != std::string::npos &&
                        line.find("22.000") != std::string::npos && line.ends_with("slower"));
    }
    CHECK(p50_row);

    std::ostringstream json_text;
    write_json_comparison(json_text, result);
    const auto doc = nlohmann::json::parse(json_text.str());
    CHECK(doc["program"] == "sctp-perf-compare");
    CHECK(doc["a"]["runs"] == 5);
    CHECK(doc["a"]["config"]["transport"] == "tcp");
    CHECK(doc["threshold_percent"] == 5.0);
    REQUIRE(doc["percentiles"].size() == 5);
    const auto& row = doc["percentiles"][0];
    CHECK(row["percentile"] == "p50");
    CHECK(row["a"]["median_us"] == 11.0);
    CHECK(row["a"]["median_interval"]["coverage_percent"] == 93.75);
    CHECK(row["a"]["runs_us"].size() == 5);
    CHECK(row["ratio"] == 2.0);
    CHECK(row["verdict"] == "slower");
    CHECK(row["p_method"] == "normal");
    CHECK(doc["percentiles"][4]["percentile"] == "max");
    CHECK(doc["gate"]["failed"] == true);
    CHECK(doc["gate"]["rules"][0]["percentile"] == "p50");
    CHECK(doc["gate"]["rules"][0]["threshold_percent"] == 50.0);
    CHECK(doc["exit_code"] == 3);
}

TEST_CASE("compare: fewer than 5 runs a side is warned of, naming the count") {
    const auto result =
        compare_runs(side_of({10, 11, 12}, "a"), side_of({10, 11, 12, 13, 14}, "b"), {}, {});
    REQUIRE(result.warnings.size() == 1);
    CHECK_THAT(result.warnings[0], Contains("A has only 3 runs"));
    CHECK(result.exit_status == 0);
}

TEST_CASE("compare: the plot script draws a percentile spectrum") {
    const auto result = compare_runs(side_of({10, 11, 12, 11, 10}, "a"),
                                     side_of({20, 22, 24, 22, 21}, "b"), {}, {});
    const auto script = spectrum_plot_script(result, "it's.png");
    CHECK_THAT(script, Contains("set output 'it''s.png'"));
    CHECK_THAT(script, Contains("set logscale x 10"));
    // Tic labels are formats in gnuplot: %% prints a percent sign.
    CHECK_THAT(script,
               Contains("set xtics ('50%%' 2, '90%%' 10, '99%%' 100, '99.9%%' 1000, 'max' 10000)"));
    // p50 of A: x = 1/(1 - 0.5) = 2, median 11, its interval [10, 12].
    CHECK_THAT(script,
               Contains("$A << EOD\n# 1/(1-percentile) median_us low_us high_us\n2 11 10 12\n"));
    CHECK_THAT(script, Contains("with filledcurves"));
    CHECK_THAT(script, Contains("title 'A: the median''s 93.75 % interval over runs'"));
}

TEST_CASE("compare: below the least number of runs no row has a verdict, and a gate exits 4") {
    // B's p50 is twice A's in each of 3 runs a side: the interval lies far
    // above 1.05, but 3 runs are below the 5 a verdict needs
    // (least_runs_per_side(0.95)).
    auto result = compare_runs(side_of({10, 11, 12}, "a"), side_of({20, 22, 24}, "b"), {},
                               {{compared_percentile::p50, 0.05}});
    CHECK(result.least_runs == 5);
    REQUIRE(result.rows.size() == 5);
    for (const auto& row : result.rows) {
        CHECK(row.result == verdict::too_few_runs);
        CHECK_FALSE(row.power);
    }
    CHECK(result.rows[0].ratio.low > 1.05);  // the interval is still shown
    REQUIRE(result.gate.size() == 1);
    CHECK_FALSE(result.gate[0].decided);
    CHECK_FALSE(result.gate[0].failed);
    CHECK(result.exit_status == exit_too_few_runs);
    CHECK(exit_too_few_runs == 4);

    std::ostringstream text;
    write_text_comparison(text, result);
    const auto lines = sctp_perf::testing::lines_of(text.str());
    // Each of the five rows, and the gate's line.
    CHECK(std::count_if(lines.begin(), lines.end(), [](const std::string& line) {
              return line.ends_with("too few runs for a verdict (n = 3, at least 5 needed)");
          }) == 6);
    CHECK_THAT(text.str(), Contains("gate --fail-if-slower: NOT DECIDED (exit 4): too few runs "
                                    "for a verdict (n = 3, at least 5 needed)"));
    CHECK_THAT(text.str(), Contains("  p50 slower by over 5 %: not decided, too few runs"));
    CHECK_THAT(text.str(), Contains("A verdict needs 5 runs a side or more"));

    std::ostringstream json_text;
    write_json_comparison(json_text, result);
    const auto doc = nlohmann::json::parse(json_text.str());
    CHECK(doc["least_runs_per_side"] == 5);
    CHECK(doc["percentiles"][0]["verdict"] == "too few runs");
    CHECK(doc["percentiles"][0]["power"].is_null());
    CHECK(doc["gate"]["decided"] == false);
    CHECK(doc["gate"]["failed"] == false);
    CHECK(doc["gate"]["rules"][0]["decided"] == false);
    CHECK(doc["exit_code"] == 4);

    // Without a gate, too few runs is no failure: the table is the answer.
    CHECK(
        compare_runs(side_of({10, 11, 12}, "a"), side_of({20, 22, 24}, "b"), {}, {}).exit_status ==
        0);
    // One side short is enough.
    CHECK(compare_runs(side_of({10, 11, 12, 11, 10}, "a"), side_of({20, 22, 24, 22}, "b"), {},
                       {{compared_percentile::p50, 0.05}})
              .exit_status == exit_too_few_runs);
    // A slower row beats an undecided one: slower is the stronger news.
    std::vector<gate_outcome> outcomes(2);
    outcomes[0].decided = false;
    outcomes[1].failed = true;
    CHECK(gate_exit_status(outcomes) == exit_slower);
}

TEST_CASE("compare: the power of a comparison, by hand") {
    // Ratio 1.0 in [0.9, 1.1], threshold 5 %, 5 runs a side. Moved to ratio
    // R, the interval is [0.9 R, 1.1 R]: slower once 0.9 R > 1.05, R >
    // 1.05 / 0.9 = 1.16667; faster once 1.1 R < 0.95, R < 0.86364.
    // The wider half, ln(1 / 0.9) = 0.105361, against ln 1.05 = 0.048790:
    // (0.105361 / 0.048790)^2 = 4.66328 times the runs, 5 x 4.66328 =
    // 23.3, so 24 a side.
    const sctp_perf::ratio_interval ratio{1.0, 0.9, 1.1};
    const auto power = power_of(ratio, 0.05, 5, 5, 5);
    CHECK(power.slower_ratio == Approx(1.05 / 0.9));
    CHECK(power.faster_ratio == Approx(0.95 / 1.1));
    REQUIRE(power.runs_per_side);
    CHECK(*power.runs_per_side == 24);
    // 5 and 20 runs spread as 2 / (1/5 + 1/20) = 8 a side: 8 x 4.66328 = 37.3.
    CHECK(*power_of(ratio, 0.05, 5, 20, 5).runs_per_side == 38);
    // An interval of no width needs only the least number of runs.
    CHECK(*power_of({1.0, 1.0, 1.0}, 0.05, 5, 5, 5).runs_per_side == 5);
    // No number of runs resolves a threshold of 0.
    CHECK_FALSE(power_of(ratio, 0.0, 5, 5, 5).runs_per_side);
    // Far beyond any count: a billion, not an overflow.
    CHECK(*power_of({1.0, 1e-6, 1e6}, 1e-9, 5, 5, 5).runs_per_side == 1'000'000'000);

    // In the table, the JSON, and the gate's lines.
    auto result =
        compare_runs(side_of({10, 11, 12, 11, 10}, "a"), side_of({10, 12, 11, 10, 11}, "b"), {},
                     {{compared_percentile::p50, 0.05}});
    REQUIRE(result.rows[0].power);
    const auto& p50 = *result.rows[0].power;
    CHECK(p50.slower_ratio == Approx(1.05 * result.rows[0].ratio.ratio / result.rows[0].ratio.low));
    std::ostringstream text;
    write_text_comparison(text, result);
    CHECK_THAT(text.str(), Contains("could call B/A  runs for 5 %  verdict for B"));
    CHECK_THAT(text.str(),
               Contains(fmt::format("<{:.3f} or >{:.3f}", p50.faster_ratio, p50.slower_ratio)));
    CHECK_THAT(text.str(), Contains(fmt::format("it could see B/A above {:.3f} only, about {} "
                                                "runs a side would resolve 5 %",
                                                p50.slower_ratio, *p50.runs_per_side)));
    std::ostringstream json_text;
    write_json_comparison(json_text, result);
    const auto doc = nlohmann::json::parse(json_text.str());
    const auto& power_doc = doc["percentiles"][0]["power"];
    CHECK(power_doc["slower_ratio"].get<double>() == Approx(p50.slower_ratio).margin(1e-5));
    CHECK(power_doc["faster_ratio"].get<double>() == Approx(p50.faster_ratio).margin(1e-5));
    CHECK(power_doc["runs_per_side_for_threshold"] == *p50.runs_per_side);
    CHECK(doc["gate"]["rules"][0]["power"]["runs_per_side_for_threshold"] == *p50.runs_per_side);
}

TEST_CASE("compare: no figure prints as inf or nan, and none widens the table past reason") {
    // Values no report may hold (the reader refuses them), compared all the
    // same: 1e-300 against 1e308 is a ratio beyond a double.
    side_runs a = side_of({1e-300, 1e-300, 1e-300, 1e-300, 1e-300}, "a");
    side_runs b = side_of({1e308, 1e308, 1e308, 1e308, 1e308}, "b");
    for (auto& run : a.runs) {
        run.fill(1e-300);
    }
    for (auto& run : b.runs) {
        run.fill(1e308);
    }
    const auto result = compare_runs(a, b, {}, {{compared_percentile::p50, 0.05}});
    std::ostringstream text;
    write_text_comparison(text, result);
    CHECK(text.str().find("inf") == std::string::npos);
    CHECK(text.str().find("nan") == std::string::npos);
    for (const auto& line : sctp_perf::testing::lines_of(text.str())) {
        CHECK(line.size() < 200);
    }
    std::ostringstream json_text;
    write_json_comparison(json_text, result);
    CHECK(json_text.str().find("inf") == std::string::npos);
    CHECK(json_text.str().find("nan") == std::string::npos);

    // Large times a report can hold print with an exponent, not 13 digits.
    const auto large = compare_runs(side_of({4e12, 4e12, 4e12, 4e12, 4e12}, "a"),
                                    side_of({5e12, 5e12, 5e12, 5e12, 5e12}, "b"), {}, {});
    std::ostringstream large_text;
    write_text_comparison(large_text, large);
    CHECK_THAT(large_text.str(), Contains("4e+12"));
    CHECK_THAT(large_text.str(), Contains("5e+12"));
}

TEST_CASE("compare: an empty or blank gate is refused, and each rule's error is said once") {
    std::vector<std::string> errors;
    CHECK(read_gate_rules("", 0.05, errors).empty());
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0], Contains("--fail-if-slower needs a list such as p99:5%,p50:3%, not "
                                   "an empty one"));
    errors.clear();
    read_gate_rules("  ", 0.05, errors);
    CHECK(errors.size() == 1);
    errors.clear();
    read_gate_rules(",", 0.05, errors);
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0], Contains("--fail-if-slower: ',' has an empty item"));
    errors.clear();
    const auto rules = read_gate_rules("p99:5%,,p50", 0.05, errors);
    CHECK(rules.size() == 2);
    CHECK(errors.size() == 1);

    std::ostringstream out;
    const char* empty[] = {"sctp-perf-compare", "--a", "x", "--b", "y", "--fail-if-slower", ""};
    try {
        parse_compare_options(static_cast<int>(std::size(empty)), empty, out);
        FAIL("accepted");
    } catch (const sctp_perf::usage_error_list& e) {
        REQUIRE(e.sentences().size() == 1);
        CHECK_THAT(e.sentences()[0], Contains("not an empty one"));
    }
    const char* comma[] = {"sctp-perf-compare", "--a", "x", "--b", "y", "--fail-if-slower", ","};
    try {
        parse_compare_options(static_cast<int>(std::size(comma)), comma, out);
        FAIL("accepted");
    } catch (const sctp_perf::usage_error_list& e) {
        CHECK(e.sentences().size() == 1);
    }
}

namespace {

// A plain report's text with one value's JSON text replaced, as an editor
// or a broken script would leave it: `key` is the percentile's key, `raw`
// its new text (which may be no JSON number at all).
std::string with_raw_percentile(const std::string& key, const std::string& raw) {
    auto text = plain_report().dump();
    const auto at = text.find("\"" + key + "\":");
    REQUIRE(at != std::string::npos);
    const auto begin = text.find(':', at) + 1;
    const auto end = text.find_first_of(",}", begin);
    return text.replace(begin, end - begin, raw);
}

}  // namespace

TEST_CASE("compare: numbers are checked where they are read, naming the file and the key") {
    CHECK(refusal_of(with_raw_percentile("p50_us", "1e400")) ==
          "x.json has percentiles.p50_us = 1e400, beyond any number a report can hold: the "
          "report was altered");
    CHECK_THAT(refusal_of(with_raw_percentile("p99_us", "nan")),
               Contains("x.json is not an sctp-perf report: it is not JSON (unreadable at byte") &&
                   Contains("in percentiles.p99_us: 'nan'; JSON has no NaN or infinity)"));
    CHECK_THAT(refusal_of(with_raw_percentile("p90_us", "-Infinity")),
               Contains("in percentiles.p90_us: '-Infinity'"));
    CHECK(refusal_of(with_raw_percentile("p50_us", "-3")) ==
          "x.json has percentiles.p50_us = -3, not a positive time");
    CHECK(refusal_of(with_raw_percentile("p50_us", "\"14.1\"")) ==
          "x.json has percentiles.p50_us = \"14.1\", a text where a number belongs");
    CHECK_THAT(refusal_of(with_raw_percentile("p50_us", "1e-300")),
               Contains("x.json has percentiles.p50_us = 1e-300, below 0.001 us"));
    CHECK_THAT(refusal_of(with_raw_percentile("max_us", "1e308")),
               Contains("x.json has percentiles.max_us = 1e+308, above 18446744073709.55 us"));
    auto runs = plain_report();
    runs["runs"] = {run_of(11), run_of(12)};
    runs["runs"][1]["percentiles"]["p99_us"] = true;
    CHECK(refusal_of(runs.dump()) == "run 2 of x.json has percentiles.p99_us = true, not a number");
    auto flows = plain_report();
    flows["config"]["flows"] = "2";
    CHECK(refusal_of(flows.dump()) == "x.json has config.flows = \"2\", not a whole number");
}

TEST_CASE("compare: a report at odds with itself is refused, naming what") {
    auto text_version = plain_report();
    text_version["format_version"] = "2";
    CHECK_THAT(refusal_of(text_version.dump()),
               Contains("x.json has format_version \"2\", a text: the clients write the report "
                        "format as a whole number"));
    CHECK(refusal_of(text_version.dump()).find("older") == std::string::npos);
    auto fraction = plain_report();
    fraction["format_version"] = 2.5;
    CHECK_THAT(refusal_of(fraction.dump()), Contains("format_version 2.5, not a whole number"));

    auto falling = plain_report(500.0);  // p50 500 us, max 96.4 us
    CHECK(refusal_of(falling.dump()) ==
          "x.json has percentiles.p50_us = 500 above percentiles.p90_us = 15.2: a percentile "
          "cannot exceed a higher one, or the maximum; the report was altered");
    auto maximum = plain_report();
    maximum["percentiles"]["max_us"] = 1.0;
    CHECK_THAT(refusal_of(maximum.dump()),
               Contains("percentiles.p99_99_us = 96.4 above percentiles.max_us = 1"));

    // A real report, its percentiles from the histogram it carries
    // (report_test_support.hpp: p50 1.9 us, p90 and above 6 us).
    sctp_perf::testing::small_run run;
    std::ostringstream out;
    sctp_perf::write_json_report(out, run.report);
    auto doc = nlohmann::json::parse(out.str());
    CHECK(parse_report(doc.dump(), "real.json").runs[0][0] == 1.9);
    doc["percentiles"]["p50_us"] = 1.5;  // still in order, but not its histogram's
    try {
        parse_report(doc.dump(), "real.json");
        FAIL("accepted");
    } catch (const input_error& e) {
        CHECK(std::string(e.what()) ==
              "real.json has percentiles.p50_us = 1.5, but its own hdr_histogram puts it at 1.9 "
              "us (within 1/1024): the report was altered");
    }
}

TEST_CASE("compare: every setting uniform within a side, the odd report named") {
    std::vector<report_runs> reports;
    for (int i = 1; i <= 5; ++i) {
        auto doc = plain_report(10.0 + i);
        doc["config"]["spin"] = false;
        doc["config"]["nagle"] = i == 4;
        reports.push_back(parse_report(doc.dump(), fmt::format("a/{}.json", i)));
    }
    try {
        gather_side('A', {"a"}, reports);
        FAIL("accepted");
    } catch (const input_error& e) {
        CHECK(std::string(e.what()) ==
              "the A side mixes configurations, so its runs measure different things: a/1.json "
              "has Nagle off, a/4.json Nagle on (4 of its 5 reports are as a/1.json)");
    }
    // Flows, rate, arrivals, batch, streams, ordering, spinning, kernel
    // stamps: each counts. A report that does not state config.timestamps
    // predates the option, and took none.
    auto load = plain_report();
    load["config"]["mode"] = "rate";
    load["config"]["flows"] = 4;
    load["config"]["rate_per_s"] = 1000;
    load["config"]["batch"] = 1;
    load["load"] = {{"arrivals", "uniform"}};
    load["sctp"] = {{"streams_used", 1}, {"unordered", false}};
    load["server"] = {{"spin", false}};
    const auto usual = parse_report(load.dump(), "b/1.json");
    CHECK(describe_settings(usual.settings) ==
          ", server spin off, kernel timestamps off, 4 flows, rate 1000/s a flow, uniform "
          "arrivals, batch 1, 1 SCTP stream, ordered delivery");
    const std::vector<std::pair<nlohmann::json::json_pointer, nlohmann::json>> changes = {
        {"/config/flows"_json_pointer, 8},        {"/config/rate_per_s"_json_pointer, 2000},
        {"/config/batch"_json_pointer, 16},       {"/load/arrivals"_json_pointer, "poisson"},
        {"/sctp/streams_used"_json_pointer, 16},  {"/sctp/unordered"_json_pointer, true},
        {"/server/spin"_json_pointer, true},      {"/config/spin"_json_pointer, true},
        {"/config/timestamps"_json_pointer, true}};
    const std::vector<std::string> sentences = {
        "b/1.json has 4 flows, b/2.json 8 flows",
        "b/1.json has rate 1000/s a flow, b/2.json rate 2000/s a flow",
        "b/1.json has batch 1, b/2.json batch 16",
        "b/1.json has uniform arrivals, b/2.json poisson arrivals",
        "b/1.json has 1 SCTP stream, b/2.json 16 SCTP streams",
        "b/1.json has ordered delivery, b/2.json unordered delivery",
        "b/1.json has server spin off, b/2.json server spin on",
        "b/2.json has spin on, b/1.json does not say",
        "b/1.json has kernel timestamps off, b/2.json kernel timestamps on"};
    for (std::size_t i = 0; i < changes.size(); ++i) {
        auto odd = load;
        odd[changes[i].first] = changes[i].second;
        try {
            gather_side('B', {"b"}, {usual, parse_report(odd.dump(), "b/2.json")});
            FAIL("accepted");
        } catch (const input_error& e) {
            CHECK_THAT(std::string(e.what()), Contains(sentences[i]));
        }
    }
    // A side at one with itself is described by its settings.
    const auto side = gather_side('B', {"b"}, {usual});
    CHECK(side.settings.flows == 4u);
}

TEST_CASE("compare: each report counts once, on one side or on both") {
    const auto one = parse_report(plain_report(11.0).dump(), "a/1.json");
    const auto two = parse_report(plain_report(12.0).dump(), "a/2.json");
    // The same text under another name, formatted differently: one report.
    const auto copy = parse_report(plain_report(11.0).dump(4), "a/copy.json");
    const auto again = parse_report(plain_report(11.0).dump(), "a/1.json");
    const auto refusal = [](const std::vector<report_runs>& a, const std::vector<report_runs>& b) {
        try {
            refuse_repeated_reports(a, b);
        } catch (const input_error& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    CHECK(refusal({one, two}, {}) == "(accepted)");
    CHECK(refusal({one, two, copy}, {}) ==
          "the A side: a/1.json and a/copy.json are the same report (the same content): a copy "
          "would count as another run that agrees; give one of them");
    CHECK(refusal({one, two, again}, {}) ==
          "the A side: a/1.json is given twice: each report must count once");
    CHECK(refusal({two}, {one, copy}) ==
          "the B side: a/1.json and a/copy.json are the same report (the same content): a copy "
          "would count as another run that agrees; give one of them");
    CHECK(refusal({one, two}, {copy}) ==
          "a/1.json (on the A side) and a/copy.json (on the B side) are the same report: a "
          "report on both sides compares its runs with themselves; give it to one side");
    // Runs of one --repeat report may agree: they are not reports.
    auto repeated = plain_report();
    repeated["runs"] = {run_of(11), run_of(11)};
    CHECK(parse_report(repeated.dump(), "r.json").runs.size() == 2);
}
