// SPDX-License-Identifier: Apache-2.0
#pragma once
// "did you mean --test-iterations?": the option a mistyped long name was
// probably meant to be.

#include <optional>
#include <string>
#include <vector>

#include "options/option_groups.hpp"

namespace sctp_perf {

// The long option closest to a mistyped one (`typed` without its dashes,
// underscores already turned into dashes), when it is close enough to be
// the one meant: a small edit distance for its length, or a unique prefix.
std::optional<std::string> suggest_long_option(const std::string& typed,
                                               const std::vector<std::string>& long_names);

// The long names of every option a user is told about (option_groups::shown).
std::vector<std::string> long_option_names(const option_groups& groups);

}  // namespace sctp_perf
