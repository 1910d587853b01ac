// SPDX-License-Identifier: Apache-2.0
#include "client/check_lines.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "errors.hpp"

using namespace sctp_perf;

namespace {

// The command lines check_lines gave the check, each as its words after the
// program's name; the check refuses a line holding "refused".
struct recording_check {
    std::vector<std::vector<std::string>> seen;

    void operator()(int argc, const char* const* argv) {
        REQUIRE(std::string(argv[0]) == "SOCK_STREAM_clt");
        seen.emplace_back(argv + 1, argv + argc);
        for (const auto& word : seen.back()) {
            if (word == "refused") {
                throw usage_error("refused here");
            }
        }
    }
};

std::string run_lines(const std::string& input, recording_check& check) {
    std::istringstream in(input);
    std::ostringstream out;
    check_lines(in, out, "SOCK_STREAM_clt",
                [&](int argc, const char* const* argv) { check(argc, argv); });
    return out.str();
}

}  // namespace

TEST_CASE("check lines: only the option alone, in either spelling") {
    const char* alone[] = {"SOCK_STREAM_clt", "--check-lines"};
    const char* underscores[] = {"SOCK_STREAM_clt", "--check_lines"};
    const char* with_more[] = {"SOCK_STREAM_clt", "--check-lines", "-s"};
    const char* other[] = {"SOCK_STREAM_clt", "--check"};
    CHECK(asks_check_lines(2, alone));
    CHECK(asks_check_lines(2, underscores));
    CHECK_FALSE(asks_check_lines(3, with_more));
    CHECK_FALSE(asks_check_lines(2, other));
    CHECK_FALSE(asks_check_lines(1, alone));
}

TEST_CASE("check lines: each line's words in order, each accepted line's number") {
    recording_check check;
    // Line 2 is blank: counted, not checked. Words keep their blanks and quotes.
    const auto out =
        run_lines("[\"-s\", \"4\"]\n\n[\"-H\", \"a b\", \"--x=\\\"y\\\"\"]\n[]\n", check);
    CHECK(out == "1\n3\n4\n");
    REQUIRE(check.seen.size() == 3);
    CHECK(check.seen[0] == std::vector<std::string>{"-s", "4"});
    CHECK(check.seen[1] == std::vector<std::string>{"-H", "a b", "--x=\"y\""});
    CHECK(check.seen[2].empty());
}

TEST_CASE("check lines: the first refused line ends it, the later ones unread") {
    recording_check check;
    std::istringstream in("[\"ok\"]\n[\"refused\"]\nnot JSON\n");
    std::ostringstream out;
    CHECK_THROWS_WITH(check_lines(in, out, "SOCK_STREAM_clt",
                                  [&](int argc, const char* const* argv) { check(argc, argv); }),
                      "refused here");
    CHECK(out.str() == "1\n");
    CHECK(check.seen.size() == 2);
}

TEST_CASE("check lines: a line that is not a JSON list of strings is a usage error") {
    for (const std::string line :
         {"not JSON", "{\"s\": 4}", "[\"-s\", 4]", "\"-s\"", "[[\"-s\"]]"}) {
        recording_check check;
        std::istringstream in("[\"-s\", \"4\"]\n" + line + "\n");
        std::ostringstream out;
        CHECK_THROWS_MATCHES(
            check_lines(in, out, "SOCK_STREAM_clt",
                        [&](int argc, const char* const* argv) { check(argc, argv); }),
            usage_error,
            Catch::Matchers::Message("--check-lines: line 2 is not a JSON list of the words of a "
                                     "command line, such as [\"-s\", \"4\", \"-t\", \"tcp\"]"));
        CHECK(out.str() == "1\n");
    }
}
