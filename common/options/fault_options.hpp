// SPDX-License-Identifier: Apache-2.0
#pragma once
// --at SECONDS:COMMAND: the user's own command, run at that point of the
// measured run to inject a fault (a link set down, a path made silent with
// netem) and, with a second --at, to undo it. Any mode, any transport:
// the client only runs the command and records what it did
// (client/fault_schedule.hpp); the report measures what it cost.

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace sctp_perf {

// The latest instant --at takes, and the longest --at-timeout: a day.
inline constexpr double max_fault_at_s = 86400.0;
inline constexpr double max_fault_timeout_s = 86400.0;
inline constexpr auto default_fault_timeout = std::chrono::seconds(10);

struct fault_command {
    std::chrono::nanoseconds at{0};  // from the start of the measured run
    std::string command;             // run by /bin/sh -c
    friend bool operator==(const fault_command&, const fault_command&) = default;
};

// --reconnect: a load flow whose connection ends (the peer closed, reset or
// aborted it) is set up again, after a wait that starts at
// first_reconnect_wait and doubles with each failed attempt up to the
// longest wait (--reconnect-backoff); each wait is drawn at random from its
// upper half, so that flows that lost their server together do not all come
// back at once.
inline constexpr auto first_reconnect_wait = std::chrono::milliseconds(10);
inline constexpr auto default_reconnect_backoff = std::chrono::milliseconds(200);
inline constexpr double min_reconnect_backoff_s = 0.001;
inline constexpr double max_reconnect_backoff_s = 60.0;

struct reconnect_policy {
    bool enabled = false;
    std::chrono::milliseconds longest_wait = default_reconnect_backoff;
};

struct fault_request {
    std::vector<fault_command> commands;  // in command-line order
    // A command still running this long after it started is killed, with
    // its whole process group.
    std::chrono::milliseconds timeout = default_fault_timeout;
    // Where each command's output goes, as PROGRAM-at-K.log (K: its place
    // on the command line, from 1); empty: the current directory.
    std::string output_dir;
    reconnect_policy reconnect;
    bool any() const noexcept { return !commands.empty(); }
};

struct raw_fault_options {
    std::vector<std::string> at;  // each "SECONDS:COMMAND"
    double timeout_s = std::chrono::duration<double>(default_fault_timeout).count();
    std::string output_dir;
    bool reconnect = false;
    double reconnect_backoff_s = std::chrono::duration<double>(default_reconnect_backoff).count();
};

// Adds --at, --at-timeout, --at-output, --reconnect and --reconnect-backoff to `options`; a number
// that cannot be read adds a sentence to `unreadable`.
void add_fault_options(boost::program_options::options_description& options, raw_fault_options& raw,
                       std::vector<std::string>& unreadable);

// One --at value: its instant and command, or the sentence saying why not.
struct fault_reading {
    std::optional<fault_command> command;
    std::string error;
};
fault_reading parse_fault_command(const std::string& text);

// Appends one sentence per broken rule to `errors`. `duration`: the run's
// --duration, which an instant must fall within; `repeat`: --repeat.
fault_request validate_fault_options(const raw_fault_options& raw,
                                     const boost::program_options::variables_map& given,
                                     const std::optional<std::chrono::nanoseconds>& duration,
                                     unsigned repeat, std::vector<std::string>& errors);

}  // namespace sctp_perf
