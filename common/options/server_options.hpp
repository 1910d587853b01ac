// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything a server is configured by.

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "options/common_options.hpp"

namespace sctp_perf {

struct server_options {
    common_options common;
    std::uint16_t port = default_port;        // 0: the kernel picks a free port
    std::vector<std::string> bind_addresses;  // empty: any; SOCK_SEQPACK may list several
    // Concurrent tests; more are refused as busy. 0: the default, which
    // server_main sets from the descriptor limit (default_max_clients).
    unsigned max_clients = 0;
    unsigned threads = 0;  // --threads: worker threads; 0: one per online CPU
    // SOCK_SEQPACK_srv --peel-off: each association on a socket of its own,
    // served by the worker threads, instead of every association on the
    // one-to-many socket it arrived on, served by one thread.
    bool peel_off = false;
    std::chrono::milliseconds header_timeout = default_header_timeout;  // see option_defaults.hpp
    std::chrono::seconds idle_report =
        default_idle_report;  // --idle-report S: the idle line's period
    bool quiet = false;       // --quiet: only errors in the log
    // A test hook (--test-reply-delay, hidden, refused unless
    // SCTP_PERF_TEST_HOOKS=1): each ping-pong reply is held this long before
    // it is sent. 0: never.
    std::chrono::microseconds test_reply_delay{0};
    // A test hook (--test-wake-delay, likewise): with server timestamps,
    // the requests of each read are taken this long after the read
    // completed, before the server stamps their arrival, as if the server
    // woke late.
    std::chrono::microseconds test_wake_delay{0};
};

inline constexpr long long max_server_clients = 1'000'000;
inline constexpr long long max_server_threads = 1024;
inline constexpr long long max_test_delay_us = 1'000'000;

// Whether the server serves every association on its one-to-many socket
// (SOCK_SEQPACK_srv without --peel-off), with one thread.
bool serves_one_to_many(const server_options& options, const program_info& program);

// Parses and validates a server command line. Returns nullopt when --help or
// --version was answered on `out`. Throws usage_error naming every broken rule.
std::optional<server_options> parse_server_options(int argc, const char* const* argv,
                                                   const program_info& program, std::ostream& out);

}  // namespace sctp_perf
