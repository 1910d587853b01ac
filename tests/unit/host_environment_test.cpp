// SPDX-License-Identifier: Apache-2.0
// The machine a program runs on: read in runtime/ from the real system, and
// written into the client's report by report/ without another look at it.

#include "runtime/host_environment.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>

#include "report/run_report.hpp"
#include "runtime/cpu_affinity.hpp"

TEST_CASE("host environment: a real reading names the kernel and the CPUs") {
    const sctp_perf::host_environment host = sctp_perf::read_host_environment();
    CHECK_FALSE(host.hostname.empty());
    CHECK(host.kernel.rfind("Linux ", 0) == 0);
    CHECK(host.cpu_count == static_cast<unsigned>(::sysconf(_SC_NPROCESSORS_ONLN)));
    // The affinity is the process's own, in the form --cpu takes.
    CHECK(host.cpu_affinity == sctp_perf::current_cpu_affinity());
    CHECK(sctp_perf::parse_cpu_list(host.cpu_affinity));
}

TEST_CASE("environment: the report describes the host and the start in UTC") {
    const sctp_perf::host_environment host{"testhost", "Linux 6.1.0 x86_64", 4, "1-2"};
    // 1,700,000,000 s after the epoch: 19,675 days (2023-11-14) and 80,000 s,
    // which is 22 h 13 min 20 s.
    const auto started =
        std::chrono::system_clock::time_point{} + std::chrono::seconds{1'700'000'000};
    const sctp_perf::environment_info env = sctp_perf::describe_environment(host, started);
    CHECK(env.hostname == "testhost");
    CHECK(env.kernel == "Linux 6.1.0 x86_64");
    CHECK(env.cpu_count == 4);
    CHECK(env.client_cpu_affinity == "1-2");
    CHECK(env.started_at == "2023-11-14T22:13:20Z");
}
