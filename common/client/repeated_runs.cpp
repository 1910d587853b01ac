// SPDX-License-Identifier: Apache-2.0
#include "client/repeated_runs.hpp"

#include <fmt/format.h>

#include <chrono>
#include <exception>
#include <iostream>
#include <optional>

#include "client/client_output.hpp"
#include "client/start_wait.hpp"
#include "errors.hpp"
#include "report/run_notes.hpp"
#include "runtime/interrupt.hpp"

namespace sctp_perf {

std::string repeat_runs(const client_options& options, const program_info& program,
                        const std::function<void(unsigned)>& one_run) {
    std::optional<interrupt_scope> between_runs;
    if (options.repeat > 1) {
        between_runs.emplace();
    }
    for (unsigned run = 0; run < options.repeat; ++run) {
        // The pause is awake to an interrupt, which ends the runs there.
        if (run > 0 &&
            !wait_until(std::chrono::steady_clock::now() + options.pause, &interrupt_flag())) {
            break;
        }
        if (options.repeat > 1 && options.interval) {  // the runs' progress lines apart
            std::cerr << fmt::format("run {} of {}\n", run + 1, options.repeat);
        }
        try {
            one_run(run);
        } catch (const std::exception& e) {
            if (run == 0) {
                throw;
            }
            return failure_sentence(e, program);
        }
        if (interrupt_flag().load() != 0) {
            break;
        }
    }
    return {};
}

int exit_status_after_failed_runs(const program_info& program, const run_report& report) {
    if (const auto failure = repeat_failure(report)) {
        std::cerr << program.name << ": " << *failure << '\n';
        return exit_runtime_failure;
    }
    return exit_status_after_report();
}

run_report& described_run(run_report& report, bool first, run_report& later) {
    if (first) {
        return report;
    }
    later.program = report.program;
    return later;
}

}  // namespace sctp_perf
