// SPDX-License-Identifier: Apache-2.0
#include "runtime/process_usage.hpp"

#include <time.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <thread>

using namespace std::chrono_literals;
using sctp_perf::process_usage;

namespace {

// CPU time the calling thread has used, from the scheduler's own account
// (CLOCK_THREAD_CPUTIME_ID, nanoseconds): a clock apart from getrusage, which
// is what these tests check.
std::chrono::nanoseconds thread_cpu_time() {
    timespec now{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return std::chrono::seconds{now.tv_sec} + std::chrono::nanoseconds{now.tv_nsec};
}

// Keeps the calling thread busy until it has used at least `cpu` of CPU time,
// however long that takes on a busy machine, and returns what it used. The
// work between two clock reads (a system call each) is long enough to leave
// nearly all of that time in user mode.
std::chrono::nanoseconds burn_cpu(std::chrono::nanoseconds cpu) {
    const std::chrono::nanoseconds start = thread_cpu_time();
    std::chrono::nanoseconds used{};
    volatile std::uint64_t sink = 0;
    while ((used = thread_cpu_time() - start) < cpu) {
        for (std::uint64_t i = 0; i < 100'000; ++i) {
            sink = sink + i;
        }
    }
    return used;
}

double seconds_of(std::chrono::nanoseconds d) {
    return std::chrono::duration<double>(d).count();
}

}  // namespace

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
    CHECK(process.at >= thread.at);
    // Read later and over every thread, the process has used at least as
    // much CPU as this one thread (with a tick of slack for the accounting).
    CHECK(process.cpu_user_s + process.cpu_system_s + 0.01 >=
          thread.cpu_user_s + thread.cpu_system_s);
}

TEST_CASE("process usage: CPU time read back grows by the CPU time burnt", "[usage]") {
    // In a thread of its own, whose whole life is the burn: the kernel
    // splits a thread's CPU time into user and system time by the share of
    // its clock ticks that found it in each, over its whole life, so in the
    // test runner's thread, after tests that spent seconds in system calls,
    // the burn's user time could show as partly system time.
    process_usage thread_before;
    process_usage thread_after;
    process_usage process_before;
    process_usage process_after;
    double burnt_s = 0.0;
    std::thread burner([&] {
        thread_before = sctp_perf::read_thread_usage();
        process_before = sctp_perf::read_process_usage();
        burnt_s = seconds_of(burn_cpu(200ms));
        thread_after = sctp_perf::read_thread_usage();
        process_after = sctp_perf::read_process_usage();
    });
    burner.join();
    INFO("burnt " << burnt_s << " s of the burning thread's CPU time");

    // getrusage adds the scheduler's nanoseconds up to microseconds, so the
    // thread's total should grow by the burnt 0.2 s to within a few ticks;
    // half and one and a half times leave room for any accounting, and still
    // fail a reading of the wrong thing (another thread, the children, no
    // one) or in the wrong unit (tv_usec as milliseconds reads 1000 times
    // too much).
    const double thread_s = (thread_after.cpu_user_s + thread_after.cpu_system_s) -
                            (thread_before.cpu_user_s + thread_before.cpu_system_s);
    CHECK(thread_s >= 0.5 * burnt_s);
    CHECK(thread_s <= 1.5 * burnt_s + 0.02);
    // The loop computes in user mode: user time, not kernel time, grows.
    CHECK(thread_after.cpu_user_s - thread_before.cpu_user_s >= 0.5 * burnt_s);

    // The process counts this thread too (and whatever else runs in it, so
    // no upper bound).
    const double process_s = (process_after.cpu_user_s + process_after.cpu_system_s) -
                             (process_before.cpu_user_s + process_before.cpu_system_s);
    CHECK(process_s >= 0.5 * burnt_s);
    CHECK(process_after.cpu_user_s - process_before.cpu_user_s >= 0.5 * burnt_s);

    // So a percentage over the wall time shows the burn, however stretched.
    CHECK(sctp_perf::cpu_percent_between(thread_before, thread_after) > 0.0);
}
