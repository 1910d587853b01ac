// SPDX-License-Identifier: Apache-2.0
#pragma once
// The whole life of sctp-perf-compare: read the options and both sides'
// reports, compare, write the comparison to standard output, draw the plot.

namespace sctp_perf::compare {

// Returns the exit code: 0 compared (every gate passed), 1 runtime failure
// (standard output or the plot could not be written), 2 bad options or
// reports, exit_slower (3) when a gate failed, exit_too_few_runs (4) when a
// gate could not decide. Prints one line on stderr for each failure.
int compare_main(int argc, const char* const* argv);

}  // namespace sctp_perf::compare
