#include "server/server_main.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "errors.hpp"
#include "runtime/cpu_affinity.hpp"
#include "server/server_log.hpp"

namespace sctp_perf {
namespace {

// Every connection holds a descriptor, even one refused as busy or waiting
// out its header timeout. The soft limit (often 1024) is raised to the hard
// one, so that a flood of connections meets --max-clients and
// --header-timeout before it meets EMFILE.
void raise_descriptor_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) {
        return;
    }
    const auto soft = limit.rlim_cur;
    limit.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) {
        log_error("cannot raise the descriptor limit from {}: {}", soft, std::strerror(errno));
    }
}

}  // namespace

int server_main(int argc, const char* const* argv, const program_info& program,
                const server_runner& serve) {
    try {
        const auto options = parse_server_options(argc, argv, program, std::cout);
        if (!options) {
            return exit_success;
        }
        set_log_quiet(options->quiet);
        // Before the first thread and the listener: the sessions inherit it.
        pin_process(options->common.cpus);
        if (!options->common.cpus.empty()) {
            log_info("running on CPUs {} only (--cpu)", describe_cpus(options->common.cpus));
        }
        if (options->common.spin) {
            log_line(log_level::info,
                     "sessions poll their sockets while they wait for data (--spin)");
        }
        raise_descriptor_limit();
        return serve(*options, program);
    } catch (const usage_error& e) {
        std::cerr << program.name << ": " << e.what() << "\nTry '" << program.name
                  << " --help' for the options.\n";
        return exit_usage_error;
    } catch (const std::exception& e) {
        std::cerr << program.name << ": " << e.what() << '\n';
        return exit_runtime_failure;
    }
}

}  // namespace sctp_perf
