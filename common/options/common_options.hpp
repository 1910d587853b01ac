// SPDX-License-Identifier: Apache-2.0
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
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "options/sctp_feature_options.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/socket_setup.hpp"
#include "transport/transport_protocol.hpp"

namespace sctp_perf {

// The socket type a program is built on: SOCK_STREAM (TCP or one-to-one
// SCTP) or SOCK_SEQPACKET (SCTP one-to-many). It decides which options a
// program offers and how its server takes in associations.
enum class socket_service { stream, seqpack };

// "stream" or "seqpack": the one spelling reports and their readers use
// (the JSON report's config.service).
inline std::string_view name_of(socket_service s) noexcept {
    return s == socket_service::seqpack ? "seqpack" : "stream";
}

// What a program is, for its help text and for the options it offers.
struct program_info {
    std::string name;     // e.g. "SOCK_STREAM_clt"
    std::string summary;  // one line for --help
    socket_service service = socket_service::stream;
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
    // One sentence per number that could not be read, filled while parsing
    // (see number_value) and reported with the rules broken in validation.
    std::vector<std::string> unreadable_numbers;
};

// The options of one program, in the groups its --help shows. Each program
// fills the groups it has and lists them in its help_layout.
struct option_groups {
    boost::program_options::options_description server;
    boost::program_options::options_description test;
    boost::program_options::options_description histogram;
    boost::program_options::options_description connection;
    boost::program_options::options_description sctp;
    boost::program_options::options_description output;
    boost::program_options::options_description general;
    boost::program_options::options_description hidden;  // parsed, never shown
};

// What --help prints around the options.
// The --help note on how counts and sizes may be written, the same for
// every program.
extern const char* const number_forms_note;

struct help_layout {
    std::string usage;  // after "Usage: ", e.g. "SOCK_STREAM_clt -s POWER [options]"
    // Each group under its caption, in order.
    std::vector<std::pair<std::string, const boost::program_options::options_description*>> groups;
    std::string notes;     // paragraphs after the options
    std::string examples;  // "  command\n      what it does\n" lines
};

// Adds the common layer: -t, -n, --io-timeout, buffers, --cpu and --spin to
// `connection`, the SCTP options to `sctp`, --help and --version to `general`.
void add_common_options(option_groups& groups, raw_common_options& raw,
                        const program_info& program);

// How a whole-number option is written, for the sentence about one that
// cannot be read.
enum class count_kind {
    count,    // 100000, 1e5, 100k, 1M
    bytes,    // 262144, 256Ki, 4Mi
    integer,  // a port, an exponent, milliseconds: any of the forms, worded plainly
};

// A whole-number option (option_numbers.hpp). Its text is read when the
// command line is stored: a readable number goes into `into`, an unreadable
// one leaves `into` alone and adds a sentence naming `option_name` (e.g.
// "-c/--test-iterations") to `unreadable`. Set the value name, and a default
// as text, on the result.
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

// Appends one sentence per broken rule to `errors`.
common_options validate_common_options(const raw_common_options& raw,
                                       const boost::program_options::variables_map& given,
                                       const program_info& program,
                                       std::vector<std::string>& errors);

// ACE spelled long options with underscores (--payload_size_power_of_2) while
// documenting dashes; both are accepted by rewriting the name part of every
// "--name[=value]" argument to dashes before parsing.
std::vector<std::string> normalise_long_option_names(int argc, const char* const* argv);

// Parses the command line (long names normalised as above) against every
// group in `groups`. Returns false when --help or --version was given (the
// text has been written to `out`). Throws usage_error for unknown options
// (suggesting the nearest one), stray words and missing values.
bool parse_command_line(int argc, const char* const* argv, const option_groups& groups,
                        const help_layout& help, const program_info& program,
                        boost::program_options::variables_map& given, std::ostream& out);

// The --help text: the usage line, each group under its caption with every
// option's value named and its default shown, then the notes and examples;
// no line wider than help_width.
inline constexpr std::size_t help_width = 80;
void write_help(std::ostream& out, const program_info& program, const help_layout& help);

// The long option closest to a mistyped one (`typed` without its dashes,
// underscores already turned into dashes), when it is close enough to be
// the one meant: a small edit distance for its length, or a unique prefix.
std::optional<std::string> suggest_long_option(const std::string& typed,
                                               const std::vector<std::string>& long_names);

// Several broken rules of one command line. main prints "NAME: " before
// what(); what() starts every later sentence on its own line with the same
// "NAME: ", so each line of the report carries the program's name.
class usage_error_list : public usage_error {
  public:
    usage_error_list(const std::vector<std::string>& sentences, const std::string& program_name);
    const std::vector<std::string>& sentences() const noexcept { return sentences_; }

  private:
    std::vector<std::string> sentences_;
};

// Throws usage_error_list with every sentence in `errors`, if any.
void throw_if_invalid(const std::vector<std::string>& errors, const program_info& program);

}  // namespace sctp_perf
