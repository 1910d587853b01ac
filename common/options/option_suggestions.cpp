// SPDX-License-Identifier: Apache-2.0
#include "options/option_suggestions.hpp"

#include <algorithm>
#include <cctype>

namespace sctp_perf {

namespace {

// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the
// optimal-string-alignment distance, so "--quite" is one edit from "--quiet".
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) {
        d[i][0] = i;
    }
    for (std::size_t j = 0; j <= b.size(); ++j) {
        d[0][j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                d[i - 1][j - 1] + (a[i - 1] != b[j - 1] ? 1 : 0)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[a.size()][b.size()];
}

std::string lower(std::string text) {
    for (auto& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

}  // namespace

std::vector<std::string> long_option_names(const option_groups& groups) {
    std::vector<std::string> names;
    for (const auto* group : groups.shown()) {
        for (const auto& option : group->options()) {
            if (!option->long_name().empty()) {
                names.push_back(option->long_name());
            }
        }
    }
    return names;
}

std::optional<std::string> suggest_long_option(const std::string& typed,
                                               const std::vector<std::string>& long_names) {
    const std::string wanted = lower(typed);
    if (wanted.empty()) {
        return std::nullopt;
    }
    // A unique prefix ("--payload") is what the user meant: guessing is off
    // so that it never silently picks an option, but it may be suggested.
    std::vector<std::string> extending;
    for (const auto& name : long_names) {
        if (wanted.size() >= 3 && name.compare(0, wanted.size(), wanted) == 0) {
            extending.push_back(name);
        }
    }
    if (extending.size() == 1) {
        return extending.front();
    }
    // Otherwise the nearest name by edit distance, when the distance is small
    // for the length: one edit in a short name, up to three in a long one.
    const std::size_t allowed = std::clamp<std::size_t>(wanted.size() / 5, 1, 3);
    std::optional<std::string> best;
    std::size_t best_distance = allowed + 1;
    for (const auto& name : long_names) {
        const auto distance = edit_distance(wanted, name);
        if (distance < best_distance) {
            best_distance = distance;
            best = name;
        }
    }
    return best;
}

}  // namespace sctp_perf
