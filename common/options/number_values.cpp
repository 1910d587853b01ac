// SPDX-License-Identifier: Apache-2.0
#include "options/number_values.hpp"

#include <fmt/format.h>

#include "options/option_numbers.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

namespace {

std::string describe_count(count_kind kind) {
    switch (kind) {
        case count_kind::count:
            return "a count such as 100000, 1e5, 100k or 1M";
        case count_kind::bytes:
            return "a size in bytes such as 262144, 256Ki or 4Mi";
        case count_kind::integer:
            break;
    }
    return "a whole number";
}

std::string describe_real(real_kind kind) {
    switch (kind) {
        case real_kind::seconds:
            return "a number of seconds such as 10, 0.5 or 1e-3";
        case real_kind::microseconds:
            return "a number of microseconds such as 10000, 2.5 or 1e4";
        case real_kind::rate:
            break;
    }
    return "a rate such as 1000, 2.5, 1e5 or 100k";
}

std::string unreadable_sentence(const std::string& option_name, const std::string& expected,
                                const std::string& text, number_problem problem) {
    const char* why = "";
    switch (problem) {
        case number_problem::fraction:
            why = " (a fraction; a count must come out whole)";
            break;
        case number_problem::negative:
            why = " (negative)";
            break;
        case number_problem::too_large:
            why = " (too large)";
            break;
        case number_problem::none:
        case number_problem::unreadable:
            break;
    }
    return fmt::format("{} must be {}, not '{}'{}", option_name, expected, text, why);
}

}  // namespace

po::typed_value<std::string>* count_value(long long& into, std::vector<std::string>& unreadable,
                                          std::string option_name, count_kind kind) {
    return po::value<std::string>()->notifier(
        [&into, &unreadable, option_name = std::move(option_name), kind](const std::string& text) {
            const auto reading = read_count(text);
            if (reading.value) {
                into = *reading.value;
            } else {
                unreadable.push_back(
                    unreadable_sentence(option_name, describe_count(kind), text, reading.problem));
            }
        });
}

po::typed_value<std::string>* real_value(double& into, std::vector<std::string>& unreadable,
                                         std::string option_name, real_kind kind) {
    return po::value<std::string>()->notifier(
        [&into, &unreadable, option_name = std::move(option_name), kind](const std::string& text) {
            const auto reading = read_real(text, kind == real_kind::rate);
            if (reading.value) {
                into = *reading.value;
            } else {
                unreadable.push_back(
                    unreadable_sentence(option_name, describe_real(kind), text, reading.problem));
            }
        });
}

std::string default_text(double value) {
    return fmt::format("{}", value);
}

}  // namespace sctp_perf
