// SPDX-License-Identifier: Apache-2.0
#pragma once
// --check-lines: several command lines checked in one run, each as --check
// checks its own. A script about to run the client many times over
// (run_spectrum.pl: one run a payload size) learns before the first whether
// every run would start, in one process instead of one each: a client's
// start-up costs more than its check.
//
// The lines come from standard input, each a JSON list of the words of one
// command line without the program's name, such as ["-s", "4", "-t", "tcp"].
// Standard output gets the number of each line that would run (counting
// from 1, blank lines included), one a line; the first line that would not
// ends the checking with --check's answer for it.

#include <functional>
#include <istream>
#include <ostream>

#include "options/program_info.hpp"

namespace sctp_perf {

// Checks one command line (argc and argv as main gets them, argv[0] the
// program's name); throws what a run of it would throw before connecting.
using command_line_check = std::function<void(int argc, const char* const* argv)>;

// Whether the command line is `--check-lines` alone (or `--check_lines`).
bool asks_check_lines(int argc, const char* const* argv);

// Reads `in` to its end and gives every non-blank line to `check` as a
// command line of `program_name`, in order, writing each accepted line's
// number to `out`. Lets the first exception of `check` through; throws
// usage_error for a line that is not a JSON list of strings, and
// std::runtime_error when `out` cannot be written.
void check_lines(std::istream& in, std::ostream& out, const char* program_name,
                 const command_line_check& check);

// check_lines with the client's own check: each line parsed as `program`
// parses its command line, given the machine's defaults, and its run limits
// checked (check_run_limits), as --check checks them. A line's --help or
// --version would print: its text is no answer of the check, and is dropped.
void check_client_lines(std::istream& in, std::ostream& out, const char* program_name,
                        const program_info& program);

}  // namespace sctp_perf
