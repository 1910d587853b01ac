// SPDX-License-Identifier: Apache-2.0
#pragma once
// A text as its lines, for tests that check reports and help line by line.

#include <sstream>
#include <string>
#include <vector>

namespace sctp_perf::testing {

inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

}  // namespace sctp_perf::testing
