#include "options/common_options.hpp"

#include <fmt/format.h>

#include <boost/program_options/parsers.hpp>
#include <boost/program_options/positional_options.hpp>
#include <boost/program_options/value_semantic.hpp>
#include <ostream>

#include "errors.hpp"
#include "runtime/cpu_affinity.hpp"
#include "version.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

void add_common_options(po::options_description& options, raw_common_options& raw,
                        const program_info& program) {
    // clang-format off
    options.add_options()
        ("help,h", "show this help and exit")
        ("version", "show the version and exit")
        ("test-enable-nagle,n", po::bool_switch(&raw.nagle),
         "enable Nagle's algorithm (default: disabled, TCP_NODELAY/SCTP_NODELAY set)");
    if (program.offers_transport_choice) {
        options.add_options()
            ("test-transport-protocol,t", po::value(&raw.transport)->default_value("sctp"),
             "transport protocol: sctp or tcp");
    } else {
        // Registered so that -t gets a clear sentence instead of "unknown option".
        options.add_options()
            ("test-transport-protocol,t", po::value(&raw.transport),
             "not available: this program always uses SCTP");
    }
    options.add_options()
        ("io-timeout", po::value(&raw.io_timeout_s)->default_value(10.0, "10"),
         "seconds any single send or receive may block before the connection is given up")
        ("sndbuf", po::value(&raw.sndbuf_bytes),
         "socket send buffer, bytes (SO_SNDBUF; the kernel doubles it and the report shows "
         "the value read back; default: the system's)")
        ("rcvbuf", po::value(&raw.rcvbuf_bytes),
         "socket receive buffer, bytes (SO_RCVBUF; read back and reported the same way)")
        ("cpu", po::value(&raw.cpu),
         "run only on these CPUs, e.g. 0, 1-3 or 0,2-3 (sched_setaffinity, set before the "
         "program connects or listens; a server's sessions inherit it; default: any CPU)")
        ("spin", po::bool_switch(&raw.spin),
         "wait for data by polling the socket in a busy loop (non-blocking receives) instead "
         "of sleeping in the kernel: no wake-up in the round trip, but a whole CPU per waiting "
         "connection; --io-timeout still bounds every wait")
        ("sctp-rto-initial", po::value(&raw.sctp_rto_initial_ms),
         "SCTP initial retransmission timeout, milliseconds (default: the system's "
         "net.sctp.rto_initial)")
        ("sctp-rto-min", po::value(&raw.sctp_rto_min_ms),
         "SCTP minimum retransmission timeout, milliseconds (default: net.sctp.rto_min)")
        ("sctp-rto-max", po::value(&raw.sctp_rto_max_ms),
         "SCTP maximum retransmission timeout, milliseconds (default: net.sctp.rto_max)");
    // clang-format on
    add_sctp_feature_options(options, raw.sctp);
}

common_options validate_common_options(const raw_common_options& raw,
                                       const po::variables_map& given, const program_info& program,
                                       std::vector<std::string>& errors) {
    common_options result;
    result.nagle = raw.nagle;
    if (!program.offers_transport_choice) {
        if (given.count("test-transport-protocol")) {
            errors.push_back(program.name +
                             " always uses SCTP: -t/--test-transport-protocol is not available "
                             "(use SOCK_STREAM_clt/SOCK_STREAM_srv for TCP)");
        }
    } else if (const auto transport = parse_transport(raw.transport)) {
        result.transport = *transport;
    } else {
        errors.push_back("-t/--test-transport-protocol must be sctp or tcp, not '" + raw.transport +
                         "'");
    }

    if (!(raw.io_timeout_s > 0.0 && raw.io_timeout_s <= 86400.0)) {
        errors.push_back("--io-timeout must be more than 0 and at most 86400 seconds");
    } else {
        result.io_timeout = std::chrono::milliseconds(
            std::max<long long>(1, static_cast<long long>(raw.io_timeout_s * 1000.0 + 0.5)));
    }

    const auto buffer = [&](const char* name, long long value) -> std::optional<int> {
        if (!given.count(name)) {
            return std::nullopt;
        }
        if (value < 1024 || value > 1'073'741'824) {
            errors.push_back(fmt::format("--{} must be 1024..1073741824 bytes", name));
            return std::nullopt;
        }
        return static_cast<int>(value);
    };
    result.buffers.send_bytes = buffer("sndbuf", raw.sndbuf_bytes);
    result.buffers.receive_bytes = buffer("rcvbuf", raw.rcvbuf_bytes);

    const auto rto = [&](const char* name, long long value) -> std::optional<std::uint32_t> {
        if (!given.count(name)) {
            return std::nullopt;
        }
        if (value < 1 || value > 86'400'000) {
            errors.push_back(fmt::format("--{} must be 1..86400000 milliseconds", name));
            return std::nullopt;
        }
        return static_cast<std::uint32_t>(value);
    };
    result.sctp_rto.initial_ms = rto("sctp-rto-initial", raw.sctp_rto_initial_ms);
    result.sctp_rto.min_ms = rto("sctp-rto-min", raw.sctp_rto_min_ms);
    result.sctp_rto.max_ms = rto("sctp-rto-max", raw.sctp_rto_max_ms);
    const auto& r = result.sctp_rto;
    if (r.min_ms && r.max_ms && *r.min_ms > *r.max_ms) {
        errors.push_back("--sctp-rto-min must not exceed --sctp-rto-max");
    }
    if (r.initial_ms && r.min_ms && *r.initial_ms < *r.min_ms) {
        errors.push_back("--sctp-rto-initial must not be below --sctp-rto-min");
    }
    if (r.initial_ms && r.max_ms && *r.initial_ms > *r.max_ms) {
        errors.push_back("--sctp-rto-initial must not exceed --sctp-rto-max");
    }
    if (r.any() && result.transport == transport_protocol::tcp) {
        errors.push_back("--sctp-rto-* options apply to SCTP only; drop them or use -t sctp");
    }
    if (given.count("cpu")) {
        if (auto cpus = parse_cpu_list(raw.cpu)) {
            result.cpus = std::move(*cpus);
        } else {
            errors.push_back(
                "--cpu must list CPU numbers and ranges separated by commas, such as "
                "0, 1-3 or 0,2-3, not '" +
                raw.cpu + "'");
        }
    }
    result.spin = raw.spin;
    result.sctp = validate_sctp_feature_options(raw.sctp, given, result.transport, errors);
    return result;
}

std::vector<std::string> normalise_long_option_names(int argc, const char* const* argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
            const auto name_end = std::min(arg.find('='), arg.size());
            for (std::size_t c = 2; c < name_end; ++c) {
                if (arg[c] == '_') {
                    arg[c] = '-';
                }
            }
        }
        args.push_back(std::move(arg));
    }
    return args;
}

bool parse_command_line(int argc, const char* const* argv, const po::options_description& options,
                        const program_info& program, const std::string& help_epilogue,
                        po::variables_map& given, std::ostream& out) {
    // Stray words are collected under a hidden name so the error can quote them.
    po::options_description hidden;
    hidden.add_options()("unexpected-argument", po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(options).add(hidden);
    po::positional_options_description stray;
    stray.add("unexpected-argument", -1);
    try {
        // Long options must be spelled out in full: a guessed abbreviation
        // could silently pick the wrong option.
        const auto style =
            po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
        po::store(po::command_line_parser(normalise_long_option_names(argc, argv))
                      .options(all)
                      .positional(stray)
                      .style(style)
                      .run(),
                  given);
        po::notify(given);
    } catch (const po::error& e) {
        throw usage_error(e.what());
    }
    if (given.count("unexpected-argument")) {
        const auto& words = given["unexpected-argument"].as<std::vector<std::string>>();
        throw usage_error("unexpected argument '" + words.front() +
                          "': every value belongs to an option (-x VALUE or --name VALUE)");
    }
    if (given.count("help")) {
        out << program.name << " - " << program.summary << "\n\n"
            << "Usage: " << program.name << " [options]\n\n"
            << options << '\n'
            << help_epilogue;
        return false;
    }
    if (given.count("version")) {
        out << program.name << " (sctp-perf) " << version_string << '\n';
        return false;
    }
    return true;
}

void throw_if_invalid(const std::vector<std::string>& errors) {
    if (errors.empty()) {
        return;
    }
    std::string message;
    for (const auto& e : errors) {
        message += (message.empty() ? "" : "\n") + e;
    }
    throw usage_error(message);
}

}  // namespace sctp_perf
