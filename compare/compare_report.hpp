// SPDX-License-Identifier: Apache-2.0
#pragma once
// The comparison as the user reads it: one writer per format, each writing
// to any std::ostream.

#include <iosfwd>
#include <string>
#include <vector>

#include "compare/comparison.hpp"

namespace sctp_perf::compare {

enum class align { left, right };

// Rows of cells, each column as wide as its widest cell and aligned as
// `aligns` says, two spaces apart; the last column is not padded.
void write_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                 const std::vector<align>& aligns);

// Both sides described, any difference and warning, then an aligned table
// (one row per percentile, times in microseconds), how its columns were
// computed, and the gate's outcome when there is a gate.
void write_text_comparison(std::ostream& out, const comparison_result& result);

// One JSON object; the man page lists its members. Bump when a member
// changes meaning or goes away.
inline constexpr int comparison_format_version = 1;
void write_json_comparison(std::ostream& out, const comparison_result& result);

}  // namespace sctp_perf::compare
