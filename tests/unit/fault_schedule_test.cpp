// SPDX-License-Identifier: Apache-2.0
// The --at commands run for real: /bin/sh, its output file, its exit status,
// the bound that kills a command's whole process group, and a command the
// run never reached. Short instants, so that the test takes under a second.
#include "client/fault_schedule.hpp"

#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace sctp_perf;
using namespace std::chrono_literals;

namespace {

struct temporary_directory {
    std::filesystem::path path;
    temporary_directory() {
        path = std::filesystem::temp_directory_path() /
               ("fault_schedule_test." + std::to_string(::getpid()));
        std::filesystem::create_directories(path);
    }
    ~temporary_directory() { std::filesystem::remove_all(path); }
};

std::string contents(const std::string& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Whether process `pid` is gone (or a zombie no one has reaped yet).
bool gone(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto paren = text.rfind(')');
    return text.empty() ||
           (paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z');
}

}  // namespace

TEST_CASE("fault_schedule: each command at its instant, its output, status and bound") {
    temporary_directory dir;
    fault_request request;
    request.output_dir = dir.path.string();
    request.timeout = 300ms;
    const auto pid_file = (dir.path / "background.pid").string();
    request.commands = {
        {100ms, "echo out; echo err >&2; exit 3"},
        // A shell that starts a child of its own and outlives the bound: both go.
        {50ms, "sleep 30 & echo $! > " + pid_file + "; wait"},
        {10s, "echo never"},
    };
    fault_schedule schedule(request, "prog");
    std::vector<unsigned> told;
    const auto t0 = std::chrono::steady_clock::now();
    schedule.start(t0, [&told](unsigned index) { told.push_back(index); });
    std::this_thread::sleep_for(600ms);
    schedule.stop_starting();
    const auto outcomes = schedule.finish();
    REQUIRE(outcomes.size() == 3);

    // In command-line order, each told before it started (the instants'
    // order: the second command first).
    CHECK(told == std::vector<unsigned>{2, 1});
    const auto& first = outcomes[0];
    CHECK(first.index == 1);
    CHECK(first.started);
    CHECK(first.started_at >= 100ms);
    CHECK(first.started_at < 400ms);
    CHECK(first.exit_status == 3);
    CHECK_FALSE(first.timed_out);
    REQUIRE(first.took.has_value());
    CHECK(*first.took < 300ms);
    CHECK(first.output_file == (dir.path / "prog-at-1.log").string());
    CHECK(contents(first.output_file) == "out\nerr\n");

    const auto& hung = outcomes[1];
    CHECK(hung.started);
    CHECK(hung.timed_out);
    CHECK(hung.signal == SIGKILL);
    REQUIRE(hung.took.has_value());
    CHECK(*hung.took >= 300ms);
    CHECK(*hung.took < 2s);
    const auto background = std::stoi(contents(pid_file));
    bool background_gone = false;
    for (int i = 0; i < 100 && !background_gone; ++i) {
        background_gone = gone(background);
        std::this_thread::sleep_for(10ms);
    }
    CHECK(background_gone);  // the process group went, not the shell alone

    const auto& late = outcomes[2];
    CHECK_FALSE(late.started);
    CHECK(late.not_started == "not reached: the measured run ended first");
    CHECK_FALSE(std::filesystem::exists(late.output_file));
}

TEST_CASE("fault_schedule: a command that cannot start says why, and the run goes on") {
    fault_request request;
    request.output_dir = "/nonexistent-directory-of-this-test";
    request.commands = {{0ms, "true"}};
    fault_schedule schedule(request, "prog");
    schedule.start(std::chrono::steady_clock::now());
    std::this_thread::sleep_for(100ms);
    const auto outcomes = schedule.finish();
    REQUIRE(outcomes.size() == 1);
    CHECK_FALSE(outcomes[0].started);
    CHECK_THAT(outcomes[0].not_started, Catch::StartsWith("cannot start it: "));
}

TEST_CASE("fault_schedule: never started, nothing runs") {
    fault_request request;
    request.commands = {{0ms, "true"}};
    fault_schedule schedule(request, "prog");
    const auto outcomes = schedule.finish();
    REQUIRE(outcomes.size() == 1);
    CHECK_FALSE(outcomes[0].started);
    CHECK(outcomes[0].not_started == "not reached: the measured run ended first");
}
