// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a client writes when it ends, and the code it exits with (0 done,
// 1 runtime failure, 2 usage error, 128 + N after signal N): the report on
// standard output and in the files asked for; or, when the run failed, one
// line on stderr naming what failed and, with --format json, the error
// document on standard output, so that a script reading stdout always gets
// one JSON object.

#include <exception>
#include <fstream>
#include <string>

#include "client/load/load_result.hpp"
#include "options/client_options.hpp"
#include "report/run_report.hpp"

namespace sctp_perf {

// The files a run writes besides standard output, opened before it connects
// so that a path that cannot be written fails before anything is measured
// (--csv-summary is checked then, and appended to at the end).
struct client_output_files {
    std::ofstream json_file;  // --json-file
    std::ofstream flow_csv;   // --flow-csv
};
client_output_files open_output_files(const client_options& options);

// The report in the format asked for on standard output, then in
// --json-file and --csv-summary. Throws std::system_error when one of them
// cannot be written.
void write_reports(const client_options& options, const run_report& report,
                   client_output_files& files);
// --flow-csv: the load run's flows.
void write_flow_csv_file(const client_options& options, const load_result& load,
                         client_output_files& files);

// 0, or what a shell reports for the signal that cut the measurement short
// (its report is written all the same) or came while it was written.
int exit_status_after_report();

// The sentence on a failure, as the one line on stderr gives it: a refused
// connection asks whether the server program is running.
std::string failure_sentence(const std::exception& e, const program_info& program);

// Where a failure's JSON error document goes: stdout (--format json) and
// the --json-file, each when asked for.
struct failure_outputs {
    bool json_on_stdout = false;
    std::string json_file;
};

// Where the command line asks a failure's document to go, read from its
// words themselves (long names normalised as the parser does, the last
// word of each option winning): a run that fails before its options are
// parsed still answers where it was asked to.
failure_outputs failure_outputs_requested(int argc, const char* const* argv);

// The one line on stderr ("NAME: message"), then `stderr_hint`, and the
// error document where `outputs` asks for it; returns `exit_code`.
// `json_message` is the error without the program-name prefixes that
// stderr's lines carry (several sentences: one per line); empty: `message`.
int report_failure(const program_info& program, const failure_outputs& outputs,
                   const std::string& message, int exit_code, const std::string& stderr_hint = "",
                   const std::string& json_message = "");

}  // namespace sctp_perf
