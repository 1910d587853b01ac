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
// and /sys, the resolver's socket while connecting), rounded up to 16.

#include <cstdint>
#include <optional>
#include <string>

#include "options/client_options.hpp"

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

// Reads the process's limit and, when its soft limit is too low for the run
// `options` describe but the hard limit is not, raises the soft limit to
// the hard one; throws usage_error when even that is too low.
void check_descriptor_limit(const client_options& options);

}  // namespace sctp_perf
