// SPDX-License-Identifier: Apache-2.0
#include "report/json_numbers.hpp"

#include <catch2/catch.hpp>

using json = nlohmann::ordered_json;

TEST_CASE("json numbers: microseconds keep 3 decimals, nothing more") {
    json doc = {{"p50_us", 20.84035919999994},
                {"variance_us2", 4.53476190476},
                {"duration_s", 0.43154212345},
                {"read_cost_ns", 20.56},
                {"rate_per_s", 1600.0000001},
                {"payload_mb_per_s", 0.0512345678},
                {"count", 7},
                {"nested", {{"rows", json::array({json{{"low_us", 0.30000000000000004}}})}}},
                {"samples_us", json::array({1.00049, 2.0006})}};
    sctp_perf::round_json_floats(doc);
    CHECK(doc["p50_us"].get<double>() == 20.84);
    CHECK(doc["p50_us"].dump() == "20.84");
    CHECK(doc["variance_us2"].get<double>() == 4.53476);  // 6 significant digits
    CHECK(doc["duration_s"].get<double>() == 0.431542);
    CHECK(doc["read_cost_ns"].get<double>() == 20.6);
    CHECK(doc["rate_per_s"].get<double>() == 1600.0);
    CHECK(doc["payload_mb_per_s"].get<double>() == 0.0512346);  // 6 significant digits
    CHECK(doc["count"].is_number_integer());
    CHECK(doc["nested"]["rows"][0]["low_us"].dump() == "0.3");
    CHECK(doc["samples_us"][0].get<double>() == 1.0);
    CHECK(doc["samples_us"][1].get<double>() == 2.001);
}
