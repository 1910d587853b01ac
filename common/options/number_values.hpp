// SPDX-License-Identifier: Apache-2.0
#pragma once
// Options whose values are numbers: each is read as the command line is
// stored (option_numbers.hpp says how numbers may be written), and one that
// cannot be read becomes a sentence naming the option, reported with the
// rules broken in validation.

#include <boost/program_options/value_semantic.hpp>
#include <chrono>
#include <concepts>
#include <string>
#include <vector>

namespace sctp_perf {

// How a whole-number option is written, for the sentence about one that
// cannot be read.
enum class count_kind {
    count,    // 100000, 1e5, 100k, 1M
    bytes,    // 262144, 256Ki, 4Mi
    integer,  // a port, an exponent, milliseconds: any of the forms, worded plainly
};

// A whole-number option. Its text is read when the command line is stored:
// a readable number goes into `into`, an unreadable one leaves `into` alone
// and adds a sentence naming `option_name` (e.g. "-c/--test-iterations") to
// `unreadable`. Set the value name, and a default as text, on the result.
boost::program_options::typed_value<std::string>* count_value(long long& into,
                                                              std::vector<std::string>& unreadable,
                                                              std::string option_name,
                                                              count_kind kind = count_kind::count);

// How a real-number option is written.
enum class real_kind {
    seconds,       // 10, 0.5, 1e-3
    microseconds,  // 10000, 2.5, 1e4
    rate,          // 1000, 2.5, 1e5 or 100k (decimal suffixes allowed)
};

// The same for a real number (seconds, microseconds, a rate).
boost::program_options::typed_value<std::string>* real_value(double& into,
                                                             std::vector<std::string>& unreadable,
                                                             std::string option_name,
                                                             real_kind kind);

// A default as --help shows it: 1000000, 10 for 10.0 seconds, 0.5.
std::string default_text(double value);
template <std::integral T>
std::string default_text(T value) {
    return std::to_string(value);
}
// A duration in seconds, as the options that take seconds write it.
template <typename Rep, typename Period>
std::string default_text(std::chrono::duration<Rep, Period> value) {
    return default_text(std::chrono::duration<double>(value).count());
}

}  // namespace sctp_perf
