// SPDX-License-Identifier: Apache-2.0
#include "options/option_numbers.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <sstream>

#include "errors.hpp"
#include "option_test_support.hpp"
#include "options/client_options.hpp"
#include "options/server_options.hpp"

using namespace sctp_perf;
using sctp_perf::testing::command_line;

namespace {

long long count_of(std::string_view text) {
    const auto reading = read_count(text);
    INFO("text: " << text);
    REQUIRE(reading.value);
    CHECK(reading.problem == number_problem::none);
    return *reading.value;
}

number_problem count_problem(std::string_view text) {
    const auto reading = read_count(text);
    INFO("text: " << text);
    CHECK_FALSE(reading.value);
    return reading.problem;
}

}  // namespace

TEST_CASE("counts: plain, exponent, decimal and binary suffixes") {
    CHECK(count_of("0") == 0);
    CHECK(count_of("100000") == 100000);
    CHECK(count_of("+7") == 7);
    CHECK(count_of("007") == 7);
    CHECK(count_of("1e5") == 100000);
    CHECK(count_of("1E5") == 100000);
    CHECK(count_of("1e+5") == 100000);
    CHECK(count_of("2.5e3") == 2500);
    CHECK(count_of("2000e-3") == 2);  // 2000 / 1000
    CHECK(count_of("100k") == 100000);
    CHECK(count_of("100K") == 100000);
    CHECK(count_of("1M") == 1000000);
    CHECK(count_of("2G") == 2000000000);
    CHECK(count_of("1.5k") == 1500);
    CHECK(count_of(".5k") == 500);
    CHECK(count_of("1.50k") == 1500);  // trailing zeros of the fraction are fine
    CHECK(count_of("5.") == 5);
    CHECK(count_of("64Ki") == 65536);   // 64 * 1024
    CHECK(count_of("4Mi") == 4194304);  // 4 * 1048576
    CHECK(count_of("1Gi") == 1073741824);
    CHECK(count_of("0.5Ki") == 512);      // 1024 / 2
    CHECK(count_of("0.25Mi") == 262144);  // 1048576 / 4
    CHECK(count_of("0e-7") == 0);
    CHECK(count_of("-0") == 0);
    CHECK(count_of("9223372036854775807") == std::numeric_limits<long long>::max());
    CHECK(count_of("9.223372036854775807e18") == std::numeric_limits<long long>::max());
    CHECK(count_of("100000000000000000000e-5") == 1'000'000'000'000'000);  // 10^20 / 10^5
}

TEST_CASE("counts: what is not a count") {
    for (const char* text :
         {"",    "abc",  "k",    "e5",   "1e",  "1e+", "1.2.3", "1,000", "1 k", "1kb",   "1m",
          "1Ti", "1KiB", "0x10", "1e3k", "1k5", ".",   "-",     "inf",   "nan", "1_000", "5ki"}) {
        CHECK(count_problem(text) == number_problem::unreadable);
    }
    for (const char* text : {"2.5", "1e-1", "0.1", "1.0001k", "1.5e-3k" /* unreadable */}) {
        const auto problem = count_problem(text);
        CHECK((problem == number_problem::fraction || problem == number_problem::unreadable));
    }
    CHECK(count_problem("2.5") == number_problem::fraction);
    CHECK(count_problem("1e-1") == number_problem::fraction);
    CHECK(count_problem("1500e-3") == number_problem::fraction);  // 1.5
    CHECK(count_problem("1.0001k") == number_problem::fraction);  // 1000.1
    CHECK(count_problem("0.3Ki") == number_problem::fraction);    // 307.2
    CHECK(count_problem("100000000000000000001e-1") == number_problem::fraction);
    CHECK(count_problem("-5") == number_problem::negative);
    CHECK(count_problem("-1k") == number_problem::negative);
    CHECK(count_problem("-2.5") == number_problem::negative);
    CHECK(count_problem("9223372036854775808") == number_problem::too_large);  // 2^63
    CHECK(count_problem("1e19") == number_problem::too_large);
    CHECK(count_problem("1e1000000000") == number_problem::too_large);
    CHECK(count_problem("10000000000G") == number_problem::too_large);  // 10^19
    CHECK(count_problem("9000000000Gi") == number_problem::too_large);  // 9e9 * 2^30
    CHECK(count_problem("123456789012345678901234567890") == number_problem::too_large);
}

TEST_CASE("reals: decimals, exponents and a rate's suffixes") {
    CHECK(read_real("10").value == 10.0);
    CHECK(read_real("0.5").value == 0.5);
    CHECK(read_real("+2").value == 2.0);
    CHECK(read_real("-1").value == -1.0);  // the option's range check refuses it
    CHECK(read_real("1e-3").value == 1e-3);
    CHECK(read_real("100k", true).value == 100000.0);
    CHECK(read_real("2.5M", true).value == 2500000.0);
    CHECK(read_real("1G", true).value == 1e9);
    CHECK(read_real("100k").problem == number_problem::unreadable);  // seconds take no suffix
    CHECK(read_real("1Ki", true).problem == number_problem::unreadable);
    for (const char* text : {"", "abc", "1s", "inf", "nan", "0x1p3", "1e", "1,5", "--1"}) {
        INFO(text);
        CHECK(read_real(text, true).problem == number_problem::unreadable);
    }
    CHECK(read_real("1e999").problem == number_problem::too_large);
}

TEST_CASE("number options: the forms reach the options") {
    const command_line cl({"-s",     "4",    "-c",       "100k",  "-b",           "2e3",
                           "-x",     "1.5k", "--sndbuf", "256Ki", "--rcvbuf",     "1M",
                           "--rate", "2.5k", "--flows",  "4",     "--io-timeout", "0.5",
                           "-m",     "2.5",  "-M",       "1e4",   "-t",           "tcp"});
    std::ostringstream out;
    const auto o =
        parse_client_options(cl.argc(), cl.argv(), sctp_perf::testing::stream_client, out);
    REQUIRE(o);
    CHECK(o->iterations == 100000);
    CHECK(o->histogram.bin_count == 2000);
    CHECK(o->histogram.max_outliers == 1500);
    CHECK(o->common.buffers.send_bytes == 262144);
    CHECK(o->common.buffers.receive_bytes == 1000000);
    CHECK(o->rate_per_s == 2500.0);
    CHECK(o->flows == 4);
    CHECK(o->common.io_timeout == std::chrono::milliseconds(500));
    CHECK(o->histogram.min_us == 2.5);
    CHECK(o->histogram.max_us == 10000.0);
}

TEST_CASE("number options: an unreadable number is named in our words") {
    using Catch::Matchers::Contains;
    CHECK(sctp_perf::testing::client_usage_error({"-s", "1", "-c", "1e6x"}) ==
          "-c/--test-iterations must be a count such as 100000, 1e5, 100k or 1M, not '1e6x'");
    CHECK(sctp_perf::testing::client_usage_error({"-s", "1", "-c", "2.5"}) ==
          "-c/--test-iterations must be a count such as 100000, 1e5, 100k or 1M, not '2.5' "
          "(a fraction; a count must come out whole)");
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "1", "-c", "1e-1"}),
               Contains("not '1e-1' (a fraction"));
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "1", "-c", "-5"}),
               Contains("-c/--test-iterations must be a count such as 100000, 1e5, 100k or 1M, "
                        "not '-5' (negative)"));
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "1", "-c", "1e30"}),
               Contains("not '1e30' (too large)"));
    CHECK_THAT(
        sctp_perf::testing::client_usage_error({"-s", "1", "-t", "tcp", "--sndbuf", "4MB"}),
        Contains("--sndbuf must be a size in bytes such as 262144, 256Ki or 4Mi, not '4MB'"));
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "x"}),
               Contains("-s/--payload-size-power-of-2 must be a whole number, not 'x'"));
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "1", "--io-timeout", "10s"}),
               Contains("--io-timeout must be a number of seconds such as 10, 0.5 or 1e-3, not "
                        "'10s'"));
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "1", "-M", "1ms"}),
               Contains("-M/--histogram-max-bin must be a number of microseconds"));
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "4", "--rate", "fast"}),
               Contains("--rate must be a rate such as 1000, 2.5, 1e5 or 100k, not 'fast'"));
    CHECK_THAT(
        sctp_perf::testing::client_usage_error({"-s", "4", "--rate", "1k", "--streams", "many"}),
        Contains("--streams must be a count"));
    // A readable number still meets its option's range.
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "1", "-c", "5G"}),
               Contains("-c/--test-iterations must be 1.."));
    // Never Boost's wording.
    CHECK_THAT(sctp_perf::testing::client_usage_error({"-s", "1", "-c", "1e6x"}),
               !Contains("is invalid"));
}

TEST_CASE("number options: every unreadable number at once, with the other rules") {
    const auto message =
        sctp_perf::testing::client_usage_error({"-c", "2.5", "-b", "many", "-t", "udp"});
    CHECK_THAT(message, Catch::Matchers::Contains("-c/--test-iterations must be a count"));
    CHECK_THAT(message, Catch::Matchers::Contains("-b/--histogram-bin-count must be a count"));
    CHECK_THAT(message, Catch::Matchers::Contains("must be sctp or tcp"));
    CHECK_THAT(message, Catch::Matchers::Contains(
                            "-s/--payload-size-power-of-2 or --payload-bytes is required"));
}

TEST_CASE("number options: the server's counts and its idle report") {
    const command_line cl({"--max-clients", "1k", "--idle-report", "5", "--quiet"});
    std::ostringstream out;
    const auto o =
        parse_server_options(cl.argc(), cl.argv(), sctp_perf::testing::stream_server, out);
    REQUIRE(o);
    CHECK(o->max_clients == 1000);
    CHECK(o->idle_report == std::chrono::seconds(5));
    CHECK(o->quiet);
}

TEST_CASE("server options: --idle-report and --quiet, defaults and limits") {
    const command_line none({});
    std::ostringstream out;
    const auto o =
        parse_server_options(none.argc(), none.argv(), sctp_perf::testing::stream_server, out);
    REQUIRE(o);
    CHECK(o->idle_report == std::chrono::seconds(60));
    CHECK_FALSE(o->quiet);
    for (const char* bad : {"0", "86401", "1.5", "-5", "soon"}) {
        const command_line cl({"--idle-report", bad});
        INFO(bad);
        CHECK_THROWS_WITH(
            parse_server_options(cl.argc(), cl.argv(), sctp_perf::testing::stream_server, out),
            Catch::Matchers::Contains("--idle-report must be"));
    }
}
