// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report/run_report.hpp"
#include "report_test_support.hpp"
#include "text_lines.hpp"
#include "version.hpp"

namespace {

std::string golden_path(const std::string& name) {
    // Appended in steps: GCC 12 at -O1 warns of a false out-of-bounds copy
    // in `std::string(...) + "/" + name` once other files share the
    // compiler run (the unit tests build as a unity build).
    std::string path = SCTP_PERF_GOLDEN_DIR;
    path += '/';
    path += name;
    return path;
}

// With SCTP_PERF_UPDATE_GOLDEN=1 in the environment, a changed report
// rewrites its golden file (review the diff before committing it).
void update_golden_if_asked(const std::string& name, std::string text) {
    if (std::getenv("SCTP_PERF_UPDATE_GOLDEN") == nullptr) {
        return;
    }
    const std::string version = sctp_perf::version_string;
    if (const auto at = text.find(version); at != std::string::npos) {
        text.replace(at, version.size(), "@VERSION@");
    }
    std::ofstream(golden_path(name)) << text;
}

std::string read_golden(const std::string& name) {
    std::ifstream in(golden_path(name));
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

std::string ace_report_of(const sctp_perf::run_report& report) {
    std::ostringstream out;
    sctp_perf::write_ace_report(out, report);
    return out.str();
}

using sctp_perf::testing::lines_of;

}  // namespace

TEST_CASE("ace report: matches the golden text of a hand-checked run") {
    sctp_perf::testing::small_run run;
    const auto text = ace_report_of(run.report);
    update_golden_if_asked("ace_small.txt", text);
    CHECK(text == read_golden("ace_small.txt"));
}

TEST_CASE("ace report: --all-bins adds exactly the empty bins, as ACE printed them") {
    sctp_perf::testing::small_run run;
    const auto compact = ace_report_of(run.report);
    run.report.options.all_bins = true;
    const auto all = ace_report_of(run.report);
    update_golden_if_asked("ace_small_all_bins.txt", all);
    CHECK(all == read_golden("ace_small_all_bins.txt"));
    // Bins [2,3) and [3,4) are empty: the only two rows the compact report leaves out.
    const std::string empty_rows =
        "\t       2.000  -         3.000  :      0    0.000    0.571\n"
        "\t       3.000  -         4.000  :      0    0.000    0.571\n";
    CHECK_THAT(all, Catch::Matchers::Contains(empty_rows));
    CHECK_THAT(compact, !Catch::Matchers::Contains("2.000  -         3.000"));
    auto restored = compact;
    const std::string before_above = "\t       4.000  -       above    :";
    restored.insert(restored.find(before_above), empty_rows);
    CHECK(restored == all);
}

TEST_CASE("ace report: the ACE block comes last, in ACE's columns") {
    sctp_perf::testing::small_run run;
    const auto lines = lines_of(ace_report_of(run.report));
    // ACE: "\t     below    -  %12.3f  :  %5u ..." and "\t%12.3f  -       above    :  %5u ...".
    CHECK(std::find(lines.begin(), lines.end(),
                    "\t     below    -         0.000  :      0    0.000    0.000") != lines.end());
    CHECK(std::find(lines.begin(), lines.end(),
                    "\t       4.000  -       above    :      3    0.429    1.000") != lines.end());
    // A reader of ACE's output takes every line after "outliers:" as a value.
    const auto outliers = std::find(lines.begin(), lines.end(), "outliers:");
    REQUIRE(outliers != lines.end());
    const std::vector<std::string> after(outliers + 1, lines.end());
    CHECK(after == std::vector<std::string>{"\t       6.000", "\t       5.000"});
    // The iteration numbers are before the ACE block, in a section of their own.
    CHECK(std::find(lines.begin(), outliers, "\t       6.000  iteration 6") != outliers);
}

TEST_CASE("ace report: warns when neither end is pinned, and not when one is") {
    sctp_perf::testing::small_run run;
    CHECK_THAT(ace_report_of(run.report), Catch::Matchers::Contains("neither end is pinned"));
    run.report.environment.client_cpu_affinity = "0";
    CHECK_THAT(ace_report_of(run.report), !Catch::Matchers::Contains("neither end is pinned"));
    CHECK_THAT(ace_report_of(run.report),
               Catch::Matchers::Contains("CPU affinity 0 of 2 online (pinned)"));
    run.report.environment.client_cpu_affinity = "0-1";
    run.report.server_settings["cpu_affinity"] = "1";
    CHECK_THAT(ace_report_of(run.report), !Catch::Matchers::Contains("neither end is pinned"));
    // A server on every CPU whose workers are pinned one each is placed.
    run.report.server_settings["cpu_affinity"] = "0-1";
    run.report.server_settings["worker_cpus"] = {0, 1};
    CHECK_THAT(ace_report_of(run.report), !Catch::Matchers::Contains("neither end is pinned"));
}

namespace {

// How many lines of `text` contain `part`.
std::size_t lines_with(const std::string& text, const std::string& part) {
    const auto lines = lines_of(text);
    return static_cast<std::size_t>(std::count_if(
        lines.begin(), lines.end(), [&](const auto& l) { return l.find(part) != l.npos; }));
}

}  // namespace

TEST_CASE("ace report: states each end's waiting policy") {
    sctp_perf::testing::small_run run;
    // Sleeping at once reads as it did before the option.
    run.report.options.common.poll_before_sleep = std::chrono::microseconds(0);
    CHECK(lines_with(ace_report_of(run.report), "Nagle off, spin off, CPU") == 2);
    run.report.options.common.poll_before_sleep = std::chrono::microseconds(50);
    run.report.server_settings["poll_before_sleep_us"] = 20;
    const auto text = ace_report_of(run.report);
    CHECK(lines_with(text, "Nagle off, spin off, polls 50 us before sleeping, CPU") == 1);
    CHECK(lines_with(text, "Nagle off, spin off, polls 20 us before sleeping, CPU") == 1);
    run.report.server_settings["spin"] = true;
    run.report.server_settings["poll_before_sleep_us"] = 0;
    CHECK(lines_with(ace_report_of(run.report), "Nagle off, spin on, CPU") == 1);
}

TEST_CASE("ace report: names the socket type of the program's service") {
    sctp_perf::testing::small_run run;
    CHECK_THAT(ace_report_of(run.report),
               Catch::Matchers::Contains("\ttransport: tcp over SOCK_STREAM, Nagle off\n"));
    run.report.program.service = sctp_perf::socket_service::seqpack;
    CHECK_THAT(ace_report_of(run.report),
               Catch::Matchers::Contains("\ttransport: tcp over SOCK_SEQPACKET, Nagle off\n"));
}

TEST_CASE("ace report: flags Nagle set at one end only") {
    sctp_perf::testing::small_run run;
    CHECK_THAT(ace_report_of(run.report), !Catch::Matchers::Contains("Nagle differs"));
    run.report.server_settings["nagle"] = true;
    CHECK_THAT(ace_report_of(run.report),
               Catch::Matchers::Contains("Nagle differs between the ends: client off, server on"));
}

TEST_CASE("ace report: states the primer the run made") {
    sctp_perf::testing::small_run run;
    run.report.options.primer_iterations = 7;
    CHECK_THAT(ace_report_of(run.report),
               Catch::Matchers::Contains(
                   "\titerations: 7 measured, after 7 unrecorded primer iterations\n"));
    CHECK_THAT(ace_report_of(run.report), !Catch::Matchers::Contains("warm-up"));
    run.report.options.warmup = std::chrono::milliseconds(2500);
    run.report.warmup_round_trips = 1234;
    CHECK_THAT(ace_report_of(run.report),
               Catch::Matchers::Contains("\titerations: 7 measured, after 7 unrecorded primer "
                                         "iterations\n\twarm-up: 2.500 s after the primer, not "
                                         "recorded: 1234 round trips\n"));
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

TEST_CASE("ace report: with several servers, one block when they state the same, else each") {
    sctp_perf::testing::small_run run;
    auto& r = run.report;
    // Each connection's settings sample the server's clocks anew: not a difference.
    r.server_settings["realtime_minus_monotonic_ns"] = 1'764'000'000'000'000'001;
    auto second = r.server_settings;
    second["realtime_minus_monotonic_ns"] = 1'764'000'000'000'000'002;
    r.servers = {{"127.0.0.1:45453", {"127.0.0.1:45453"}, r.server_settings},
                 {"127.0.0.1:45454", {"127.0.0.1:45454"}, second}};
    auto text = ace_report_of(r);
    CHECK(text.find("\tserver addresses: 127.0.0.1:45453,127.0.0.1:45454 (flows dealt over "
                    "them, flow k to server k modulo 2), connected to "
                    "127.0.0.1:45453,127.0.0.1:45454\n") != std::string::npos);
    CHECK(text.find("servers: the 2 state the same\n\tprogram: SOCK_STREAM_srv (sctp-perf "
                    "9.9.9) on serverhost, Linux 6.1.0 x86_64\n") != std::string::npos);
    CHECK(text.find("(the servers differ)") == std::string::npos);

    r.servers[1].settings["kernel"] = "Linux 6.12.0 x86_64";
    text = ace_report_of(r);
    CHECK(text.find("server 1 of 2, 127.0.0.1:45453 (the servers differ):\n\tprogram: "
                    "SOCK_STREAM_srv (sctp-perf 9.9.9) on serverhost, Linux 6.1.0 x86_64\n") !=
          std::string::npos);
    CHECK(text.find("server 2 of 2, 127.0.0.1:45454 (the servers differ):\n\tprogram: "
                    "SOCK_STREAM_srv (sctp-perf 9.9.9) on serverhost, Linux 6.12.0 x86_64\n") !=
          std::string::npos);
    CHECK(text.find("servers: the 2") == std::string::npos);
}

TEST_CASE("ace report: ping-pong gives the client's CPU, and says why not the server's") {
    sctp_perf::testing::small_run run;
    const auto text = ace_report_of(run.report);
    // 0.05 s user and 0.1 s system over the 0.25 s measured.
    CHECK_THAT(text,
               Catch::Matchers::Contains(
                   "\taddresses: 127.0.0.1:40000\n"
                   "\tcpu: 60.0 % of one CPU while measuring (user 20.0 %, system 40.0 %)\n"));
    CHECK_THAT(text, Catch::Matchers::Contains(
                         "\tcpu: not reported in plain ping-pong, whose wire protocol has no "
                         "end-of-test message to carry it (--threads 1 runs ping-pong framed, "
                         "whose end does)\n"
                         "warnings:\n"));
}

TEST_CASE("ace report: a server's workers pinned one each name their CPUs") {
    sctp_perf::testing::small_run run;
    CHECK_THAT(ace_report_of(run.report), !Catch::Matchers::Contains("pinned one each"));
    run.report.server_settings["threads"] = 2;
    run.report.server_settings["data_path"] = "one-to-one";
    run.report.server_settings["worker_cpus"] = {0, 1};
    CHECK_THAT(ace_report_of(run.report),
               Catch::Matchers::Contains(", sessions on 2 worker threads (one-to-one) pinned one "
                                         "each to CPUs 0, 1 (--cpu)\n"));
}
