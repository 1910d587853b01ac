// SPDX-License-Identifier: Apache-2.0
#pragma once
// The command-line options for SCTP's own features (streams, unordered and
// partially reliable delivery, SACK timing, scheduling, interleaving). Every
// program takes them; with -t tcp each one is a usage error naming it.

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <string>
#include <vector>

#include "options/option_defaults.hpp"
#include "transport/sctp_features.hpp"
#include "transport/transport_protocol.hpp"

namespace sctp_perf {

struct raw_sctp_feature_options {
    long long streams = default_streams;
    bool unordered = false;
    std::string pr_sctp;
    long long sack_delay_ms = -1;  // -1: not given
    long long sack_freq = -1;
    std::string scheduler;
    bool interleave = false;
};

// Adds the options to `options`; a number that cannot be read adds a
// sentence to `unreadable` (see count_value).
void add_sctp_feature_options(boost::program_options::options_description& options,
                              raw_sctp_feature_options& raw, std::vector<std::string>& unreadable);

// Appends one sentence per broken rule to `errors`.
sctp_feature_request validate_sctp_feature_options(
    const raw_sctp_feature_options& raw, const boost::program_options::variables_map& given,
    transport_protocol transport, std::vector<std::string>& errors);

}  // namespace sctp_perf
