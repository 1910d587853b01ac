// SPDX-License-Identifier: Apache-2.0
#pragma once
// Validation states one sentence per broken rule and reports all of them at
// once, each on a line of its own.

#include <string>
#include <vector>

#include "errors.hpp"
#include "options/program_info.hpp"

namespace sctp_perf {

// Several broken rules of one command line. main prints "NAME: " before
// what(); what() starts every later sentence on its own line with the same
// "NAME: ", so each line of the report carries the program's name.
class usage_error_list : public usage_error {
  public:
    usage_error_list(const std::vector<std::string>& sentences, const std::string& program_name);
    const std::vector<std::string>& sentences() const noexcept { return sentences_; }

  private:
    std::vector<std::string> sentences_;
};

// Throws usage_error_list with every sentence in `errors`, if any.
void throw_if_invalid(const std::vector<std::string>& errors, const program_info& program);

}  // namespace sctp_perf
