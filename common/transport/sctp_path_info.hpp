// SPDX-License-Identifier: Apache-2.0
#pragma once
// The state of each path of an association as its kernel keeps it, read
// with SCTP_GET_PEER_ADDR_INFO (RFC 6458 8.2.2) for every peer address
// sctp_getpaddrs lists, and which one is primary (SCTP_STATUS): for the
// progress lines and the report's paths.

#include <cstdint>
#include <string>
#include <vector>

namespace sctp_perf {

struct peer_path_info {
    std::string address;  // "10.0.0.2:45453"
    std::string state;    // "active", "potentially_failed", "inactive", "unconfirmed", "unknown"
    std::uint32_t srtt_ms = 0;  // smoothed round trip, as the kernel gives it
    std::uint32_t rto_ms = 0;   // its retransmission timeout now
    std::uint32_t cwnd_bytes = 0;
    std::uint32_t mtu_bytes = 0;
};

struct association_paths {
    std::string primary;  // the primary path's address; empty when unknown
    std::vector<peer_path_info> paths;
};

// Every path of association `assoc_id` on `fd` (0 on a socket holding one).
// Never throws: an association already gone has no paths; a path whose
// state cannot be read is "unknown".
association_paths read_association_paths(int fd, std::int32_t assoc_id);

}  // namespace sctp_perf
