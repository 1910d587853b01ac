#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

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
    CHECK(doc["config"]["nagle"] == false);
    CHECK(doc["environment"]["hostname"] == "testhost");
    CHECK(doc["environment"]["client_cpu_affinity"] == "0-1");

    const auto& s = doc["summary"];
    CHECK(s["num_points"] == 7);
    CHECK(s["min_us"].get<double>() == Approx(0.5));
    CHECK(s["max_us"].get<double>() == Approx(6.0));
    CHECK(s["mean_us"].get<double>() == Approx(20.9 / 7));
    CHECK(s["variance_us2"].get<double>() == Approx(4.5347619));
    CHECK(s["stddev_us"].get<double>() == Approx(std::sqrt(4.5347619)));

    const auto& p = doc["percentiles"];
    CHECK(p["p50"].get<double>() == Approx(1.9));
    CHECK(p["p90"].get<double>() == Approx(6.0));
    CHECK(p["p99.99"].get<double>() == Approx(6.0));
    CHECK(p["max"].get<double>() == Approx(6.0));

    const auto& h = doc["histogram"];
    CHECK(h["below"] == 0);
    CHECK(h["above"] == 3);
    REQUIRE(h["bins"].size() == 4);
    CHECK(h["bins"][1]["low_us"].get<double>() == Approx(1.0));
    CHECK(h["bins"][1]["high_us"].get<double>() == Approx(2.0));
    CHECK(h["bins"][1]["count"] == 3);

    REQUIRE(doc["outliers"].size() == 2);
    CHECK(doc["outliers"][0]["rtt_us"].get<double>() == Approx(6.0));
    CHECK(doc["outliers"][0]["iteration"] == 6);
    CHECK(doc["outliers"][1]["iteration"] == 4);
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
