// SPDX-License-Identifier: Apache-2.0
#pragma once
// The options every program shares: the transport, timeouts, socket buffers,
// CPUs, and SCTP's own settings.
//
// Each role has a plain struct with its defaults in member initialisers
// (option_defaults.hpp). Each layer registers its options with one
// add_*_options() call, parsing fills raw values (option_parsing.hpp), and
// validation is a separate step that states one sentence per broken rule
// and reports all of them at once (usage_errors.hpp).

#include <boost/program_options/variables_map.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "options/number_values.hpp"
#include "options/option_defaults.hpp"
#include "options/option_groups.hpp"
#include "options/option_help.hpp"
#include "options/option_parsing.hpp"
#include "options/option_suggestions.hpp"
#include "options/program_info.hpp"
#include "options/sctp_feature_options.hpp"
#include "options/sctp_path_options.hpp"
#include "options/usage_errors.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/socket_setup.hpp"
#include "transport/transport_protocol.hpp"

namespace sctp_perf {

struct common_options {
    transport_protocol transport = default_transport;
    bool nagle = false;  // Nagle's algorithm on (the -n flag)
    std::chrono::milliseconds io_timeout = default_io_timeout;
    sctp_rto_request sctp_rto;
    sctp_feature_request sctp;      // streams, unordered, PR-SCTP, SACK, scheduler, interleave
    sctp_path_request sctp_paths;   // heartbeat, retransmission limits, pf threshold, primary
    socket_buffer_request buffers;  // --sndbuf / --rcvbuf
    std::optional<std::uint32_t> max_seg_bytes;  // --max-seg (transport/socket_device.hpp)
    std::string bind_device;                     // --bind-device; empty: no device
    std::vector<unsigned> cpus;  // --cpu, sorted; empty: wherever the system puts the process
    bool spin = false;           // --spin: receives poll the socket instead of sleeping
    // --poll-before-sleep: a wait polls this long before it sleeps; 0 with spin.
    std::chrono::microseconds poll_before_sleep = default_poll_before_sleep;
};

// The raw command-line values of the common layer, before validation.
struct raw_common_options {
    std::string transport{name_of(default_transport)};
    bool nagle = false;
    double io_timeout_s = std::chrono::duration<double>(default_io_timeout).count();
    long long sctp_rto_initial_ms = -1;  // -1: not given
    long long sctp_rto_min_ms = -1;
    long long sctp_rto_max_ms = -1;
    long long sndbuf_bytes = -1;  // -1: not given
    long long rcvbuf_bytes = -1;
    long long max_seg_bytes = -1;  // -1: not given
    std::string bind_device;
    std::string cpu;  // --cpu LIST; empty: not given
    bool spin = false;
    long long poll_before_sleep_us = default_poll_before_sleep.count();
    raw_sctp_feature_options sctp;
    raw_sctp_path_options sctp_paths;
    // One sentence per number that could not be read, filled while parsing
    // (see count_value) and reported with the rules broken in validation.
    std::vector<std::string> unreadable_numbers;
};

// Adds the common layer: -t, -n, --io-timeout, buffers, --cpu, --spin and
// --poll-before-sleep to
// `connection`, the SCTP options to `sctp`, --help and --version to `general`.
void add_common_options(option_groups& groups, raw_common_options& raw,
                        const program_info& program);

// Appends one sentence per broken rule to `errors`.
common_options validate_common_options(const raw_common_options& raw,
                                       const boost::program_options::variables_map& given,
                                       const program_info& program,
                                       std::vector<std::string>& errors);

// The entries of an address list (-i, -a) that name a network interface
// must give it an address: one sentence in `errors` for each that has none.
// Other entries are host names or literals, resolved when the program
// connects or listens. `option` names the list in the sentence.
void check_interface_entries(const std::vector<std::string>& entries, const char* option,
                             std::vector<std::string>& errors);

}  // namespace sctp_perf
