// SPDX-License-Identifier: Apache-2.0
#pragma once
// How many file descriptors a client run needs, checked against what the
// process may open (RLIMIT_NOFILE, which `ulimit -n` sets) before anything
// connects: a run of thousands of flows would otherwise fail part way
// through connecting them, with "Too many open files".
//
// The count: a socket per flow, an epoll descriptor per worker thread, and a
// reserve of descriptor_reserve for the rest: the standard streams (3), the
// output files (--json-file, --interval-csv, --histogram-log,
// --latency-file, --flow-csv: 5) and the short-lived ones (reads of /proc
// and /sys, the resolver's socket while connecting), rounded up to 16. A
// fan-out over several servers needs no more: a socket per flow, whichever
// server it goes to (the local ports, below, are what is counted per server).

#include <cstdint>
#include <optional>
#include <string>

#include "options/client_options.hpp"
#include "options/program_info.hpp"

namespace sctp_perf {

inline constexpr std::uint64_t descriptor_reserve = 16;

// The soft and hard RLIMIT_NOFILE; UINT64_MAX for no limit.
struct descriptor_limit {
    std::uint64_t soft = UINT64_MAX;
    std::uint64_t hard = UINT64_MAX;
};

std::uint64_t descriptors_needed(unsigned flows, unsigned threads) noexcept;

// The usage error's sentence when `limit` is too low for `flows` on
// `threads`, naming `ulimit -n` and the number needed; nullopt when it
// allows them.
std::optional<std::string> descriptor_shortfall(unsigned flows, unsigned threads,
                                                descriptor_limit limit);

// The ephemeral ports the kernel hands out (net.ipv4.ip_local_port_range),
// first..last inclusive.
struct port_range {
    unsigned first = 32768;
    unsigned last = 60999;
    std::uint64_t count() const noexcept { return last >= first ? last - first + 1ULL : 0; }
};

// Each flow holds a local port of its local address towards its server's
// address and port, so one local address has ports for at most
// range.count() flows towards one server. The usage error's sentence when
// `flows` need more ports than `local_addresses` (1 or more) have, naming
// -i with more addresses where `dealt_over_addresses` (SOCK_STREAM_clt
// deals its flows over a -i list; SOCK_SEQPACK_clt binds every address on
// each association); nullopt when they fit.
//
// With several `servers` (SOCK_STREAM_clt's fan-out) the ports are counted
// per server: flow k binds address k mod A and goes to server k mod S, so
// the flows fall on lcm(A, S) pairs of local address and server, the
// busiest holding ceil(flows / lcm(A, S)) of them, and each pair has
// range.count() ports.
std::optional<std::string> port_shortfall(unsigned flows, std::size_t local_addresses,
                                          bool dealt_over_addresses, port_range range,
                                          std::size_t servers = 1);

// /proc/sys/net/ipv4/ip_local_port_range; nullopt when it cannot be read.
std::optional<port_range> read_port_range();

// Throws usage_error when the run's flows need more local ports than the
// kernel's range gives its local addresses, towards each server. No check
// with -C, which names the port itself.
void check_port_budget(const client_options& options, bool dealt_over_addresses);

// Reads the process's limit and, when its soft limit is too low for the run
// `options` describe but the hard limit is not, raises the soft limit to
// the hard one; throws usage_error when even that is too low.
void check_descriptor_limit(const client_options& options);

// Both checks above, for `program`'s socket service. A limit too low for the
// flows is the command line's mistake, and it should not surface at flow
// 1019 of 5000: checked before anything else, by a run, by --check and by
// each line of --check-lines alike.
void check_run_limits(const client_options& options, const program_info& program);

}  // namespace sctp_perf
