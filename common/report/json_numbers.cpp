// SPDX-License-Identifier: Apache-2.0
#include "report/json_numbers.hpp"

#include <cmath>
#include <string_view>

namespace sctp_perf {
namespace {

double round_to_decimals(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    const double rounded = std::round(value * scale) / scale;
    return std::isfinite(rounded) ? rounded : value;  // too large to scale: already coarse
}

double round_to_significant(double value, int digits) {
    if (value == 0.0 || !std::isfinite(value)) {
        return value;
    }
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value)))) + 1;
    return round_to_decimals(value, digits - magnitude);
}

double round_for_key(std::string_view key, double value) {
    const auto ends_with = [&](std::string_view suffix) { return key.ends_with(suffix); };
    if (ends_with("_us")) {
        return round_to_decimals(value, 3);
    }
    if (ends_with("_s") && !ends_with("_per_s")) {
        return round_to_decimals(value, 6);
    }
    if (ends_with("_ns")) {
        return round_to_decimals(value, 1);
    }
    return round_to_significant(value, 6);
}

// `key` is the nearest enclosing object key: the elements of an array of
// numbers take their array's key.
void round_node(nlohmann::ordered_json& node, std::string_view key) {
    if (node.is_number_float()) {
        node = round_for_key(key, node.get<double>());
    } else if (node.is_object()) {
        for (auto& [name, child] : node.items()) {
            round_node(child, name);
        }
    } else if (node.is_array()) {
        for (auto& child : node) {
            round_node(child, key);
        }
    }
}

}  // namespace

void round_json_floats(nlohmann::ordered_json& doc) {
    round_node(doc, "");
}

}  // namespace sctp_perf
