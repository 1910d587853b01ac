// SPDX-License-Identifier: Apache-2.0
#pragma once
// A small, fixed run whose every reported number can be checked by hand.
//
// Layout 0..4 us in 4 bins of 1 us, keeping 2 outliers. Round trips in
// iteration order (us): 0.5, 1.5, 1.5, 1.9, 5.0, 4.5, 6.0.
//   min 0.5, max 6.0, mean 20.9 / 7 = 2.985714...
//   sample variance: sum x^2 = 89.61, n*mean^2 = 436.81 / 7 = 62.401429,
//                    (89.61 - 62.401429) / 6 = 4.5347619
//   bins [0,1): 1, [1,2): 3, [2,3): 0, [3,4): 0, above: 3 (5.0, 4.5, 6.0)
//   kept outliers: 6.0 (iteration 6), 5.0 (iteration 4)
//   p50: rank ceil(3.5) = 4 -> 1.9 (exact: below 2048 ns every ns has a bucket);
//   p90, p99, p99.9, p99.99, p99.999, p99.9999: rank 7 -> 6.0, the maximum.
// Measured for 0.25 s: the loop spent 0.25 s - 20.9 us = 249979.1 us outside
// the timed windows, 35711.3 us = 35711300 ns per round trip.
// Both ends unpinned on a 2-CPU machine, Nagle off at both ends.

#include <chrono>

#include "report/run_report.hpp"

namespace sctp_perf::testing {

struct small_run {
    latency_recorder recorder{bin_layout{0.0, 4.0, 4, 2}};
    run_report report;

    small_run() {
        const int rtt_ns[] = {500, 1500, 1500, 1900, 5000, 4500, 6000};
        for (std::uint64_t i = 0; i < 7; ++i) {
            recorder.record(std::chrono::nanoseconds(rtt_ns[i]), i);
        }
        report.program = {"SOCK_STREAM_clt", "test", socket_service::stream, true};
        report.options.iterations = 7;
        report.options.payload_power = 7;
        report.options.histogram = bin_layout{0.0, 4.0, 4, 2};
        report.options.common.transport = transport_protocol::tcp;
        report.environment = {"testhost", "Linux 6.1.0 x86_64", 2, "0-1", "2026-01-02T03:04:05Z"};
        report.local_addresses = {"127.0.0.1:40000"};
        report.peer_addresses = {"127.0.0.1:45453"};
        report.duration_s = 0.25;
        // 0.05 s user and 0.1 s system over 0.25 s: 20 % and 40 %, 60 % of one CPU.
        report.client_cpu_user_s = 0.05;
        report.client_cpu_system_s = 0.1;
        report.recorder = &recorder;
        report.clock = clock_info{"tsc", 1, 20.5};
        report.server_settings = {
            {"protocol_version", 3},
            {"version", "9.9.9"},
            {"program", "SOCK_STREAM_srv"},
            {"host", "serverhost"},
            {"kernel", "Linux 6.1.0 x86_64"},
            {"cpu_count", 2},
            {"cpu_affinity", "0-1"},
            {"transport", "tcp"},
            {"nagle", false},
            {"spin", false},
            {"sndbuf_bytes", 16384},
            {"rcvbuf_bytes", 131072},
            {"sctp_rto", nullptr},
            {"sctp", nullptr},
        };
    }
};

}  // namespace sctp_perf::testing
