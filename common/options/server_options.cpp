#include "options/server_options.hpp"

#include <algorithm>
#include <boost/program_options/value_semantic.hpp>

#include "options/client_options.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

namespace {

struct raw_server_options {
    raw_common_options common;
    long long port = 45453;
    std::string bind_addresses;
    long long max_clients = 64;
    double header_timeout_s = 2.0;
};

void add_server_options(po::options_description& options, raw_server_options& raw,
                        const program_info& program) {
    const bool multi = program.service == "seqpack";
    // clang-format off
    options.add_options()
        ("server-port,p", po::value(&raw.port)->default_value(raw.port),
         "port to listen on; 0 picks a free one (logged as 'starting server at port P')")
        ("server-accept-addr,a", po::value(&raw.bind_addresses)->default_value("", "any interface"),
         multi ? "address(es) to bind, comma-separated, all on one port (sctp_bindx)"
               : "address to bind")
        ("max-clients", po::value(&raw.max_clients)->default_value(raw.max_clients),
         "tests served at once; further clients are told the server is busy")
        ("header-timeout", po::value(&raw.header_timeout_s)->default_value(2.0, "2"),
         "seconds a new connection has to deliver its whole test header before it is closed");
    // clang-format on
    add_common_options(options, raw.common, program);
}

server_options validate(const raw_server_options& raw, const po::variables_map& given,
                        const program_info& program) {
    std::vector<std::string> errors;
    server_options result;
    result.common = validate_common_options(raw.common, given, program, errors);
    if (raw.port < 0 || raw.port > 65535) {
        errors.push_back("-p/--server-port must be 0..65535 (0: pick a free port)");
    } else {
        result.port = static_cast<std::uint16_t>(raw.port);
    }
    result.bind_addresses = split_address_list(raw.bind_addresses);
    if (program.service != "seqpack" && result.bind_addresses.size() > 1) {
        errors.push_back(
            "-a/--server-accept-addr takes one address here; SOCK_SEQPACK_srv takes a list");
    }
    if (raw.max_clients < 1 || raw.max_clients > 4096) {
        errors.push_back("--max-clients must be 1..4096");
    } else {
        result.max_clients = static_cast<unsigned>(raw.max_clients);
    }
    if (!(raw.header_timeout_s > 0.0 && raw.header_timeout_s <= 3600.0)) {
        errors.push_back("--header-timeout must be more than 0 and at most 3600 seconds");
    } else {
        result.header_timeout = std::chrono::milliseconds(
            std::max<long long>(1, static_cast<long long>(raw.header_timeout_s * 1000.0 + 0.5)));
    }
    throw_if_invalid(errors);
    return result;
}

}  // namespace

std::optional<server_options> parse_server_options(int argc, const char* const* argv,
                                                   const program_info& program, std::ostream& out) {
    raw_server_options raw;
    po::options_description options("Options", 100, 50);
    add_server_options(options, raw, program);
    po::variables_map given;
    const std::string epilogue =
        "Logs go to stderr as '(pid|tid) message'. SIGINT or SIGTERM stop the server.\n"
        "Exit status: 0 stopped by a signal, 1 runtime failure, 2 usage error.\n"
        "Long names may also be spelled with underscores (--server_port).\n";
    if (!parse_command_line(argc, argv, options, program, epilogue, given, out)) {
        return std::nullopt;
    }
    return validate(raw, given, program);
}

}  // namespace sctp_perf
