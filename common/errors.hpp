// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exit codes and every error type the programs throw, with the code each maps
// onto.
//
// Every program returns one of three codes so that scripts can tell a broken
// command line from a broken network: 0 success, 1 runtime failure (the network,
// the peer or the kernel said no), 2 usage error (the command line is wrong).

#include <stdexcept>
#include <string>
#include <vector>

namespace sctp_perf {

inline constexpr int exit_success = 0;
inline constexpr int exit_runtime_failure = 1;
inline constexpr int exit_usage_error = 2;

// The command line cannot be used; the message says which rule it broke.
class usage_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Several broken rules of one command line (options/usage_errors.hpp
// gathers them). main prints "NAME: " before what(); what() starts every
// later sentence on its own line with the same "NAME: ", so each line of the
// report carries the program's name.
class usage_error_list : public usage_error {
  public:
    usage_error_list(const std::vector<std::string>& sentences, const std::string& program_name);
    const std::vector<std::string>& sentences() const noexcept { return sentences_; }

  private:
    std::vector<std::string> sentences_;
};

// The peer did something the protocol does not allow (closed early, sent
// garbage, went silent). It ends one connection, never the server.
class peer_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The peer closed the connection cleanly between two messages: the normal end
// of a test that runs until the client stops, an error anywhere else.
class peer_closed : public peer_error {
  public:
    using peer_error::peer_error;
};

// With several SCTP streams the server must answer each request on the
// stream it came on (client/reply_stream.hpp checks it): a reply elsewhere is
// its error, not a silence, so nothing about timeouts is added to it on the
// way up.
class reply_on_wrong_stream : public peer_error {
  public:
    using peer_error::peer_error;
};

// The server said no before the test began; what() carries its reason.
class test_refused : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// No connection to the server; what() names the host, the port and the last
// reason. `refused` tells whether to suggest starting a server.
class connect_error : public std::runtime_error {
  public:
    connect_error(const std::string& what, bool refused)
        : std::runtime_error(what), refused_(refused) {}
    bool refused() const noexcept { return refused_; }

  private:
    bool refused_;
};

// --start-at came before the client was ready to measure: starting late
// would misalign the runs merged across hosts, so the run fails instead.
class start_missed : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A name in an address list that does not resolve; what() names it and says why.
class resolve_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A histogram or a HdrHistogram log that cannot be read
// (report/histogram_log_reader.hpp); what() is one sentence saying what is
// wrong with it.
class histogram_decode_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Files given to read that cannot be used: a client's report
// (report/client_report.hpp), an interval log, a path, or two sides of a
// comparison that do not measure one thing. what() is one sentence naming
// the file or the side; sctp-perf-compare exits 2 on it.
class input_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A chart that could not be drawn (sctp-perf-compare --plot,
// compare/spectrum_plot.hpp): gnuplot missing, failing or too slow, or its
// file not written. what() says why; the program exits 1.
class plot_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Kernel failures are std::system_error, with the call that failed in what().

}  // namespace sctp_perf
