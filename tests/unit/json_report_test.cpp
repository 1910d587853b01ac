// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "report/run_report.hpp"
#include "report_test_support.hpp"

TEST_CASE("json report: every number of the hand-checked run") {
    sctp_perf::testing::small_run run;
    std::ostringstream out;
    sctp_perf::write_json_report(out, run.report);
    const auto doc = nlohmann::json::parse(out.str());

    CHECK(doc["tool"] == "sctp-perf");
    CHECK(doc["units"] == "microseconds");
    CHECK(doc["program"] == "SOCK_STREAM_clt");
    CHECK(doc["config"]["transport"] == "tcp");
    CHECK(doc["config"]["payload_bytes"] == 128);
    CHECK(doc["config"]["iterations"] == 7);
    CHECK(doc["config"]["primer_iterations"] == 100);
    run.report.options.primer_iterations = 0;
    std::ostringstream no_primer;
    sctp_perf::write_json_report(no_primer, run.report);
    CHECK(nlohmann::json::parse(no_primer.str())["config"]["primer_iterations"] == 0);
    CHECK(doc["config"]["warmup_s"] == 0.0);
    CHECK(doc["warmup"].is_null());
    CHECK(doc["config"]["nagle"] == false);
    CHECK(doc["environment"]["hostname"] == "testhost");
    CHECK(doc["environment"]["client_cpu_affinity"] == "0-1");

    const auto& s = doc["summary"];
    CHECK(s["num_points"] == 7);
    CHECK(s["min_us"].get<double>() == Approx(0.5));
    CHECK(s["max_us"].get<double>() == Approx(6.0));
    // Rounded: to the nanosecond, and the variance to 6 significant digits.
    CHECK(s["mean_us"].get<double>() == 2.986);         // 20.9 / 7 = 2.98571...
    CHECK(s["variance_us2"].get<double>() == 4.53476);  // 4.5347619
    CHECK(s["stddev_us"].get<double>() == 2.129);       // sqrt(4.5347619) = 2.12950

    CHECK(s["beyond_range"] == 0);

    const auto& p = doc["percentiles"];
    CHECK(p["p50_us"].get<double>() == 1.9);
    CHECK(p["p90_us"].get<double>() == 6.0);
    CHECK(p["p99_us"].get<double>() == 6.0);
    CHECK(p["p99_9_us"].get<double>() == 6.0);
    CHECK(p["p99_99_us"].get<double>() == 6.0);
    CHECK(p["p99_999_us"].get<double>() == 6.0);
    CHECK(p["p99_9999_us"].get<double>() == 6.0);
    CHECK(p["max_us"].get<double>() == 6.0);

    // Only the non-empty bins: [0,1) and [1,2); [2,3) and [3,4) hold nothing.
    const auto& h = doc["histogram"];
    CHECK(h["below"] == 0);
    CHECK(h["above"] == 3);
    CHECK(h["bins_shown"] == "nonzero");
    REQUIRE(h["bins"].size() == 2);
    CHECK(h["bins"][1]["low_us"].get<double>() == 1.0);
    CHECK(h["bins"][1]["high_us"].get<double>() == 2.0);
    CHECK(h["bins"][1]["count"] == 3);

    REQUIRE(doc["outliers"].size() == 2);
    CHECK(doc["outliers"][0]["rtt_us"].get<double>() == Approx(6.0));
    CHECK(doc["outliers"][0]["iteration"] == 6);
    CHECK(doc["outliers"][1]["iteration"] == 4);

    CHECK(doc["clock"]["source"] == "tsc");
    CHECK(doc["clock"]["resolution_ns"] == 1);
    CHECK(doc["clock"]["read_cost_ns"].get<double>() == 20.5);
    CHECK(doc["clock"]["loop_overhead_ns"].get<double>() == 35711300.0);
    CHECK(doc["loop"] == "closed");
}

namespace {

nlohmann::json json_report_of(const sctp_perf::run_report& report) {
    std::ostringstream out;
    sctp_perf::write_json_report(out, report);
    return nlohmann::json::parse(out.str());
}

// Every key anywhere in `doc`, with its path.
void collect_keys(const nlohmann::json& doc, const std::string& path,
                  std::vector<std::string>& keys) {
    if (doc.is_object()) {
        for (const auto& [key, value] : doc.items()) {
            keys.push_back(path + "/" + key);
            collect_keys(value, path + "/" + key, keys);
        }
    } else if (doc.is_array()) {
        for (const auto& value : doc) {
            collect_keys(value, path + "[]", keys);
        }
    }
}

}  // namespace

TEST_CASE("json report v2: the schema a script can rely on") {
    sctp_perf::testing::small_run run;
    const auto doc = json_report_of(run.report);
    CHECK(doc["format_version"] == 2);
    std::vector<std::string> keys;
    collect_keys(doc, "", keys);
    for (const auto& key : keys) {
        INFO(key);
        CHECK(key.find('.') == std::string::npos);
    }
    CHECK(doc["config"]["server_hosts"] == nlohmann::json::array({"localhost"}));
    CHECK(doc["config"]["cpu"].is_null());
    CHECK(doc["config"]["spin"] == false);
    CHECK(doc["environment"]["client_pinned"] == false);
    // The server as it described itself.
    CHECK(doc["server"]["version"] == "9.9.9");
    CHECK(doc["server"]["nagle"] == false);
    CHECK(doc["server"]["cpu_affinity"] == "0-1");
    CHECK(doc["server"].contains("sctp_rto"));
    REQUIRE(doc["warnings"].size() == 1);
    CHECK(doc["warnings"][0].get<std::string>().starts_with("neither end is pinned"));
    for (const auto* section : {"summary", "percentiles"}) {
        for (const auto& [key, value] : doc[section].items()) {
            INFO(section << "." << key);
            CHECK((key == "num_points" || key == "beyond_range" || key.ends_with("_us") ||
                   key.ends_with("_us2") || key.ends_with("_s")));
        }
    }
}

TEST_CASE("json report v2: ping-pong's CPU, the client's split, the server's null and why") {
    sctp_perf::testing::small_run run;
    const auto doc = json_report_of(run.report);
    // 0.05 s user and 0.1 s system over the 0.25 s measured.
    CHECK(doc["cpu"]["client_percent"].get<double>() == Approx(60.0));
    CHECK(doc["cpu"]["client_user_percent"].get<double>() == Approx(20.0));
    CHECK(doc["cpu"]["client_system_percent"].get<double>() == Approx(40.0));
    CHECK(doc["cpu"]["server_percent"].is_null());
    CHECK(doc["cpu"]["server_note"].get<std::string>().starts_with(
        "not reported in plain ping-pong"));
}

TEST_CASE("json report v2: the warm-up's length and its round trips") {
    sctp_perf::testing::small_run run;
    run.report.options.warmup = std::chrono::milliseconds(2500);
    run.report.warmup_round_trips = 1234;
    const auto doc = json_report_of(run.report);
    CHECK(doc["config"]["warmup_s"] == 2.5);
    CHECK(doc["warmup"]["duration_s"] == 2.5);
    CHECK(doc["warmup"]["round_trips"] == 1234);
    CHECK(doc["warmup"]["messages"].is_null());  // a load mode's
    CHECK(doc["summary"]["num_points"] == 7);    // the warm-up's are not among them
}

TEST_CASE("json report v2: --all-bins lists the empty bins too") {
    sctp_perf::testing::small_run run;
    run.report.options.all_bins = true;
    const auto doc = json_report_of(run.report);
    CHECK(doc["histogram"]["bins_shown"] == "all");
    REQUIRE(doc["histogram"]["bins"].size() == 4);
    CHECK(doc["histogram"]["bins"][2]["count"] == 0);
}

TEST_CASE("json report v2: a Nagle mismatch is among the warnings") {
    sctp_perf::testing::small_run run;
    run.report.options.common.nagle = true;
    run.report.environment.client_cpu_affinity = "0";
    const auto doc = json_report_of(run.report);
    REQUIRE(doc["warnings"].size() == 1);
    CHECK(doc["warnings"][0].get<std::string>().starts_with(
        "Nagle differs between the ends: client on, server off"));
}

TEST_CASE("json report: config.service spells the socket service as its readers expect") {
    // sctp-perf-compare reads these two words to refuse comparing unlike runs.
    sctp_perf::testing::small_run run;
    CHECK(json_report_of(run.report)["config"]["service"] == "stream");
    run.report.program.service = sctp_perf::socket_service::seqpack;
    CHECK(json_report_of(run.report)["config"]["service"] == "seqpack");
}

TEST_CASE("json report v2: a failed run is one object with its error and exit code") {
    std::ostringstream out;
    sctp_perf::write_json_error(
        out, {"SOCK_STREAM_clt", "test", sctp_perf::socket_service::stream, true},
        "cannot connect to 127.0.0.1:1 (Connection refused)", 1);
    const auto doc = nlohmann::json::parse(out.str());
    CHECK(doc["format_version"] == 2);
    CHECK(doc["program"] == "SOCK_STREAM_clt");
    CHECK(doc["error"] == "cannot connect to 127.0.0.1:1 (Connection refused)");
    CHECK(doc["exit_code"] == 1);
}

TEST_CASE("json report: SCTP runs state requested and effective timers") {
    sctp_perf::testing::small_run run;
    run.report.options.common.transport = sctp_perf::transport_protocol::sctp;
    run.report.options.common.sctp_rto.min_ms = 20;
    run.report.sctp_rto_socket = sctp_perf::sctp_rto_values{3000, 20, 60000};
    run.report.sctp_rto_system = sctp_perf::sctp_rto_values{3000, 1000, 60000};
    std::ostringstream out;
    sctp_perf::write_json_report(out, run.report);
    const auto doc = nlohmann::json::parse(out.str());
    CHECK(doc["config"]["sctp_rto_requested"]["min_ms"] == 20);
    CHECK(doc["config"]["sctp_rto_requested"]["max_ms"].is_null());
    CHECK(doc["environment"]["sctp_rto_socket"]["min_ms"] == 20);
    CHECK(doc["environment"]["sctp_rto_system"]["min_ms"] == 1000);
}

// One round trip of 500 ns: its min, mean and max are 0.5 us; the sample
// variance divides by n - 1 = 0, so it and the deviation are null, not 0
// (report/defined_statistics.hpp).
TEST_CASE("json report: one round trip defines no variance or deviation") {
    sctp_perf::testing::small_run run;
    sctp_perf::latency_recorder one{sctp_perf::bin_layout{0.0, 4.0, 4, 2}};
    one.record(std::chrono::nanoseconds(500), 0);
    run.report.recorder = &one;
    run.report.options.iterations = 1;
    std::ostringstream out;
    sctp_perf::write_json_report(out, run.report);
    const auto s = nlohmann::json::parse(out.str())["summary"];
    CHECK(s["num_points"] == 1);
    CHECK(s["min_us"].get<double>() == 0.5);
    CHECK(s["mean_us"].get<double>() == 0.5);
    CHECK(s["max_us"].get<double>() == 0.5);
    CHECK(s["variance_us2"].is_null());
    CHECK(s["stddev_us"].is_null());
}
