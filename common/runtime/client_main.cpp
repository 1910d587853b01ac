#include "runtime/client_main.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <system_error>

#include "errors.hpp"
#include "report/run_report.hpp"
#include "runtime/round_trips.hpp"
#include "transport/socket_setup.hpp"
#include "transport/stream_connector.hpp"

namespace sctp_perf {
namespace {

// Opened before the test runs, so that a path that cannot be written fails
// at once rather than after a run of a million iterations.
std::ofstream open_json_file(const std::string& path) {
    std::ofstream file;
    if (!path.empty()) {
        file.open(path);
        if (!file) {
            throw std::system_error(errno, std::generic_category(),
                                    "cannot open the JSON report file " + path);
        }
    }
    return file;
}

void write_reports(const client_options& options, const run_report& report,
                   std::ofstream& json_file) {
    if (options.format == report_format::json) {
        write_json_report(std::cout, report);
    } else {
        write_ace_report(std::cout, report);
    }
    std::cout.flush();
    if (json_file.is_open()) {
        write_json_report(json_file, report);
        json_file.close();
        if (!json_file) {
            throw std::system_error(errno, std::generic_category(),
                                    "cannot write the JSON report to " + options.json_file);
        }
    }
}

int run(const client_options& options, const program_info& program,
        const client_connector& connect) {
    run_report report;
    report.program = program;
    report.options = options;
    report.environment = read_environment();
    std::ofstream json_file = open_json_file(options.json_file);

    client_connection connection = connect(options);
    message_channel& channel = *connection.channel;
    report.local_addresses = connection.local_addresses;
    report.peer_addresses = connection.peer_addresses;
    if (options.common.transport == transport_protocol::sctp) {
        report.sctp_rto_socket = read_sctp_rto(channel.native_handle());
        report.sctp_rto_system = read_system_sctp_rto();
    }

    const std::uint32_t total = options.iterations + protocol::primer_iterations;
    negotiate_test(channel, {options.payload_bytes(), total});
    latency_recorder recorder(options.histogram);
    const auto elapsed =
        run_round_trips(channel, options.payload_bytes(), options.iterations, recorder);
    connection.channel.reset();  // close before reporting, as the server expects

    report.duration_s = std::chrono::duration<double>(elapsed).count();
    report.recorder = &recorder;
    write_reports(options, report, json_file);
    return exit_success;
}

}  // namespace

int client_main(int argc, const char* const* argv, const program_info& program,
                const client_connector& connect) {
    const std::string server_name =
        program.service == "seqpack" ? "SOCK_SEQPACK_srv" : "SOCK_STREAM_srv";
    try {
        const auto options = parse_client_options(argc, argv, program, std::cout);
        if (!options) {
            return exit_success;
        }
        return run(*options, program, connect);
    } catch (const usage_error& e) {
        std::cerr << program.name << ": " << e.what() << "\nTry '" << program.name
                  << " --help' for the options.\n";
        return exit_usage_error;
    } catch (const connect_error& e) {
        std::cerr << program.name << ": " << e.what()
                  << (e.refused() ? fmt::format(": is {} running?", server_name) : "") << '\n';
    } catch (const std::exception& e) {  // refused, peer failures, kernel errors
        std::cerr << program.name << ": " << e.what() << '\n';
    }
    return exit_runtime_failure;
}

}  // namespace sctp_perf
