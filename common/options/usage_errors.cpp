// SPDX-License-Identifier: Apache-2.0
#include "options/usage_errors.hpp"

namespace sctp_perf {

namespace {

std::string join_sentences(const std::vector<std::string>& sentences,
                           const std::string& program_name) {
    std::string message;
    for (const auto& sentence : sentences) {
        message += (message.empty() ? "" : "\n" + program_name + ": ") + sentence;
    }
    return message;
}

}  // namespace

usage_error_list::usage_error_list(const std::vector<std::string>& sentences,
                                   const std::string& program_name)
    : usage_error(join_sentences(sentences, program_name)), sentences_(sentences) {}

void throw_if_invalid(const std::vector<std::string>& errors, const program_info& program) {
    if (!errors.empty()) {
        throw usage_error_list(errors, program.name);
    }
}

}  // namespace sctp_perf
