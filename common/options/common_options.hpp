#pragma once
// Options that every program shares, and the machinery that parses them.
//
// Each role has a plain struct with its defaults in member initialisers. Each
// layer registers its options with one add_*_options() call, parsing fills raw
// values, and validation is a separate step that states one sentence per broken
// rule and reports all of them at once.

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <chrono>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "options/sctp_feature_options.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/socket_setup.hpp"
#include "transport/transport_protocol.hpp"

namespace sctp_perf {

// What a program is, for its help text and for the options it offers.
struct program_info {
    std::string name;                     // e.g. "SOCK_STREAM_clt"
    std::string summary;                  // one line for --help
    std::string service;                  // "stream" or "seqpack"
    bool offers_transport_choice = true;  // -t sctp|tcp; SOCK_SEQPACK is SCTP only
};

struct common_options {
    transport_protocol transport = transport_protocol::sctp;
    bool nagle = false;  // Nagle's algorithm on (the -n flag)
    std::chrono::milliseconds io_timeout{10'000};
    sctp_rto_request sctp_rto;
    sctp_feature_request sctp;      // streams, unordered, PR-SCTP, SACK, scheduler, interleave
    socket_buffer_request buffers;  // --sndbuf / --rcvbuf
    std::vector<unsigned> cpus;     // --cpu, sorted; empty: wherever the system puts the process
    bool spin = false;              // --spin: receives poll the socket instead of sleeping
};

// The raw command-line values of the common layer, before validation.
struct raw_common_options {
    std::string transport = "sctp";
    bool nagle = false;
    double io_timeout_s = 10.0;
    long long sctp_rto_initial_ms = -1;  // -1: not given
    long long sctp_rto_min_ms = -1;
    long long sctp_rto_max_ms = -1;
    long long sndbuf_bytes = -1;  // -1: not given
    long long rcvbuf_bytes = -1;
    std::string cpu;  // --cpu LIST; empty: not given
    bool spin = false;
    raw_sctp_feature_options sctp;
};

void add_common_options(boost::program_options::options_description& options,
                        raw_common_options& raw, const program_info& program);

// Appends one sentence per broken rule to `errors`.
common_options validate_common_options(const raw_common_options& raw,
                                       const boost::program_options::variables_map& given,
                                       const program_info& program,
                                       std::vector<std::string>& errors);

// ACE spelled long options with underscores (--payload_size_power_of_2) while
// documenting dashes; both are accepted by rewriting the name part of every
// "--name[=value]" argument to dashes before parsing.
std::vector<std::string> normalise_long_option_names(int argc, const char* const* argv);

// Parses the command line (long names normalised as above) against
// `options`. Returns false when --help or --version was given (the text has
// been written to `out`). Throws usage_error for unknown options, stray words,
// missing or malformed values.
bool parse_command_line(int argc, const char* const* argv,
                        const boost::program_options::options_description& options,
                        const program_info& program, const std::string& help_epilogue,
                        boost::program_options::variables_map& given, std::ostream& out);

// Throws usage_error listing every sentence in `errors`, if any.
void throw_if_invalid(const std::vector<std::string>& errors);

}  // namespace sctp_perf
