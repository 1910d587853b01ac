// SPDX-License-Identifier: Apache-2.0
#pragma once
// The command-line options for how an SCTP association watches and leaves
// its paths: heartbeat interval, path and association retransmission
// limits, the potentially-failed threshold, and on a client the primary
// path (transport/sctp_path_settings.hpp says what each does). Every SCTP
// program takes them; with -t tcp each one is a usage error naming it.

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <string>
#include <vector>

#include "transport/sctp_path_settings.hpp"
#include "transport/transport_protocol.hpp"

namespace sctp_perf {

// The most a path or association retransmission limit, or the pf
// threshold, can be: the kernel keeps them in 16 bits.
inline constexpr long long max_path_retrans = 65535;
// The longest heartbeat interval taken: a day.
inline constexpr long long max_hb_interval_ms = 86'400'000;

struct raw_sctp_path_options {
    std::string hb_interval;          // MS or "off"; empty: not given
    long long path_max_retrans = -1;  // -1: not given
    long long assoc_max_retrans = -1;
    long long pf_threshold = -1;
    std::string primary;  // client only; empty: not given
};

// Adds the options every program takes to `options`; a number that cannot
// be read adds a sentence to `unreadable` (count_value).
void add_sctp_path_options(boost::program_options::options_description& options,
                           raw_sctp_path_options& raw, std::vector<std::string>& unreadable);
// Adds --sctp-primary, which only a client takes.
void add_sctp_primary_option(boost::program_options::options_description& options,
                             raw_sctp_path_options& raw);

// Appends one sentence per broken rule to `errors`.
sctp_path_request validate_sctp_path_options(const raw_sctp_path_options& raw,
                                             const boost::program_options::variables_map& given,
                                             transport_protocol transport,
                                             std::vector<std::string>& errors);

}  // namespace sctp_perf
