#include "report/process_usage.hpp"

#include <catch2/catch.hpp>

using namespace std::chrono_literals;
using sctp_perf::process_usage;

TEST_CASE("process usage: cpu percent is CPU time over wall time", "[usage]") {
    process_usage earlier;
    earlier.at = std::chrono::steady_clock::time_point{} + 10s;
    earlier.cpu_user_s = 1.0;
    earlier.cpu_system_s = 0.5;
    process_usage later = earlier;
    later.at += 2s;
    later.cpu_user_s = 1.75;
    later.cpu_system_s = 0.75;
    // (0.75 s user + 0.25 s system) / 2 s wall = 50 % of one CPU.
    CHECK(sctp_perf::cpu_percent_between(earlier, later) == Approx(50.0));

    // Three busy threads: 1.5 s user + 1.5 s system in 1 s = 300 %.
    later = earlier;
    later.at += 1s;
    later.cpu_user_s += 1.5;
    later.cpu_system_s += 1.5;
    CHECK(sctp_perf::cpu_percent_between(earlier, later) == Approx(300.0));
}

TEST_CASE("process usage: no wall time gives 0, not a division by zero", "[usage]") {
    process_usage earlier;
    process_usage later = earlier;
    later.cpu_user_s = 1.0;
    CHECK(sctp_perf::cpu_percent_between(earlier, later) == 0.0);
}

TEST_CASE("process usage: rss tracker keeps min, mean and max", "[usage]") {
    sctp_perf::rss_tracker rss;
    CHECK(rss.count() == 0);
    CHECK(rss.min_kib() == 0);
    CHECK(rss.avg_kib() == 0.0);
    CHECK(rss.max_kib() == 0);

    // 300, 100, 200, 400: min 100, max 400, mean 1000 / 4 = 250.
    for (std::uint64_t kib : {300, 100, 200, 400}) {
        rss.add(kib);
    }
    CHECK(rss.count() == 4);
    CHECK(rss.min_kib() == 100);
    CHECK(rss.avg_kib() == 250.0);
    CHECK(rss.max_kib() == 400);
}

TEST_CASE("process usage: a real reading has a resident set", "[usage]") {
    const process_usage thread = sctp_perf::read_thread_usage();
    const process_usage process = sctp_perf::read_process_usage();
    CHECK(process.rss_kib > 0);
    CHECK(thread.rss_kib > 0);
    CHECK(process.cpu_user_s >= 0.0);
    CHECK(process.cpu_system_s >= 0.0);
    CHECK(process.at >= thread.at);
    // Read later and over every thread, the process has used at least as
    // much CPU as this one thread (with a tick of slack for the accounting).
    CHECK(process.cpu_user_s + process.cpu_system_s + 0.01 >=
          thread.cpu_user_s + thread.cpu_system_s);
}
