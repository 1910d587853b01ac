// SPDX-License-Identifier: Apache-2.0
#pragma once
// SCTP retransmission timers per socket, so that reproducing a result no
// longer means changing the system-wide net.sctp.rto_* settings.

#include <cstdint>
#include <optional>
#include <string>

namespace sctp_perf {

// Each value in milliseconds; an unset value keeps what the socket has.
struct sctp_rto_request {
    std::optional<std::uint32_t> initial_ms;
    std::optional<std::uint32_t> min_ms;
    std::optional<std::uint32_t> max_ms;
    bool any() const noexcept { return initial_ms || min_ms || max_ms; }
};

struct sctp_rto_values {
    std::uint32_t initial_ms = 0;
    std::uint32_t min_ms = 0;
    std::uint32_t max_ms = 0;
};

// Sets SCTP_RTOINFO on `fd` (for its default association settings or, on a
// connected one-to-one socket, its association). Throws std::system_error.
void apply_sctp_rto(int fd, const sctp_rto_request& request);

// Reads SCTP_RTOINFO back, so reports state what the socket really used.
// On a one-to-many socket, `assoc_id` names the association; 0 reads the
// values new associations get.
sctp_rto_values read_sctp_rto(int fd, std::int32_t assoc_id = 0);

// The system-wide defaults from /proc/sys/net/sctp/rto_{initial,min,max};
// nullopt where they cannot be read (no SCTP, or another network namespace view).
std::optional<sctp_rto_values> read_system_sctp_rto();

}  // namespace sctp_perf
