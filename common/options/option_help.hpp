// SPDX-License-Identifier: Apache-2.0
#pragma once
// The --help text: the usage line, each group of options under its caption
// with every option's value named and its default shown, then notes and
// examples. The man pages are made from it.

#include <boost/program_options/options_description.hpp>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "options/program_info.hpp"

namespace sctp_perf {

// The --help note on how counts and sizes may be written, the same for
// every program.
extern const char* const number_forms_note;

// What --help prints around the options.
struct help_layout {
    std::string usage;  // after "Usage: ", e.g. "SOCK_STREAM_clt -s POWER [options]"
    // Each group under its caption, in order; empty groups are left out.
    std::vector<std::pair<std::string, const boost::program_options::options_description*>> groups;
    std::string notes;     // paragraphs after the options
    std::string examples;  // "  command\n      what it does\n" lines
};

// No line of the help is wider than this, unless a single word is.
inline constexpr std::size_t help_width = 80;

void write_help(std::ostream& out, const program_info& program, const help_layout& help);

}  // namespace sctp_perf
