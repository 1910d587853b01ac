// SPDX-License-Identifier: Apache-2.0
// What the timers predict for a silent path, against a table worked out by
// hand: each row's sum is written out beside it.
#include "stats/detection_prediction.hpp"

#include <catch2/catch.hpp>

using namespace sctp_perf;

TEST_CASE("retransmission_timeouts_ms: the RTO doubles up to rto_max, once per expiry") {
    struct row {
        std::uint64_t rto_ms, rto_max_ms, expiries, total_ms;
    };
    const row table[] = {
        {50, 200, 0, 0},           // no expiry
        {50, 200, 1, 50},          // 50
        {50, 200, 2, 150},         // 50 + 100
        {50, 200, 3, 350},         // 50 + 100 + 200
        {50, 200, 6, 950},         // 50 + 100 + 200 + 200 + 200 + 200
        {20, 200, 6, 700},         // 20 + 40 + 80 + 160 + 200 + 200
        {200, 1000, 3, 1400},      // 200 + 400 + 800
        {200, 1000, 6, 4400},      // 200 + 400 + 800 + 1000 + 1000 + 1000
        {1000, 60000, 6, 63000},   // 1000 + 2000 + 4000 + 8000 + 16000 + 32000
        {3000, 60000, 6, 153000},  // 3000 + 6000 + 12000 + 24000 + 48000 + 60000
        {300, 200, 2, 400},        // an RTO above the cap counts as the cap: 200 + 200
        {100, 201, 3, 501},        // 100 + 200 + 201: the cap, not a doubling past it
        {200, 200, 4, 800},        // 200 four times
    };
    for (const auto& r : table) {
        INFO(r.rto_ms << " ms, cap " << r.rto_max_ms << ", " << r.expiries << " expiries");
        CHECK(retransmission_timeouts_ms(r.rto_ms, r.rto_max_ms, r.expiries) == r.total_ms);
    }
}

TEST_CASE("retransmission_timeouts_ms: a long count stays at the cap without overflowing") {
    // 1 + 2 + 4 + ... + 2^39 = 2^40 - 1, then 60000 expiries more at a cap of
    // 2^40: (2^40 - 1) + 60000 * 2^40.
    const std::uint64_t cap = std::uint64_t{1} << 40;
    CHECK(retransmission_timeouts_ms(1, cap, 60040) == (cap - 1) + 60000 * cap);
}

TEST_CASE("predict_detection: unreachable after path-max-retrans + 1 expiries") {
    detection_inputs in;
    in.rto_ms = 50;
    in.rto_max_ms = 200;
    in.path_max_retrans = 1;
    const auto p = predict_detection(in);
    CHECK(p.unreachable_expiries == 2);
    CHECK(p.unreachable_ms == 150);  // 50 + 100
    CHECK_FALSE(p.pf_ms.has_value());
    CHECK(p.first_ms() == 150);
}

TEST_CASE(
    "predict_detection: potentially failed after pf threshold + 1 expiries, where Linux "
    "takes it") {
    detection_inputs in;
    in.rto_ms = 50;
    in.rto_max_ms = 200;
    in.path_max_retrans = 5;
    in.pf_enabled = true;
    in.pf_threshold = 0;
    auto p = predict_detection(in);
    REQUIRE(p.pf_ms.has_value());
    CHECK(*p.pf_expiries == 1);
    CHECK(*p.pf_ms == 50);           // 50
    CHECK(p.unreachable_ms == 950);  // 50 + 100 + 200 + 200 + 200 + 200
    CHECK(p.first_ms() == 50);

    in.path_max_retrans = 3;
    in.pf_threshold = 1;
    p = predict_detection(in);
    REQUIRE(p.pf_ms.has_value());
    CHECK(*p.pf_ms == 150);  // 50 + 100: 2 expiries, and 2 < 3

    // Linux marks a path potentially failed only while its error count is
    // below path-max-retrans: threshold 1, path-max-retrans 2 never is.
    in.path_max_retrans = 2;
    CHECK_FALSE(predict_detection(in).pf_ms.has_value());
    in.path_max_retrans = 1;
    in.pf_threshold = 0;
    CHECK_FALSE(predict_detection(in).pf_ms.has_value());

    // net.sctp.pf_enable 0: none, whatever the threshold.
    in.path_max_retrans = 5;
    in.pf_enabled = false;
    CHECK_FALSE(predict_detection(in).pf_ms.has_value());
}
