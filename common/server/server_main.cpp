#include "server/server_main.hpp"

#include <iostream>

#include "errors.hpp"

namespace sctp_perf {

int server_main(int argc, const char* const* argv, const program_info& program,
                const server_runner& serve) {
    try {
        const auto options = parse_server_options(argc, argv, program, std::cout);
        if (!options) {
            return exit_success;
        }
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
