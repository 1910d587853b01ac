// SPDX-License-Identifier: Apache-2.0
// The --help of every program, the typo suggestion and the program's name on
// every line of a usage report.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <regex>
#include <sstream>

#include "errors.hpp"
#include "option_test_support.hpp"
#include "options/client_options.hpp"
#include "options/server_options.hpp"
#include "text_lines.hpp"

using namespace sctp_perf;
using sctp_perf::testing::command_line;

namespace {

bool is_client(const program_info& program) {
    return program.name.ends_with("_clt");
}

// What `words` (a --help with or without its group) print.
std::string help_of(const program_info& program, std::vector<std::string> words) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    if (is_client(program)) {
        CHECK_FALSE(parse_client_options(cl.argc(), cl.argv(), program, out));
    } else {
        CHECK_FALSE(parse_server_options(cl.argc(), cl.argv(), program, out));
    }
    return out.str();
}

// The whole help, where every option is.
std::string help_of(const program_info& program) {
    return help_of(program, {"--help", "all"});
}

std::string usage_error_of(const program_info& program, std::vector<std::string> words) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    try {
        if (is_client(program)) {
            parse_client_options(cl.argc(), cl.argv(), program, out);
        } else {
            parse_server_options(cl.argc(), cl.argv(), program, out);
        }
    } catch (const usage_error& e) {
        return e.what();
    }
    FAIL("no usage error for that command line");
    return {};
}

using sctp_perf::testing::lines_of;

const program_info* const every_program[] = {
    &sctp_perf::testing::stream_client, &sctp_perf::testing::seqpack_client,
    &sctp_perf::testing::stream_server, &sctp_perf::testing::seqpack_server};

}  // namespace

TEST_CASE("help: every line of every program fits 80 columns and names its values") {
    for (const auto* program : every_program) {
        const auto help = help_of(*program);
        INFO(program->name << " --help:\n" << help);
        REQUIRE(help.size() > 1000);
        for (const auto& line : lines_of(help)) {
            INFO("line: '" << line << "'");
            CHECK(line.size() <= help_width);
            CHECK(line.find('\t') == std::string::npos);
            CHECK_FALSE(line.ends_with(" "));
            // Boost's generic placeholder, anywhere as a word.
            CHECK_FALSE(std::regex_search(line, std::regex("\\barg\\b")));
            CHECK(line.find("(=") == std::string::npos);  // Boost's default marker
        }
        CHECK_THAT(help, Catch::Matchers::Contains("Usage: " + program->name));
        CHECK_THAT(help, Catch::Matchers::Contains("\nConnection:\n"));
        CHECK_THAT(help, Catch::Matchers::Contains("\nSCTP:\n"));
        CHECK_THAT(help, Catch::Matchers::Contains("\nOutput:\n"));
        CHECK_THAT(help, Catch::Matchers::Contains("\nGeneral:\n"));
        const auto examples = help.find("\nExamples:\n  ");
        REQUIRE(examples != std::string::npos);
        CHECK(help.find("\n  " + program->name, examples) != std::string::npos);
        CHECK_THAT(help, Catch::Matchers::Contains("--io-timeout S "));
        CHECK_THAT(help, Catch::Matchers::Contains("--cpu LIST "));
        CHECK_THAT(help, Catch::Matchers::Contains("--sndbuf BYTES "));
        CHECK_THAT(help, Catch::Matchers::Contains("100k"));  // the number forms are told
    }
}

TEST_CASE("help: a client's groups, value names and defaults") {
    const auto help = help_of(sctp_perf::testing::stream_client);
    using Catch::Matchers::Contains;
    CHECK_THAT(help, Contains("\nTest:\n  -s, --payload-size-power-of-2 POWER\n"));
    CHECK_THAT(help, Contains("\nHistogram:\n"));
    CHECK_THAT(help, Contains("  -c, --test-iterations N "));
    CHECK_THAT(help, Contains("(default: 1000000)"));
    CHECK_THAT(help, Contains("  -H, --server-host HOSTS "));
    CHECK_THAT(help, Contains("(default: localhost)"));
    CHECK_THAT(help, Contains("      --json-file FILE "));
    CHECK_THAT(help, Contains("  -t, --test-transport-protocol sctp|tcp\n"));
    CHECK_THAT(help, Contains("microseconds"));
    // Test comes before Histogram, Histogram before Connection.
    CHECK(help.find("\nTest:") < help.find("\nHistogram:"));
    CHECK(help.find("\nHistogram:") < help.find("\nConnection:"));
    // A switch takes no value and shows no default.
    CHECK_THAT(help, Contains("      --all-bins  "));
}

TEST_CASE("help: servers have no histogram, SOCK_SEQPACK shows no -t") {
    const auto stream = help_of(sctp_perf::testing::stream_server);
    CHECK_THAT(stream, Catch::Matchers::Contains("\nServer:\n  -p, --server-port PORT "));
    CHECK_THAT(stream, Catch::Matchers::Contains("--idle-report S "));
    CHECK_THAT(stream, Catch::Matchers::Contains("--quiet "));
    CHECK_THAT(stream, !Catch::Matchers::Contains("Histogram"));
    CHECK_THAT(stream, Catch::Matchers::Contains("--test-transport-protocol"));
    const auto seqpack = help_of(sctp_perf::testing::seqpack_server);
    CHECK_THAT(seqpack, !Catch::Matchers::Contains("--test-transport-protocol"));
    CHECK_THAT(seqpack, Catch::Matchers::Contains("--server-accept-addr ADDRS\n"));
    const auto seqpack_client = help_of(sctp_perf::testing::seqpack_client);
    CHECK_THAT(seqpack_client, !Catch::Matchers::Contains("--test-transport-protocol"));
    CHECK_THAT(seqpack_client, Catch::Matchers::Contains("-H, --server-host HOSTS "));
}

TEST_CASE("typos: the nearest long option is suggested when it is close") {
    const std::vector<std::string> names{"payload-size-power-of-2",
                                         "test-iterations",
                                         "server-port",
                                         "sndbuf",
                                         "rcvbuf",
                                         "rate",
                                         "quiet"};
    CHECK(suggest_long_option("payload-size-power-of2", names) == "payload-size-power-of-2");
    CHECK(suggest_long_option("payload-size-power-2", names) == "payload-size-power-of-2");
    CHECK(suggest_long_option("Payload-Size-Power-Of-2", names) == "payload-size-power-of-2");
    CHECK(suggest_long_option("test-iteration", names) == "test-iterations");
    CHECK(suggest_long_option("test-itreations", names) == "test-iterations");  // a transposition
    CHECK(suggest_long_option("sever-port", names) == "server-port");
    CHECK(suggest_long_option("sndbf", names) == "sndbuf");
    CHECK(suggest_long_option("rat", names) == "rate");
    CHECK(suggest_long_option("payload", names) == "payload-size-power-of-2");  // unique prefix
    CHECK(suggest_long_option("test-iter", names) == "test-iterations");
    // Far from everything: no guess.
    CHECK_FALSE(suggest_long_option("bogus", names));
    CHECK_FALSE(suggest_long_option("verbose", names));
    CHECK_FALSE(suggest_long_option("", names));
    CHECK_FALSE(suggest_long_option("te", names));  // too short to be a prefix worth naming
    // "buf" is a prefix of nothing and one edit from nothing; "s" is ambiguous.
    CHECK_FALSE(suggest_long_option("buf", names));
}

TEST_CASE("typos: a mistyped option on the command line gets the suggestion") {
    using Catch::Matchers::Contains;
    const auto& client = sctp_perf::testing::stream_client;
    CHECK(usage_error_of(client, {"-s", "1", "--payload-size-power-of2", "3"}) ==
          "unrecognised option '--payload-size-power-of2': did you mean "
          "--payload-size-power-of-2?");
    // Underscores are normalised before the comparison.
    CHECK_THAT(usage_error_of(client, {"--payload_size_power_of2", "3"}),
               Contains("did you mean --payload-size-power-of-2?"));
    CHECK_THAT(usage_error_of(client, {"-s", "1", "--json-fle=x.json"}),
               Contains("unrecognised option '--json-fle=x.json': did you mean --json-file?"));
    CHECK(usage_error_of(client, {"-s", "1", "--bogus"}) == "unrecognised option '--bogus'");
    CHECK_THAT(usage_error_of(sctp_perf::testing::stream_server, {"--quite"}),
               Contains("did you mean --quiet?"));
    CHECK_THAT(usage_error_of(sctp_perf::testing::stream_server, {"--idle-reports", "5"}),
               Contains("did you mean --idle-report?"));
    // A server does not suggest a client's option.
    CHECK(usage_error_of(sctp_perf::testing::stream_server, {"--test-iterations", "5"}) ==
          "unrecognised option '--test-iterations'");
}

TEST_CASE("usage report: every line carries the program's name") {
    const auto& client = sctp_perf::testing::stream_client;
    const command_line cl({"-c", "0", "-b", "0"});
    std::ostringstream out;
    try {
        parse_client_options(cl.argc(), cl.argv(), client, out);
        FAIL("no usage error");
    } catch (const usage_error_list& e) {
        REQUIRE(e.sentences().size() == 3);
        // main prints "SOCK_STREAM_clt: " before what().
        const auto lines = lines_of(client.name + ": " + e.what());
        REQUIRE(lines.size() == 3);
        CHECK(lines[0] == "SOCK_STREAM_clt: -c/--test-iterations must be 1..1000000000");
        CHECK(lines[1] ==
              "SOCK_STREAM_clt: -s/--payload-size-power-of-2 or --payload-bytes is required: the "
              "payload is 2^s bytes, s in 0..16, or N bytes, N in 1..65536");
        CHECK(lines[2] == "SOCK_STREAM_clt: -b/--histogram-bin-count must be 1..10000000");
        CHECK(e.sentences()[2] == "-b/--histogram-bin-count must be 1..10000000");
    }
    const auto server =
        usage_error_of(sctp_perf::testing::stream_server, {"-p", "70000", "--idle-report", "0"});
    CHECK(server ==
          "-p/--server-port must be 0..65535 (0: pick a free port)\n"
          "SOCK_STREAM_srv: --idle-report must be 1..86400 seconds");
}

TEST_CASE("help: a bare --help is one screen of the options most runs need") {
    using Catch::Matchers::Contains;
    for (const auto* program : every_program) {
        const auto help = help_of(*program, {"--help"});
        INFO(program->name << " --help:\n" << help);
        CHECK(help == help_of(*program, {"-h"}));
        const auto lines = lines_of(help);
        CHECK(lines.size() <= 40);
        for (const auto& line : lines) {
            CHECK(line.size() <= help_width);
        }
        CHECK_THAT(help, Contains("Usage: " + program->name));
        CHECK_THAT(help, Contains("\nThe options most runs need:\n"));
        CHECK_THAT(help, Contains("  -h, --help [GROUP] "));
        // The line that names the groups, and what gives everything.
        auto joined = help;
        std::replace(joined.begin(), joined.end(), '\n', ' ');
        CHECK_THAT(joined, Contains("--help GROUP, GROUP one of "));
        CHECK_THAT(joined, Contains("connection, sctp, output or general."));
        CHECK_THAT(joined, Contains("--help all."));
        // A group's caption, the notes and the examples are the whole help's.
        CHECK_THAT(help, !Contains("\nConnection:\n"));
        CHECK_THAT(help, !Contains("\nExamples:\n"));
        CHECK(help.size() < help_of(*program).size() / 2);
    }
    const auto client = help_of(sctp_perf::testing::stream_client, {"--help"});
    CHECK_THAT(client, Contains("  -s, --payload-size-power-of-2 POWER\n"));
    CHECK_THAT(client, Contains("GROUP one of test, histogram, connection,"));
    // Each option by the first clause of its description, and its default.
    CHECK_THAT(client, Contains("  -c, --test-iterations N     measured round trips (default: "
                                "1000000)\n"));
    CHECK_THAT(client, Contains("  -t, --test-transport-protocol sctp|tcp\n"));
    CHECK_THAT(client, Contains("microseconds"));
    CHECK_THAT(client, !Contains("--all-bins"));
    const auto seqpack_client = help_of(sctp_perf::testing::seqpack_client, {"--help"});
    CHECK_THAT(seqpack_client, !Contains("--test-transport-protocol"));
    CHECK_THAT(seqpack_client, Contains("--csv-summary FILE"));
    const auto server = help_of(sctp_perf::testing::stream_server, {"--help"});
    CHECK_THAT(server, Contains("GROUP one of server, connection, sctp,"));
    CHECK_THAT(server, Contains("  -p, --server-port PORT "));
    CHECK_THAT(server, !Contains("--idle-report"));
}

TEST_CASE("help: --help GROUP prints that group, --help all, every option") {
    using Catch::Matchers::Contains;
    const auto& client = sctp_perf::testing::stream_client;
    const auto histogram = help_of(client, {"--help", "histogram"});
    CHECK_THAT(histogram, Contains("Usage: SOCK_STREAM_clt"));
    CHECK_THAT(histogram, Contains("\nHistogram:\n  -m, --histogram-min-bin US "));
    CHECK_THAT(histogram, Contains("      --all-bins  "));
    CHECK_THAT(histogram, !Contains("\nTest:\n"));
    CHECK_THAT(histogram, !Contains("--payload-size-power-of-2"));
    // Every spelling of the same request.
    CHECK(help_of(client, {"-h", "histogram"}) == histogram);
    CHECK(help_of(client, {"--help=histogram"}) == histogram);
    CHECK(help_of(client, {"-s", "3", "--help", "histogram"}) == histogram);
    CHECK(help_of(client, {"-h", "all"}) == help_of(client));
    CHECK_THAT(help_of(sctp_perf::testing::seqpack_server, {"--help", "sctp"}),
               Contains("\nSCTP:\n"));
    const auto server = help_of(sctp_perf::testing::stream_server, {"--help", "server"});
    CHECK_THAT(server, Contains("--header-timeout S "));
    CHECK_THAT(server, !Contains("--idle-report"));
    CHECK_THAT(help_of(sctp_perf::testing::stream_server, {"--help", "output"}),
               Contains("--idle-report S "));
    // Each group of the whole help, and nothing else, is one of the groups.
    const auto whole = help_of(client);
    for (const auto* caption : {"Test", "Histogram", "Connection", "SCTP", "Output", "General"}) {
        std::string group = caption;
        std::transform(group.begin(), group.end(), group.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        const auto one = help_of(client, {"--help", group});
        const auto body = one.substr(one.find("\n" + std::string(caption) + ":\n"));
        CHECK_THAT(whole, Contains(body));
    }
}

TEST_CASE("help: an unknown group is a usage error that lists the groups") {
    CHECK(usage_error_of(sctp_perf::testing::stream_client, {"--help", "tests"}) ==
          "--help takes one of the groups test, histogram, connection, sctp, output, general "
          "or all, not 'tests'");
    CHECK(usage_error_of(sctp_perf::testing::seqpack_server, {"-h", "histogram"}) ==
          "--help takes one of the groups server, connection, sctp, output, general or all, "
          "not 'histogram'");
}
