// SPDX-License-Identifier: Apache-2.0
// The client's driver: parse, the machine's defaults, dispatch to the test
// the options ask for, and one line on every failure. The steps live in the
// files named after them: connection_checks, flow_connection,
// ping_pong_run, load_run, repeated_runs, start_wait, machine_defaults,
// descriptor_budget, check_lines and client_output.
#include "client/client_main.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <string>

#include "client/check_lines.hpp"
#include "client/client_output.hpp"
#include "client/descriptor_budget.hpp"
#include "client/flow_connection.hpp"
#include "client/load_run.hpp"
#include "client/machine_defaults.hpp"
#include "client/ping_pong_run.hpp"
#include "client/start_wait.hpp"
#include "errors.hpp"
#include "options/usage_errors.hpp"
#include "report/run_report.hpp"
#include "runtime/clock_probe.hpp"
#include "runtime/cpu_affinity.hpp"
#include "runtime/host_environment.hpp"

namespace sctp_perf {
namespace {

int run(const client_options& options, const program_info& program,
        const client_connectors& connect) {
    check_run_limits(options, program);  // before anything else
    // --check ends here, before anything is pinned, opened, resolved or
    // connected: every usage error a run can meet has been met.
    if (options.check_only) {
        return exit_success;
    }
    warn_of_shared_cpus(options, program, std::cerr);
    pin_process(options.common.cpus);  // before the environment, which reports the affinity
    run_report report;
    report.program = program;
    report.options = options;
    report.environment =
        describe_environment(read_host_environment(), std::chrono::system_clock::now());
    report.clock = measure_clock();
    auto files = open_output_files(options);
    const auto start = wait_to_connect(options.start_at, options.warmup);
    if (options.load_mode()) {
        return run_load(options, report, connect, start, files);
    }
    return run_ping_pong_test(options, report, connect.connect, start, files);
}

}  // namespace

int client_main(int argc, const char* const* argv, const program_info& program,
                const client_connector& connect, const flows_connector& connect_rest,
                const flow_dialer_maker& redial) {
    // A reader of stdout that went away is an error to report (EPIPE), not
    // a death by SIGPIPE; the sockets pass MSG_NOSIGNAL already.
    std::signal(SIGPIPE, SIG_IGN);
    const auto on_failure = failure_outputs_requested(argc, argv);
    try {
        if (asks_check_lines(argc, argv)) {
            // The first refusal is answered below, as --check's is.
            check_client_lines(std::cin, std::cout, argv[0], program);
            return exit_success;
        }
        const auto options = parse_client_options(argc, argv, program, std::cout);
        if (!options) {
            return exit_success;
        }
        return run(with_machine_defaults(*options), program,
                   client_connectors{connect, connect_rest, redial});
    } catch (const usage_error& e) {
        const auto* list = dynamic_cast<const usage_error_list*>(&e);
        return report_failure(program, on_failure, e.what(), exit_usage_error,
                              fmt::format("Try '{} --help' for the options.\n", program.name),
                              list != nullptr
                                  ? fmt::format("{}", fmt::join(list->sentences(), "\n"))
                                  : std::string());
    } catch (const std::exception& e) {  // connection, refused, peer failures, kernel errors
        return report_failure(program, on_failure, failure_sentence(e, program),
                              exit_runtime_failure);
    }
}

}  // namespace sctp_perf
