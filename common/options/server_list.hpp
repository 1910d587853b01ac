// SPDX-License-Identifier: Apache-2.0
#pragma once
// SOCK_STREAM_clt's -H list: the servers a run's flows are dealt over
// (fan-out), flow k to server k modulo their number. Each entry is a host,
// with its own port or -p's:
//
//   HOST            a name or an IPv4 literal, or an IPv6 literal alone
//                   (::1, fe80::1%eth0: two colons or more, no port)
//   HOST:PORT       a name or an IPv4 literal with its port
//   [V6]:PORT       an IPv6 literal with its port; [V6] alone takes -p (and
//                   stays bracketed, as the resolver reads it)
//
// SOCK_SEQPACK_clt's -H list means something else (the addresses of one
// multi-homed server) and is not read here. Pure functions, no I/O.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sctp_perf {

// One server of the list: where its flows connect.
struct server_endpoint {
    std::string host;
    std::uint16_t port = 0;
    friend bool operator==(const server_endpoint&, const server_endpoint&) = default;
};

// The servers of a -H list, or the sentence that says why it cannot be
// read (naming the entry), for the usage error.
struct server_list_reading {
    std::vector<server_endpoint> servers;
    std::string error;  // empty when read
};

// Reads a comma-separated -H list; entries without a port take
// `default_port` (-p). Empty entries (a trailing comma) are skipped, as in
// the other address lists; a list with no entry is an error, and so is one
// that names the same host and port twice (one server would then count as
// two, each row half of it).
server_list_reading parse_server_list(const std::string& list, std::uint16_t default_port);

// "host:port", or "[v6]:port" for an IPv6 literal.
std::string endpoint_text(const server_endpoint& server);

// The server flow `flow` is dealt to, of `servers` (1 or more): flow k to
// server k modulo their number.
inline unsigned server_of_flow(unsigned flow, std::size_t servers) noexcept {
    return static_cast<unsigned>(flow % (servers == 0 ? 1 : servers));
}

// How many of `flows` flows go to each of `servers` servers: the first
// flows % servers servers get one more than the others.
std::vector<unsigned> flows_per_server(unsigned flows, std::size_t servers);

}  // namespace sctp_perf
