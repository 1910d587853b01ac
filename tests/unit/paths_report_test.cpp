// SPDX-License-Identifier: Apache-2.0
// The paths, faults and failure blocks of both formats, from a report made
// by hand: a fault at 2 s on the first of two paths, undone at 6 s.
#include "report/paths_report.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "report/run_notes.hpp"
#include "report/run_report.hpp"

using namespace sctp_perf;

namespace {

constexpr std::int64_t ns_per_ms = 1'000'000;

path_failure_report two_paths_failed_over() {
    path_failure_report r;
    r.sctp = true;
    r.paths_watched = true;
    r.asked.hb_interval_ms = 100;
    r.asked.path_max_retrans = 1;
    sctp_path_values in_use;
    in_use.hb_interval_ms = 100;
    in_use.hb_enabled = true;
    in_use.path_max_retrans = 1;
    in_use.assoc_max_retrans = 10;
    in_use.pf_threshold = 0;
    in_use.primary = "10.77.1.2:45453";
    in_use.pf_exposed = true;
    r.in_use = in_use;
    r.system.pf_enable = 0;
    r.client.known = true;
    r.client.clock = "client";
    r.client.events = {{2153 * ns_per_ms, "unreachable", "10.77.1.2:45453", 0, 0},
                       {6210 * ns_per_ms, "available", "10.77.1.2:45453", 2, 0}};
    r.server.note = "plain ping-pong has no end-of-test account to carry them";
    path_reading end;
    end.at_ns = 8000 * ns_per_ms;
    end.why = "end";
    end.paths.primary = "10.77.1.2:45453";
    end.paths.paths = {{"10.77.1.2:45453", "active", 1, 50, 4380, 1500},
                       {"10.77.2.2:45453", "active", 1, 50, 4380, 1500}};
    r.readings = {end};
    fault_row fault;
    fault.index = 1;
    fault.at_s = 2.0;
    fault.command = "tc qdisc add dev c1 root netem loss 100%";
    fault.output_file = "SOCK_STREAM_clt-at-1.log";
    fault.started = true;
    fault.started_ns = 2001 * ns_per_ms;
    fault.started_utc = "2026-11-26T07:08:03.000000Z";
    fault.duration_s = 0.012;
    fault.exit_status = 0;
    r.faults = {fault};
    failure_figures f;
    f.fault_source = "--at 1";
    f.fault_command_s = 0.012;
    f.path_names = {"?", "10.77.1.2:45453", "10.77.2.2:45453"};
    f.cost.fault_ns = 2001 * ns_per_ms;
    f.cost.fault_path = 1;
    f.cost.other_path_reply_ns = 312 * ns_per_ms;
    f.cost.longest_gap = reply_gap{2000 * ns_per_ms, 2313 * ns_per_ms};
    f.cost.unfaulted_replies = 2000;
    f.cost.unfaulted_p999_ns = 1'234'567;
    f.cost.later_replies = 6000;
    f.cost.later_slower_than_p999 = 312;
    f.cost.replies_per_path = {0, 6000, 2000};
    f.client_detection = timed_figure{152 * ns_per_ms, "unreachable 10.77.1.2:45453"};
    detection_inputs in;
    in.rto_ms = 50;
    in.rto_max_ms = 200;
    in.path_max_retrans = 1;
    f.inputs = in;
    f.prediction = predict_detection(in);
    f.rto_source = "10.77.1.2:45453's, read --at 1 at 2.001 s";
    r.failure = f;
    return r;
}

}  // namespace

TEST_CASE("paths text: the settings lines, asked and in use") {
    std::ostringstream out;
    write_path_settings_lines(out, two_paths_failed_over(), nlohmann::json::object());
    const auto text = out.str();
    CHECK_THAT(text, Catch::Contains("\tsctp paths (client, read back): heartbeat 100 ms (asked "
                                     "100 ms), path-max-retrans 1 (asked 1), assoc-max-retrans "
                                     "10 (asked the system's), pf threshold 0 (asked the "
                                     "system's), primary 10.77.1.2:45453 (asked the system's)"));
    CHECK_THAT(text, Catch::Contains("net.sctp.pf_enable 0, pf_expose -"));
}

TEST_CASE("paths text: events, the fault and what it cost beside the prediction") {
    std::ostringstream out;
    write_paths_blocks(out, two_paths_failed_over());
    const auto text = out.str();
    CHECK_THAT(text, Catch::Contains("\t10.77.1.2:45453: active, srtt 1 ms, rto 50 ms, cwnd 4380 "
                                     "bytes, mtu 1500, primary\n"));
    CHECK_THAT(text, Catch::Contains("\t\t    2.153 s 10.77.1.2:45453 unreachable\n"));
    // Linux's spc_error 2, SCTP_HEARTBEAT_SUCCESS: why, not an error.
    CHECK_THAT(text, Catch::Contains("\t\t    6.210 s 10.77.1.2:45453 available (after a heartbeat "
                                     "answered)\n"));
    CHECK_THAT(text, Catch::Contains("\tevents (client; clock: client):\n"));
    CHECK_THAT(text, Catch::Contains("\tevents (server): not known: plain ping-pong"));
    CHECK_THAT(text,
               Catch::Contains("\t1: at 2.000 s: started 2.001 s (2026-11-26T07:08:03.000000Z)"
                               ", took 0.012 s, exit status 0; output "
                               "SOCK_STREAM_clt-at-1.log: tc qdisc add"));
    CHECK_THAT(text, Catch::Contains("failure (measured from --at 1 at 2.001 s, its command took "
                                     "0.012 s):\n"));
    CHECK_THAT(text,
               Catch::Contains("\tfirst reply on another path: 312.000 ms after the fault\n"));
    CHECK_THAT(text, Catch::Contains("\tdetected (client): 152.000 ms after the fault "
                                     "(unreachable 10.77.1.2:45453)\n"));
    // 50 + 100: two expiries.
    CHECK_THAT(text, Catch::Contains("\tpredicted: unreachable after 2 expiries, 150 ms (RTO 50 "
                                     "ms, 10.77.1.2:45453's, read --at 1 at 2.001 s; rto_max 200 "
                                     "ms; path-max-retrans 1; pf off)\n"));
    CHECK_THAT(text, Catch::Contains("\tlongest gap between replies: 313.000 ms, from 2.000 s to "
                                     "2.313 s\n"));
    CHECK_THAT(text, Catch::Contains("\tunfaulted p99.9: 1234.567 us (nearest rank of the 2000 "
                                     "replies before the fault); from the fault on, 312 of 6000 "
                                     "replies took longer\n"));
    CHECK_THAT(text, Catch::Contains("\treplies carried, by path: 10.77.1.2:45453 6000, "
                                     "10.77.2.2:45453 2000\n"));
}

// An SCTP association of one path, without path options or --at: its
// settings are stated, but it has no paths block, and no "paths" member.
TEST_CASE("paths text and json: an association whose paths are not watched") {
    path_failure_report r;
    r.sctp = true;
    sctp_path_values in_use;
    in_use.hb_interval_ms = 30000;
    in_use.hb_enabled = true;
    in_use.path_max_retrans = 5;
    r.in_use = in_use;
    std::ostringstream settings;
    write_path_settings_lines(settings, r, nlohmann::json::object());
    CHECK_THAT(settings.str(), Catch::Contains("\tsctp paths (client, read back): heartbeat "
                                               "30000 ms (asked the system's), path-max-retrans "
                                               "5 (asked the system's)"));
    std::ostringstream blocks;
    write_paths_blocks(blocks, r);
    CHECK(blocks.str().empty());
    CHECK(paths_json(r).is_null());
}

TEST_CASE("paths json: the members, their units in their keys") {
    const auto r = two_paths_failed_over();
    const auto failure = failure_json(r);
    CHECK(failure["fault_s"] == 2.001);
    CHECK(failure["faulted_path"] == "10.77.1.2:45453");
    CHECK(failure["other_path_reply_after_ms"] == 312.0);
    CHECK(failure["client_detection"]["after_ms"] == 152.0);
    CHECK(failure["predicted"]["unreachable_ms"] == 150);
    CHECK(failure["predicted"]["pf_ms"].is_null());
    CHECK(failure["longest_gap_ms"] == 313.0);
    CHECK(failure["later_slower_than_p99_9"] == 312);
    CHECK(failure["replies_by_path"]["10.77.2.2:45453"] == 2000);
    const auto faults = faults_json(r);
    REQUIRE(faults.size() == 1);
    CHECK(faults[0]["exit_status"] == 0);
    CHECK(faults[0]["duration_s"] == 0.012);
    const auto paths = paths_json(r);
    CHECK(paths["client"]["events"][0]["event"] == "unreachable");
    CHECK(paths["server"]["known"] == false);
    CHECK(paths["final"]["primary"] == "10.77.1.2:45453");
    CHECK(path_settings_requested_json(r.asked)["hb_interval_ms"] == 100);
    CHECK(path_settings_requested_json(r.asked)["assoc_max_retrans"].is_null());
    // Over TCP, without --at: nothing.
    const path_failure_report tcp;
    CHECK(paths_json(tcp).is_null());
    CHECK(faults_json(tcp).is_null());
    CHECK(failure_json(tcp).is_null());
}

TEST_CASE("fan-out: servers differ in their path settings, not in their primary paths") {
    // Each server's primary path is the client's address on that
    // association: per connection, as its clocks' gap is, not a setting.
    const auto settings = [](const char* primary, int path_max_retrans) {
        return nlohmann::json{{"transport", "sctp"},
                              {"sctp_paths",
                               {{"hb_interval_ms", 100},
                                {"hb_enabled", true},
                                {"path_max_retrans", path_max_retrans},
                                {"assoc_max_retrans", 10},
                                {"primary", primary}}}};
    };
    run_report r;
    r.servers = {{"a:1", {}, settings("10.0.0.1:40001", 1)},
                 {"b:1", {}, settings("10.0.0.1:40002", 1)}};
    CHECK_FALSE(server_settings_differ(r));
    r.servers[1].settings = settings("10.0.0.1:40002", 2);
    CHECK(server_settings_differ(r));
}
