// SPDX-License-Identifier: Apache-2.0
#pragma once
// --arrivals: how the messages of a rate-mode run are spread in time over
// its flows (see client/load/send_schedule.hpp for each process).

#include <optional>
#include <string_view>

namespace sctp_perf {

enum class arrival_process { uniform, poisson, in_step };

// "uniform", "poisson", "in-step": the option's own words.
constexpr std::string_view name_of(arrival_process process) noexcept {
    switch (process) {
        case arrival_process::uniform:
            return "uniform";
        case arrival_process::poisson:
            return "poisson";
        case arrival_process::in_step:
            return "in-step";
    }
    return "?";
}

constexpr std::optional<arrival_process> parse_arrival_process(std::string_view word) noexcept {
    for (const auto process :
         {arrival_process::uniform, arrival_process::poisson, arrival_process::in_step}) {
        if (word == name_of(process)) {
            return process;
        }
    }
    return std::nullopt;
}

}  // namespace sctp_perf
