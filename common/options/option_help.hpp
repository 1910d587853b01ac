// SPDX-License-Identifier: Apache-2.0
#pragma once
// The --help text. The whole help (--help all) is the usage line, each group
// of options under its caption with every option's value named and its
// default shown, then notes and examples; the man pages and the bash
// completions are made from it. A program that names the options most runs
// need (help_layout::essentials) answers a bare --help (or -h) with those
// alone, each with the first clause of its description (up to "; " or " (")
// and its default, on one screen, and a line naming the groups; --help
// GROUP gives one group whole, as curl's --help does.

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
    // The long names of the options most runs need, in the order the short
    // help lists them, and what it says after them. Empty: --help prints the
    // whole help and takes no group.
    std::vector<std::string> essentials;
    std::string essentials_note;
};

// The group a --help GROUP names: its caption in lower case ("test",
// "connection", "sctp"), and "all" for the whole help.
inline constexpr const char* whole_help_group = "all";
std::vector<std::string> help_group_names(const help_layout& help);

// No line of the help is wider than this, unless a single word is.
inline constexpr std::size_t help_width = 80;

// The whole help.
void write_help(std::ostream& out, const program_info& program, const help_layout& help);

// What --help GROUP prints: the essentials with an empty `group` (the whole
// help when the program names none), one group's options, or the whole
// help for "all". Throws usage_error, one sentence listing the groups, for a
// group the program does not have.
void write_help_for(std::ostream& out, const program_info& program, const help_layout& help,
                    const std::string& group);

}  // namespace sctp_perf
