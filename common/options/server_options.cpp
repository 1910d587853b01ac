// SPDX-License-Identifier: Apache-2.0
#include "options/server_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options/value_semantic.hpp>
#include <cstdlib>
#include <string_view>

#include "options/client_options.hpp"
#include "options/option_parsing.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

namespace {

struct raw_server_options {
    raw_common_options common;
    long long port = default_port;
    std::string bind_addresses;
    long long max_clients = 0;  // 0: the default, from the descriptor limit
    long long threads = 0;      // 0: one per CPU it may run on
    double header_timeout_s = std::chrono::duration<double>(default_header_timeout).count();
    long long idle_report_s = default_idle_report.count();
    bool quiet = false;
    bool peel_off = false;
    long long test_reply_delay_us = 0;  // the hidden --test-reply-delay
    long long test_wake_delay_us = 0;   // the hidden --test-wake-delay
};

// The environment variable that lets the project's own tests use the
// server's test hooks; without it they are refused, so that no server a
// user starts can make its replies late by a stray option.
constexpr const char* test_hooks_variable = "SCTP_PERF_TEST_HOOKS";

void add_server_options(option_groups& groups, raw_server_options& raw,
                        const program_info& program) {
    const bool multi = program.service == socket_service::seqpack;
    auto& unreadable = raw.common.unreadable_numbers;
    // clang-format off
    groups.server.add_options()
        ("server-port,p",
         count_value(raw.port, unreadable, "-p/--server-port", count_kind::integer)
             ->default_value(default_text(default_port))->value_name("PORT"),
         "port to listen on; 0 picks a free one (logged as 'starting server at port P')")
        ("server-accept-addr,a",
         po::value(&raw.bind_addresses)->default_value("", "any interface")
             ->value_name(multi ? "ADDRS" : "ADDR"),
         multi ? "addresses to bind, comma-separated, all on one port (sctp_bindx); an "
                 "interface name (lo, eth0) stands for every address it has"
               : "address to bind, or an interface name (lo, eth0): its first IPv4 address, "
                 "else its first IPv6 one")
        ("max-clients", count_value(raw.max_clients, unreadable, "--max-clients")
             ->default_value(default_text(default_max_clients),
                            default_text(default_max_clients) + ", or fewer as ulimit -n allows")->value_name("N"),
         "tests served at once; further clients are told the server is busy")
        ("threads", count_value(raw.threads, unreadable, "--threads")->value_name("N"),
         multi ? "with --peel-off: worker threads, each an event loop serving many "
                 "associations (default: one per CPU it may run on: --cpu or affinity)"
               : "worker threads, each an event loop serving many clients (default: one per "
                 "CPU it may run on: --cpu or affinity)")
        ("header-timeout",
         real_value(raw.header_timeout_s, unreadable, "--header-timeout", real_kind::seconds)
             ->default_value(default_text(default_header_timeout))->value_name("S"),
         "seconds a new connection has to deliver its whole test header before it is closed");
    groups.output.add_options()
        ("idle-report",
         count_value(raw.idle_report_s, unreadable, "--idle-report", count_kind::integer)
             ->default_value(default_text(default_idle_report))->value_name("S"),
         "seconds between the idle log lines ('select timed out') while no test runs, "
         "1..86400 (5 gives ACE's walk-through)")
        ("quiet", po::bool_switch(&raw.quiet), "log only errors");
    // Test hooks, in no help and no man page: the tests of --timestamps
    // make a server take each ping-pong request late (as if it woke late)
    // or hold each reply, to see the wait land in the server's part of the
    // split that holds it and nowhere else.
    groups.hidden.add_options()
        ("test-reply-delay",
         count_value(raw.test_reply_delay_us, unreadable, "--test-reply-delay",
                     count_kind::integer))
        ("test-wake-delay",
         count_value(raw.test_wake_delay_us, unreadable, "--test-wake-delay",
                     count_kind::integer));
    if (multi) {
        groups.server.add_options()
            ("peel-off", po::bool_switch(&raw.peel_off),
             "move each association onto a socket of its own (sctp_peeloff), served by "
             "--threads event loops; by default one thread serves every association on the "
             "one-to-many socket");
    }
    // clang-format on
    add_common_options(groups, raw.common, program);
}

help_layout server_help(const option_groups& groups, const program_info& program) {
    const bool multi = program.service == socket_service::seqpack;
    const std::string& name = program.name;
    help_layout help;
    help.usage = name + " [options]";
    help.groups = {{"Server", &groups.server},
                   {"Connection", &groups.connection},
                   {"SCTP", &groups.sctp},
                   {"Output", &groups.output},
                   {"General", &groups.general}};
    // For a server a client can reach, placed where its latency is known.
    help.essentials = {"server-port",
                       "server-accept-addr",
                       "test-transport-protocol",
                       "threads",
                       "cpu",
                       "spin",
                       "poll-before-sleep",
                       "io-timeout",
                       "quiet",
                       "help"};
    help.essentials_note =
        "SIGINT or SIGTERM stop the server. Exit status: 0 stopped by a signal,\n"
        "1 runtime failure, 2 usage error.\n";
    help.notes = std::string(number_forms_note) +
                 "S is seconds (decimals allowed for --io-timeout and --header-timeout).\n"
                 "Logs go to stderr as 'TIME (pid|tid) message', TIME in UTC to the millisecond.\n"
                 "SIGINT or SIGTERM stop the server.\n"
                 "Exit status: 0 stopped by a signal, 1 runtime failure, 2 usage error.\n"
                 "Long names may also be spelled with underscores (--server_port).\n";
    if (multi) {
        help.examples = fmt::format(
            "  {0}\n"
            "      listen on port {1}, every interface\n"
            "  {0} -a 10.0.0.2,10.0.1.2 -p 5000 --streams 4\n"
            "      a two-homed server on port 5000 offering 4 streams\n",
            name, default_port);
    } else {
        help.examples = fmt::format(
            "  {0} -t tcp\n"
            "      a TCP server on port {1}, every interface\n"
            "  {0} -p 0 --quiet\n"
            "      SCTP on a free port (logged at start), errors only\n"
            "  {0} -t tcp --idle-report 5 --cpu 2\n"
            "      idle lines every 5 s as in ACE's walk-through, on CPU 2\n",
            name, default_port);
    }
    return help;
}

// A test hook's delay: `name` as the option is spelled, `what` what it
// makes late.
void validate_test_delay(std::string_view name, std::string_view what, long long delay_us,
                         std::chrono::microseconds& result, std::vector<std::string>& errors) {
    const char* hooks = std::getenv(test_hooks_variable);
    if (hooks == nullptr || std::string_view(hooks) != "1") {
        errors.push_back(fmt::format(
            "{} makes every {} late on purpose, for sctp-perf's own tests; it is refused unless "
            "{}=1 is set",
            name, what, test_hooks_variable));
    } else if (delay_us < 1 || delay_us > max_test_delay_us) {
        errors.push_back(fmt::format("{} must be 1..{} microseconds", name, max_test_delay_us));
    } else {
        result = std::chrono::microseconds(delay_us);
    }
}

server_options validate(const raw_server_options& raw, const po::variables_map& given,
                        const program_info& program) {
    std::vector<std::string> errors;
    const bool multi = program.service == socket_service::seqpack;
    server_options result;
    result.common = validate_common_options(raw.common, given, program, errors);
    if (raw.port < 0 || raw.port > 65535) {
        errors.push_back("-p/--server-port must be 0..65535 (0: pick a free port)");
    } else {
        result.port = static_cast<std::uint16_t>(raw.port);
    }
    result.bind_addresses = split_address_list(raw.bind_addresses);
    if (program.service != socket_service::seqpack && result.bind_addresses.size() > 1) {
        errors.push_back(
            "-a/--server-accept-addr takes one address here; SOCK_SEQPACK_srv takes a list");
    }
    check_interface_entries(result.bind_addresses, "-a/--server-accept-addr", errors);
    if (given_by_user(given, "max-clients")) {
        if (raw.max_clients < 1 || raw.max_clients > max_server_clients) {
            errors.push_back(fmt::format("--max-clients must be 1..{} (and within ulimit -n)",
                                         max_server_clients));
        } else {
            result.max_clients = static_cast<unsigned>(raw.max_clients);
        }
    }
    result.peel_off = raw.peel_off;
    if (given.count("threads") && multi && !raw.peel_off) {
        errors.push_back(
            "--threads needs --peel-off: one thread serves every association on the one-to-many "
            "socket");
    } else if (given.count("threads")) {
        if (raw.threads < 1 || raw.threads > max_server_threads) {
            errors.push_back(fmt::format("--threads must be 1..{}", max_server_threads));
        } else {
            result.threads = static_cast<unsigned>(raw.threads);
        }
    }
    if (!(raw.header_timeout_s > 0.0 && raw.header_timeout_s <= 3600.0)) {
        errors.push_back("--header-timeout must be more than 0 and at most 3600 seconds");
    } else {
        result.header_timeout = std::chrono::milliseconds(
            std::max<long long>(1, static_cast<long long>(raw.header_timeout_s * 1000.0 + 0.5)));
    }
    if (raw.idle_report_s < 1 || raw.idle_report_s > 86400) {
        errors.push_back("--idle-report must be 1..86400 seconds");
    } else {
        result.idle_report = std::chrono::seconds(raw.idle_report_s);
    }
    result.quiet = raw.quiet;
    if (given.count("test-reply-delay")) {
        validate_test_delay("--test-reply-delay", "reply", raw.test_reply_delay_us,
                            result.test_reply_delay, errors);
    }
    if (given.count("test-wake-delay")) {
        validate_test_delay("--test-wake-delay", "request's handling", raw.test_wake_delay_us,
                            result.test_wake_delay, errors);
    }
    throw_if_invalid(errors, program);
    return result;
}

}  // namespace

bool serves_one_to_many(const server_options& options, const program_info& program) {
    return program.service == socket_service::seqpack && !options.peel_off;
}

std::optional<server_options> parse_server_options(int argc, const char* const* argv,
                                                   const program_info& program, std::ostream& out) {
    raw_server_options raw;
    option_groups groups;
    add_server_options(groups, raw, program);
    po::variables_map given;
    if (!parse_command_line(argc, argv, groups, server_help(groups, program), program, given,
                            out)) {
        return std::nullopt;
    }
    return validate(raw, given, program);
}

}  // namespace sctp_perf
