// SPDX-License-Identifier: Apache-2.0
#pragma once
// --csv-summary FILE: one line per invocation of a client, appended to FILE,
// so that a shell loop over sizes or rates builds one table (as Perftest's
// -noOutputHeaders does). The header line is written only when the file is
// new or empty; a file whose header is another one (another version, another
// file) is refused rather than given rows its header does not name.
//
// Units are in the column names: _us microseconds, _s seconds, _bytes,
// _per_s per second. Latencies are the run's headline: every round trip in
// ping-pong, the corrected latency with --rate, the latency from the send
// with --throughput. A figure that does not apply (the rate of a ping-pong
// run, the latency of a run that measured nothing) is an empty field.

#include <iosfwd>
#include <string>

#include "report/run_report.hpp"

namespace sctp_perf {

// The header line, without its newline.
std::string csv_summary_header();

// The one line of `report`, with its newline.
void write_csv_summary_row(std::ostream& out, const run_report& report);

// Before the run: throws std::system_error if `path` cannot be opened for
// appending, std::runtime_error if it holds lines under another header.
// Creates the file (empty) if it does not exist.
void check_csv_summary_file(const std::string& path);

// After the run: appends the header (only if the file is empty) and the
// line of `report` to `path`. Throws as check_csv_summary_file does, and
// std::system_error if the line could not be written.
void append_csv_summary(const std::string& path, const run_report& report);

}  // namespace sctp_perf
