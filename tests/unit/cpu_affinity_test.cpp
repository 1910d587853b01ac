// SPDX-License-Identifier: Apache-2.0
// CPU lists as --cpu takes them and reports write them: parsing, describing,
// counting; placing worker threads on a list (one CPU each, and the warning
// when they must share); and the two options that place and pace a program (--cpu, --spin)
// on every program's command line.

#include "runtime/cpu_affinity.hpp"

#include <catch2/catch.hpp>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "errors.hpp"
#include "option_test_support.hpp"
#include "options/client_options.hpp"
#include "options/server_options.hpp"

using namespace sctp_perf;
using cpus = std::vector<unsigned>;

TEST_CASE("cpu list: the forms taskset -c and sysfs write") {
    CHECK(parse_cpu_list("0") == cpus{0});
    CHECK(parse_cpu_list("1") == cpus{1});
    CHECK(parse_cpu_list("0-1") == cpus{0, 1});
    CHECK(parse_cpu_list("0,2-3") == cpus{0, 2, 3});
    CHECK(parse_cpu_list("3,0") == cpus{0, 3});           // sorted
    CHECK(parse_cpu_list("1-2,2,0-1") == cpus{0, 1, 2});  // each once
    CHECK(parse_cpu_list("5-5") == cpus{5});              // a range of one
    CHECK(parse_cpu_list("65535") == cpus{max_cpu_number - 1});
}

TEST_CASE("cpu list: anything else is malformed") {
    for (const char* text : {"", "x", "-1", "1-", "-", "2-1", "0,", ",0", "0,,1", " 0", "0 ", "+1",
                             "0-1-2", "1.5", "0x1", "65536", "99999999999999999999"}) {
        INFO("'" << text << "'");
        CHECK_FALSE(parse_cpu_list(text));
    }
}

TEST_CASE("cpu list: described with runs collapsed") {
    CHECK(describe_cpus(cpus{}).empty());
    CHECK(describe_cpus(cpus{0}) == "0");
    CHECK(describe_cpus(cpus{0, 1}) == "0-1");
    CHECK(describe_cpus(cpus{0, 1, 3}) == "0-1,3");
    CHECK(describe_cpus(cpus{3, 1, 0, 1}) == "0-1,3");  // unsorted, a repeat
    CHECK(describe_cpus(cpus{0, 2, 4, 5, 6, 8}) == "0,2,4-6,8");
    // A description parses back to the same CPUs.
    CHECK(parse_cpu_list(describe_cpus(cpus{0, 2, 4, 5, 6, 8})) == cpus{0, 2, 4, 5, 6, 8});
}

TEST_CASE("cpu list: counting the CPUs of a description") {
    CHECK(count_cpus("0") == 1);
    CHECK(count_cpus("0-1") == 2);
    CHECK(count_cpus("0-1,3") == 3);      // 0, 1, 3
    CHECK(count_cpus("0,2,4-6,8") == 6);  // 0, 2, 4, 5, 6, 8
    CHECK(count_cpus("0-63") == 64);
    CHECK(count_cpus("") == 0);
    CHECK(count_cpus("garbage") == 0);
}

TEST_CASE("cpu list: this machine's CPUs") {
    const auto online = online_cpus();
    REQUIRE_FALSE(online.empty());
    // The calling thread may run on some of them, described in the same form.
    CHECK(count_cpus(current_cpu_affinity()) >= 1);
    CHECK(count_cpus(current_cpu_affinity()) <= online.size());
    // Nothing asked, nothing changed.
    const auto before = current_cpu_affinity();
    pin_process({});
    CHECK(current_cpu_affinity() == before);
}

TEST_CASE("pin_process: a CPU the machine does not have is named with the ones it has") {
    const auto online = online_cpus();
    const unsigned absent = online.back() + 1;
    const auto message =
        "--cpu " + std::to_string(absent) + ": this machine has CPUs " + describe_cpus(online);
    const auto before = current_cpu_affinity();
    CHECK_THROWS_WITH(pin_process(cpus{absent}), message);
    CHECK(current_cpu_affinity() == before);  // unchanged when refused
}

TEST_CASE("worker cpus: worker i on the list's i-th CPU, round robin beyond its end") {
    // Two workers on 0,2-3: 0 and 2; CPU 3 runs no worker.
    CHECK(worker_cpus(cpus{0, 2, 3}, 2) == cpus{0, 2});
    CHECK(worker_cpus(cpus{0, 2, 3}, 3) == cpus{0, 2, 3});
    // Five on two CPUs: 0 1 0 1 0 (two take turns on CPU 0, one less on 1).
    CHECK(worker_cpus(cpus{0, 1}, 5) == cpus{0, 1, 0, 1, 0});
    CHECK(worker_cpus(cpus{7}, 2) == cpus{7, 7});
    // The list's order is ascending, as --cpu 3,1 parses to {1, 3}.
    CHECK(worker_cpus(cpus{3, 1}, 2) == cpus{1, 3});
}

TEST_CASE("worker cpus: none without a list, and none for a single worker") {
    // A lone worker keeps the whole list, as the process has it: a
    // single-thread run is placed exactly as before workers were pinned.
    CHECK(worker_cpus(cpus{0, 1}, 1).empty());
    CHECK(worker_cpus(cpus{0}, 1).empty());
    CHECK(worker_cpus(cpus{}, 4).empty());
    CHECK(worker_cpus(cpus{0, 1}, 0).empty());
}

TEST_CASE("shared cpus warning: exactly when workers outnumber the CPUs") {
    CHECK_FALSE(shared_cpus_warning(1, 1, true));
    CHECK_FALSE(shared_cpus_warning(2, 2, true));
    CHECK_FALSE(shared_cpus_warning(2, 4, false));
    CHECK(shared_cpus_warning(2, 1, true) ==
          "2 worker threads share 1 CPU (the --cpu list), so busy ones take turns by time "
          "slices and the latencies include the wait: give --threads 1 or more CPUs with --cpu");
    const auto inherited = shared_cpus_warning(5, 2, false);
    REQUIRE(inherited);
    CHECK_THAT(*inherited, Catch::Matchers::StartsWith("5 worker threads share 2 CPUs (the CPUs "
                                                       "this process may run on)"));
    CHECK_THAT(*inherited, Catch::Matchers::EndsWith("give --threads 2 or more CPUs with --cpu"));
}

TEST_CASE("pin_thread: a thread runs on the one CPU it is pinned to, read back by the kernel") {
    const auto allowed = parse_cpu_list(current_cpu_affinity());
    REQUIRE(allowed);
    REQUIRE_FALSE(allowed->empty());
    const unsigned cpu = allowed->back();
    std::promise<void> pinned;
    std::promise<std::string> seen;
    std::thread worker([&] {
        pinned.get_future().wait();
        seen.set_value(current_cpu_affinity());
    });
    try {
        pin_thread(worker.native_handle(), cpu);
    } catch (...) {
        pinned.set_value();
        worker.join();
        throw;
    }
    pinned.set_value();
    worker.join();
    CHECK(seen.get_future().get() == std::to_string(cpu));
    // The calling thread is untouched.
    CHECK(parse_cpu_list(current_cpu_affinity()) == *allowed);
}

TEST_CASE("pin_thread: a CPU the kernel will not give is named") {
    std::promise<void> done;
    std::thread idle([wait = done.get_future()]() mutable { wait.wait(); });
    const unsigned absent = online_cpus().back() + 1;
    CHECK_THROWS_WITH(pin_thread(idle.native_handle(), absent),
                      Catch::Matchers::Contains("CPU " + std::to_string(absent)));
    done.set_value();
    idle.join();
}

using sctp_perf::testing::client_usage_error;
using sctp_perf::testing::parsed_client;
using sctp_perf::testing::parsed_server;
using sctp_perf::testing::seqpack_client;
using sctp_perf::testing::seqpack_server;
using sctp_perf::testing::server_usage_error;

TEST_CASE("placement options: --cpu and --spin on every program, off by default") {
    // A client needs -s; a server nothing.
    const auto check = [](auto common_of, std::vector<std::string> words) {
        const auto defaults = common_of(words);
        CHECK(defaults.cpus.empty());
        CHECK_FALSE(defaults.spin);
        words.insert(words.end(), {"--cpu", "0,2-3", "--spin"});
        const auto given = common_of(words);
        CHECK(given.cpus == cpus{0, 2, 3});
        CHECK(given.spin);
    };
    check([](auto words) { return parsed_server(std::move(words)).common; }, {});
    check([](auto words) { return parsed_server(std::move(words), seqpack_server).common; }, {});
    check([](auto words) { return parsed_client(std::move(words)).common; }, {"-s", "7"});
    check([](auto words) { return parsed_client(std::move(words), seqpack_client).common; },
          {"-s", "7"});
}

TEST_CASE("placement options: a malformed --cpu list is one sentence naming the accepted form") {
    const std::string expected =
        "--cpu must list CPU numbers and ranges separated by commas, such as 0, 1-3 or 0,2-3, "
        "not 'x'";
    CHECK(server_usage_error({"--cpu", "x"}) == expected);
    CHECK(client_usage_error({"-s", "7", "--cpu", "x"}) == expected);
    CHECK(client_usage_error({"-s", "7", "--cpu", "2-1"}, seqpack_client).find("not '2-1'") !=
          std::string::npos);
    CHECK(server_usage_error({"--cpu", ""}, seqpack_server).find("not ''") != std::string::npos);
}
