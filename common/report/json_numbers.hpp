// SPDX-License-Identifier: Apache-2.0
#pragma once
// Floats in the JSON reports carry no digits beyond what was measured: a
// round trip is timed in whole nanoseconds, so microseconds need at most 3
// decimals, and 20.84035919999994 is only binary noise around 20.840.

#include <nlohmann/json.hpp>

namespace sctp_perf {

// Rounds every float in `doc`, by its key's unit suffix:
//  - "_us": 3 decimals (nanoseconds);
//  - "_s", but not "_per_s": 6 decimals (microseconds);
//  - "_ns": 1 decimal;
//  - anything else (variances in us^2, rates, percentages, MB/s): 6
//    significant digits.
// Integers, strings and the structure are left as they are.
void round_json_floats(nlohmann::ordered_json& doc);

}  // namespace sctp_perf
