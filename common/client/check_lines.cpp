// SPDX-License-Identifier: Apache-2.0
#include "client/check_lines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "client/descriptor_budget.hpp"
#include "client/machine_defaults.hpp"
#include "errors.hpp"
#include "options/client_options.hpp"

namespace sctp_perf {
namespace {

// The words of line `number`; throws usage_error when it is not a JSON list
// of strings.
std::vector<std::string> line_words(const std::string& line, unsigned long number) {
    const auto doc = nlohmann::json::parse(line, nullptr, false);
    const bool list_of_strings =
        doc.is_array() &&
        std::all_of(doc.begin(), doc.end(), [](const auto& word) { return word.is_string(); });
    if (!list_of_strings) {
        throw usage_error(fmt::format(
            "--check-lines: line {} is not a JSON list of the words of a command line, such as "
            "[\"-s\", \"4\", \"-t\", \"tcp\"]",
            number));
    }
    return doc.get<std::vector<std::string>>();
}

}  // namespace

bool asks_check_lines(int argc, const char* const* argv) {
    if (argc != 2) {
        return false;
    }
    const std::string_view word = argv[1];
    return word == "--check-lines" || word == "--check_lines";
}

void check_lines(std::istream& in, std::ostream& out, const char* program_name,
                 const command_line_check& check) {
    std::string line;
    for (unsigned long number = 1; std::getline(in, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const auto words = line_words(line, number);
        std::vector<const char*> argv{program_name};
        for (const auto& word : words) {
            argv.push_back(word.c_str());
        }
        check(static_cast<int>(argv.size()), argv.data());
        out << number << '\n';
    }
    // A number lost is a line the caller would take for refused.
    if (!out.flush()) {
        throw std::runtime_error(
            "cannot write the numbers of the lines checked to standard output");
    }
}

void check_client_lines(std::istream& in, std::ostream& out, const char* program_name,
                        const program_info& program) {
    std::ostringstream discarded;
    check_lines(in, out, program_name, [&](int words, const char* const* line) {
        if (const auto options = parse_client_options(words, line, program, discarded)) {
            check_run_limits(with_machine_defaults(*options), program);
        }
    });
}

}  // namespace sctp_perf
