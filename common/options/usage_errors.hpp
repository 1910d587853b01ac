// SPDX-License-Identifier: Apache-2.0
#pragma once
// Validation states one sentence per broken rule and reports all of them at
// once, each on a line of its own.

#include <string>
#include <vector>

#include "errors.hpp"
#include "options/program_info.hpp"

namespace sctp_perf {

// Throws usage_error_list with every sentence in `errors`, if any.
void throw_if_invalid(const std::vector<std::string>& errors, const program_info& program);

}  // namespace sctp_perf
