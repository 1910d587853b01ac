// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "client/client_output.hpp"
#include "option_test_support.hpp"

using namespace sctp_perf;
using sctp_perf::testing::command_line;

namespace {

failure_outputs requested(std::vector<std::string> words) {
    const command_line cl(std::move(words));
    return failure_outputs_requested(cl.argc(), cl.argv());
}

}  // namespace

TEST_CASE("failure outputs: none asked, none given", "[client_output]") {
    const auto out = requested({"-t", "tcp", "-s", "4"});
    CHECK_FALSE(out.json_on_stdout);
    CHECK(out.json_file.empty());
}

TEST_CASE("failure outputs: --format json in both spellings, the last one winning",
          "[client_output]") {
    CHECK(requested({"--format", "json"}).json_on_stdout);
    CHECK(requested({"--format=json"}).json_on_stdout);
    CHECK_FALSE(requested({"--format=json", "--format", "text"}).json_on_stdout);
    CHECK(requested({"--format", "text", "--format=json"}).json_on_stdout);
    // A --format with nothing after it names no format.
    CHECK_FALSE(requested({"--format"}).json_on_stdout);
}

TEST_CASE("failure outputs: --json-file in both spellings and ACE's underscores",
          "[client_output]") {
    CHECK(requested({"--json-file", "a.json"}).json_file == "a.json");
    CHECK(requested({"--json-file=b.json"}).json_file == "b.json");
    CHECK(requested({"--json_file=c.json"}).json_file == "c.json");
    CHECK(requested({"--json-file", "a.json", "--json-file=d.json"}).json_file == "d.json");
    // Another option that begins alike is not it.
    CHECK(requested({"--json-files=e.json"}).json_file.empty());
}
