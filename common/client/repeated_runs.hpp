// SPDX-License-Identifier: Apache-2.0
#pragma once
// --repeat: the runs one after another, --pause apart, and what a failure
// or an interrupt between them does to the report (report/repeat_report.hpp
// says how the runs are pooled).

#include <functional>
#include <string>

#include "options/client_options.hpp"
#include "report/run_report.hpp"

namespace sctp_perf {

// Runs `one_run(k)` for run k = 0 .. --repeat - 1 with --pause between two,
// until every run is done or one is interrupted. With --repeat above 1 an
// interrupt is noted from the first run's connection to the last run's end,
// pauses included, so that it never loses the runs done. A failure of the
// first run goes on to the caller, as a single run's would; a later one ends
// the runs, and its sentence is returned (empty when no run failed).
std::string repeat_runs(const client_options& options, const program_info& program,
                        const std::function<void(unsigned)>& one_run);

// After the report of runs that a failure ended: the failure's line on
// stderr, and its exit status; otherwise exit_status_after_report's.
int exit_status_after_failed_runs(const program_info& program, const run_report& report);

// The run report that run `first` or a later one describes its connection
// in: the first run's connection is the one a report describes; a later
// run's is read into `later` and checked as the first one's was, since the
// server may have been restarted in between.
run_report& described_run(run_report& report, bool first, run_report& later);

}  // namespace sctp_perf
