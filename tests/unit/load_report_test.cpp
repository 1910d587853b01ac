// SPDX-License-Identifier: Apache-2.0
// The load report's per-flow parts, the schedule slip and the warning of a
// client that could not keep up, on load results built by hand.

#include "report/load_report.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "report/run_notes.hpp"
#include "text_lines.hpp"

using namespace sctp_perf;
using sctp_perf::testing::lines_of;

namespace {

// A rate-mode result of `flows` flows at 1000 msg/s each on 2 threads. Flow i
// sent and had replied 100 messages at 1000/s, with one timed latency of
// latency_us[i] microseconds (so its p50, p99 and max are all that value);
// a latency of 0 means no timed reply.
load_result rate_result(const std::vector<int>& latency_us) {
    load_result l;
    l.mode = protocol::test_mode::rate;
    l.flows = static_cast<unsigned>(latency_us.size());
    l.threads = 2;
    l.rate_asked_per_s = 1000.0;
    l.payload_bytes = 128;
    l.corrected = std::make_unique<log_linear_histogram>();
    l.uncorrected = std::make_unique<log_linear_histogram>();
    l.worker_busy_percent = {20.0, 30.0};
    for (std::size_t i = 0; i < latency_us.size(); ++i) {
        flow_result f;
        f.flow = static_cast<unsigned>(i);
        f.messages_sent = 100;
        f.rate_per_s = 1000.0;
        if (latency_us[i] > 0) {
            f.messages_replied = 100;
            f.latency.record(static_cast<std::uint64_t>(latency_us[i]) * 1000);
        }
        l.per_flow.push_back(std::move(f));
    }
    return l;
}

// Twelve flows: flow 3 had no timed reply; flow i had (i + 1) us, but flow 5
// had 12 us, as flow 11 did. The 11 timed p99s sorted: 1 2 3 5 7 8 9 10 11
// 12 12; the median is rank ceil(11 / 2) = 6, 8 us. Worst first, equal p99s
// in flow order: 5 and 11 (12), 10, 9, 8, 7, 6, 4, 2, 1; flow 0 (1 us) is
// the eleventh and is left out.
load_result twelve_flows() {
    return rate_result({1, 2, 3, 0, 5, 12, 7, 8, 9, 10, 11, 12});
}

std::string summary_of(const load_result& l) {
    std::ostringstream out;
    write_load_summary(out, l);
    return out.str();
}

// The lines of `text` from the one starting with `first`, `count` of them.
std::vector<std::string> lines_from(const std::string& text, const std::string& first,
                                    std::size_t count) {
    const auto lines = lines_of(text);
    const auto at = std::find_if(lines.begin(), lines.end(), [&](const std::string& line) {
        return line.rfind(first, 0) == 0;
    });
    REQUIRE(at != lines.end());
    REQUIRE(static_cast<std::size_t>(lines.end() - at) >= count);
    return {at, at + static_cast<std::ptrdiff_t>(count)};
}

}  // namespace

TEST_CASE("load report: the spread over flows and the worst flows, by hand") {
    const auto l = twelve_flows();
    const auto spread = spread_over_flows(l, 10);
    CHECK(spread.timed_flows == 11);
    CHECK(spread.p50.min_us == 1.0);
    CHECK(spread.p50.median_us == 8.0);
    CHECK(spread.p50.max_us == 12.0);
    CHECK(spread.p99.median_us == 8.0);
    CHECK(spread.worst == std::vector<std::size_t>{5, 11, 10, 9, 8, 7, 6, 4, 2, 1});
    // An even count takes the lower middle: of 1 2 3 5, rank 2, 2 us.
    CHECK(spread_over_flows(rate_result({3, 1, 5, 2}), 2).p99.median_us == 2.0);
    CHECK(spread_over_flows(rate_result({3, 1, 5, 2}), 2).worst == std::vector<std::size_t>{2, 0});
    CHECK(spread_over_flows(rate_result({0, 0}), 10).timed_flows == 0);
}

TEST_CASE("load report: more than 10 flows print the spread and the 10 worst, not every flow") {
    const auto text = summary_of(twelve_flows());
    const auto block = lines_from(text, "flows: 12", 16);
    CHECK(block[0] ==
          "flows: 12, corrected latency per flow, microseconds, spread over the 11 flows with a "
          "timed reply (1 had none):");
    CHECK(block[1] == "\t               min       median          max");
    CHECK(block[2] == "\tp50          1.000        8.000       12.000");
    CHECK(block[3] == "\tp99          1.000        8.000       12.000");
    CHECK(block[4] ==
          "worst flows: the 10 with the highest p99 (every flow: --flow-csv FILE, or "
          "load.per_flow in the JSON)");
    CHECK(
        block[5] ==
        "\t flow         sent      replied     rate msg/s       p50 us       p99 us       max us");
    CHECK(
        block[6] ==
        "\t    5          100          100       1000.000       12.000       12.000       12.000");
    CHECK(block[7].rfind("\t   11 ", 0) == 0);
    CHECK(block[15].rfind("\t    1 ", 0) == 0);
    CHECK(text.find("\t    0          100") == std::string::npos);  // not among the worst
    CHECK(text.find("\t    3          100") == std::string::npos);  // no timed reply
}

TEST_CASE("load report: 10 flows or fewer are listed one by one") {
    const auto text = summary_of(rate_result({1, 0, 3}));
    const auto block = lines_from(text, "flows:", 5);
    CHECK(block[0] == "flows:");
    CHECK(
        block[2] ==
        "\t    0          100          100       1000.000        1.000        1.000        1.000");
    CHECK(
        block[3] ==
        "\t    1          100            0       1000.000            -            -            -");
    CHECK(block[4].rfind("\t    2 ", 0) == 0);
    CHECK(text.find("spread over") == std::string::npos);
}

TEST_CASE("load report: --flow-csv writes a header and one whole row per flow") {
    std::ostringstream out;
    write_flow_csv(out, twelve_flows());
    const auto rows = lines_of(out.str());
    REQUIRE(rows.size() == 13);
    CHECK(rows[0] ==
          "flow,messages_sent,messages_replied,messages_lost,rate_per_s,p50_us,p99_us,"
          "max_us");
    CHECK(rows[1] == "0,100,100,0,1000.000,1.000,1.000,1.000");
    CHECK(rows[4] == "3,100,0,0,1000.000,,,");  // no timed reply: empty latencies
    CHECK(rows[12] == "11,100,100,0,1000.000,12.000,12.000,12.000");
    for (const auto& row : rows) {
        CHECK(std::count(row.begin(), row.end(), ',') == 7);
    }
}

TEST_CASE("load report: the schedule slip's p50, p99 and max, in text and JSON") {
    // Slips of 1..100 us. p50: rank 50, 50 us, in the compact bucket
    // [49.152, 51.199] us: 51.199. p99: rank 99, in [98.304, 102.399],
    // clamped to the maximum: 100.
    auto l = rate_result({1});
    for (std::uint64_t us = 1; us <= 100; ++us) {
        l.schedule_slip.record(us * 1000);
    }
    const auto text = summary_of(l);
    CHECK(text.find("\tschedule slip: p50 51.199 us, p99 100.000 us, max 100.000 us behind a "
                    "message's due time\n") != std::string::npos);
    CHECK(text.find("the busiest of 2 worker threads 30.0 % busy") != std::string::npos);
    const auto doc = load_json(l);
    CHECK(doc["schedule_slip_p50_us"].get<double>() == 51.199);
    CHECK(doc["schedule_slip_p99_us"].get<double>() == 100.0);
    CHECK(doc["schedule_slip_max_us"].get<double>() == 100.0);
    CHECK(doc["client_worker_busy_percent"] == nlohmann::ordered_json::array({20.0, 30.0}));
    CHECK(doc["per_flow"].size() == 1);

    // Throughput mode has no schedule.
    l.mode = protocol::test_mode::throughput;
    const auto throughput = load_json(l);
    CHECK(throughput["schedule_slip_p99_us"].is_null());
    CHECK(throughput["schedule_slip_max_us"].is_null());
}

TEST_CASE("load report: each worker's CPU under --cpu, in text and JSON, and none unpinned") {
    auto l = rate_result({1, 2, 3});  // 3 flows on 2 threads
    CHECK(summary_of(l).find("\tflows: 3 on 2 threads, every message timed\n") !=
          std::string::npos);
    CHECK(load_json(l)["worker_cpus"].is_null());
    l.worker_cpus = {1, 3};
    CHECK(summary_of(l).find("\tflows: 3 on 2 threads pinned one each to CPUs 1, 3 (--cpu), "
                             "every message timed\n") != std::string::npos);
    CHECK(load_json(l)["worker_cpus"] == nlohmann::ordered_json::array({1, 3}));
}

TEST_CASE("warnings: a client that could not keep up, by its slip, its workers or its CPU") {
    // 4 flows at 1000/s: 4000 in all, on 2 threads with 2 CPUs to run on,
    // using 40 % of one CPU: 20 % of the 2.
    auto l = rate_result({1, 1, 1, 1});
    l.client_cpu_percent = 40.0;

    SECTION("punctual and with time to spare: no warning") {
        // 100 slips of 5 us and one of 8 ms (a preemption): p99 is rank
        // ceil(101 x 0.99) = 100, 5 us; the maximum alone says nothing.
        for (int i = 0; i < 100; ++i) {
            l.schedule_slip.record(5'000);
        }
        l.schedule_slip.record(8'000'000);
        CHECK_FALSE(client_saturation_warning(l, 2));
        // Spinning towards the due times uses CPU but keeps the schedule.
        l.client_cpu_percent = 200.0;
        CHECK_FALSE(client_saturation_warning(l, 2));
    }
    SECTION("late with time to spare: not running when messages fell due") {
        // 97 slips of 5 us, 2 of 150 us and one of 8 ms: p99 is rank 99,
        // 150 us, in [147.456, 155.647] us: 155.6.
        for (int i = 0; i < 97; ++i) {
            l.schedule_slip.record(5'000);
        }
        l.schedule_slip.record(150'000);
        l.schedule_slip.record(150'000);
        l.schedule_slip.record(8'000'000);
        const auto warning = client_saturation_warning(l, 2);
        REQUIRE(warning);
        CHECK(*warning ==
              "the client could not keep its schedule: its schedule slip p99 was 155.6 us "
              "(bound 100 us), its busiest worker thread was busy 30.0 % of the time and it used "
              "20.0 % of the 2 CPUs its threads can run on (bound 90 % each), so it was often "
              "not running when messages fell due, the latencies include the client's own "
              "lateness, and 4000 messages per second in all are beyond this client as it ran: "
              "give it CPUs of its own (--cpu, and others to the server) and more --threads (now "
              "2), or ask for a lower rate");

        // The same slip with both threads on one CPU, used 99 %: saturated.
        l.client_cpu_percent = 99.0;
        const auto one_cpu = client_saturation_warning(l, 1);
        REQUIRE(one_cpu);
        CHECK(one_cpu->find("the client could not keep up: its schedule slip p99 was 155.6 us "
                            "(bound 100 us), its busiest worker thread was busy 30.0 % of the "
                            "time and it used 99.0 % of the 1 CPU its threads can run on") == 0);
        CHECK(one_cpu->find("the latencies include the client's own queueing and 4000 messages "
                            "per second in all are beyond this client: give it more --threads "
                            "(now 2) and the CPUs to run them, or ask for a lower rate") !=
              std::string::npos);
    }
    SECTION("a worker busy above 90 % of its time") {
        l.schedule_slip.record(5'000);
        l.worker_busy_percent = {50.0, 95.0};
        const auto warning = client_saturation_warning(l, 2);
        REQUIRE(warning);
        CHECK(warning->find("the client could not keep up: its schedule slip p99 was 5.0 us "
                            "(bound 100 us), its busiest worker thread was busy 95.0 % of the "
                            "time") == 0);
    }
    SECTION("throughput mode is busy by design and has no schedule") {
        l.mode = protocol::test_mode::throughput;
        l.worker_busy_percent = {100.0, 100.0};
        CHECK_FALSE(client_saturation_warning(l, 2));
    }
}

TEST_CASE("load report: fan-out adds a row per server, in text, JSON and the flow CSV") {
    // Three flows over two servers: flows 0 and 2 to the first (latencies
    // 1 and 3 us), flow 1 to the second (2 us). The first's p50 is rank
    // ceil(0.5 * 2) = 1, 1 us; its p99, p99.9 and max are rank 2, 3 us.
    auto l = rate_result({1, 2, 3});
    for (const auto* name : {"127.0.0.1:45453", "[::1]:45454"}) {
        server_result s;
        s.server = name;
        s.latency = std::make_unique<log_linear_histogram>();
        l.per_server.push_back(std::move(s));
    }
    for (const auto& f : l.per_flow) {
        auto& s = l.per_server[f.flow % 2];
        ++s.flows;
        s.messages_sent += f.messages_sent;
        s.messages_received_by_server += f.messages_sent;
        s.messages_replied += f.messages_replied;
        s.latency->record((f.flow + 1) * 1000ULL);
    }
    const auto text = summary_of(l);
    CHECK(text.find("servers: 2, flow k to server k modulo 2; messages as in the load block "
                    "(received: the server's own account), corrected latency, microseconds:\n"
                    "\tserver                    flows         sent     received      replied "
                    "      p50 us       p99 us     p99.9 us       max us\n"
                    "\t127.0.0.1:45453               2          200          200          200 "
                    "       1.000        3.000        3.000        3.000\n"
                    "\t[::1]:45454                   1          100          100          100 "
                    "       2.000        2.000        2.000        2.000\n") != std::string::npos);
    const auto doc = load_json(l);
    REQUIRE(doc["per_server"].size() == 2);
    CHECK(doc["per_server"][0]["server"] == "127.0.0.1:45453");
    CHECK(doc["per_server"][0]["flows"] == 2);
    CHECK(doc["per_server"][0]["messages_sent"] == 200);
    CHECK(doc["per_server"][0]["p50_us"].get<double>() == 1.0);
    CHECK(doc["per_server"][0]["p99_9_us"].get<double>() == 3.0);
    CHECK(doc["per_server"][1]["max_us"].get<double>() == 2.0);
    std::ostringstream csv;
    write_flow_csv(csv, l);
    const auto rows = lines_of(csv.str());
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] ==
          "flow,messages_sent,messages_replied,messages_lost,rate_per_s,p50_us,p99_us,"
          "max_us,server");
    CHECK(rows[2] == "1,100,100,0,1000.000,2.000,2.000,2.000,[::1]:45454");
    CHECK(rows[3] == "2,100,100,0,1000.000,3.000,3.000,3.000,127.0.0.1:45453");

    // One server: no row, no key, no column (the reports are as they were).
    const auto one = rate_result({1, 2, 3});
    CHECK(summary_of(one).find("servers:") == std::string::npos);
    CHECK_FALSE(load_json(one).contains("per_server"));
    std::ostringstream plain;
    write_flow_csv(plain, one);
    CHECK(lines_of(plain.str())[0].find("server") == std::string::npos);
}

// One timed reply of 7 us: min, mean, max and every percentile 7.000 us; the
// sample deviation divides by n - 1 = 0, so the text says "-" and JSON null
// (report/defined_statistics.hpp).
TEST_CASE("load report: one timed reply defines no deviation, in text and JSON") {
    auto l = rate_result({7});
    l.corrected->record(7000);
    l.uncorrected->record(7000);
    const auto text = summary_of(l);
    CHECK(text.find("\tnum_points 1  min 7.000  mean 7.000  stddev -\n") != std::string::npos);
    const auto doc = load_json(l);
    CHECK(doc["latency_corrected"]["num_points"] == 1);
    CHECK(doc["latency_corrected"]["min_us"].get<double>() == 7.0);
    CHECK(doc["latency_corrected"]["stddev_us"].is_null());
    CHECK(doc["latency_uncorrected"]["stddev_us"].is_null());

    // A second reply of 9 us: a deviation of sqrt(2) = 1.414 us.
    l.corrected->record(9000);
    CHECK(summary_of(l).find("\tnum_points 2  min 7.000  mean 8.000  stddev 1.414\n") !=
          std::string::npos);
    CHECK(load_json(l)["latency_corrected"]["stddev_us"].get<double>() == Approx(std::sqrt(2.0)));
}
