// SPDX-License-Identifier: Apache-2.0
#include "options/client_options.hpp"

#include <algorithm>

#include "options/raw_client_options.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

std::vector<std::string> split_address_list(const std::string& list) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto comma = std::min(list.find(',', start), list.size());
        if (comma > start) {
            parts.push_back(list.substr(start, comma - start));
        }
        start = comma + 1;
    }
    return parts;
}

std::optional<client_options> parse_client_options(int argc, const char* const* argv,
                                                   const program_info& program, std::ostream& out) {
    raw_client_options raw;
    option_groups groups;
    add_client_options(groups, raw, program);
    po::variables_map given;
    if (!parse_command_line(argc, argv, groups, client_help(groups, program), program, given,
                            out)) {
        return std::nullopt;
    }
    return validate_client_options(raw, given, program);
}

}  // namespace sctp_perf
