// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading a command line against a program's option groups: long names
// normalised, unknown options answered with the nearest one, stray words
// refused, --help and --version answered.

#include <boost/program_options/variables_map.hpp>
#include <iosfwd>
#include <string>
#include <vector>

#include "options/option_groups.hpp"
#include "options/option_help.hpp"
#include "options/program_info.hpp"

namespace sctp_perf {

// ACE spelled long options with underscores (--payload_size_power_of_2) while
// documenting dashes; both are accepted by rewriting the name part of every
// "--name[=value]" argument to dashes before parsing.
std::vector<std::string> normalise_long_option_names(int argc, const char* const* argv);

// Parses the command line (long names normalised as above) against every
// group in `groups`. Returns false when --help (with its group, when the
// help names essentials: option_help.hpp) or --version was given (the text
// has been written to `out`). Throws usage_error for unknown options
// (suggesting the nearest one), stray words and missing values.
bool parse_command_line(int argc, const char* const* argv, const option_groups& groups,
                        const help_layout& help, const program_info& program,
                        boost::program_options::variables_map& given, std::ostream& out);

// True when the user gave `name` on the command line, not when only its
// default is in `given`.
bool given_by_user(const boost::program_options::variables_map& given, const char* name);

}  // namespace sctp_perf
