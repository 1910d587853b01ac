// SPDX-License-Identifier: Apache-2.0
#pragma once
// The settings that decide how fast an SCTP association notices a dead path
// and moves to another: the heartbeat, the path and association
// retransmission limits, the potentially-failed threshold (RFC 7829) and, on
// a client, the primary path.
//
// Each is set per socket before connect() or listen(), so that every
// association made later starts with it, and read back from the association
// itself, so that reports state what was in use and not what was asked.
// The system-wide settings a prediction of the failover depends on
// (net.sctp.pf_enable and the others) are read from /proc/sys/net/sctp/.
//
// How they act (Linux, net/sctp/sm_sideeffect.c): every retransmission
// timeout on a path adds one to its error count and doubles its RTO, up to
// rto_max; a path whose count exceeds path-max-retrans is unreachable; with
// net.sctp.pf_enable on, a path whose count exceeds the pf threshold while
// still below path-max-retrans is potentially failed, and new data avoids
// it at once. The association itself is given up when its own count (every
// path's timeouts) exceeds assoc-max-retrans. A heartbeat goes to each idle
// path every hb-interval plus its RTO, with jitter; the heartbeats are what
// find a failed path available again.

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <cstdint>
#include <optional>
#include <string>

namespace sctp_perf {

// The kernel's SCTP_PF_EXPOSE_ENABLE (include/net/sctp/constants.h), which
// the user-space header does not carry: the value of
// SCTP_EXPOSE_POTENTIALLY_FAILED_STATE that makes Linux tell of the state.
constexpr std::uint32_t sctp_pf_expose_enable = 2;

// What the command line asked for; unset: the system's default stays.
struct sctp_path_request {
    std::optional<std::uint32_t> hb_interval_ms;  // --sctp-hb-interval MS
    bool hb_off = false;                          // --sctp-hb-interval off
    std::optional<std::uint16_t> path_max_retrans;
    std::optional<std::uint16_t> assoc_max_retrans;
    std::optional<std::uint16_t> pf_threshold;
    std::string primary;  // --sctp-primary, an IP literal; empty: the kernel's choice
    bool any_socket_setting() const noexcept {
        return hb_interval_ms || hb_off || path_max_retrans || assoc_max_retrans || pf_threshold;
    }
    bool any() const noexcept { return any_socket_setting() || !primary.empty(); }
};

// Sets every socket setting of `request` on `fd`, a one-to-one socket before
// connect() or a listening socket before listen(), for the associations it
// makes later: SCTP_PEER_ADDR_PARAMS (heartbeat, path-max-retrans),
// SCTP_ASSOCINFO (assoc-max-retrans), SCTP_PEER_ADDR_THLDS (pf threshold).
// Throws std::system_error naming the option in one sentence: a kernel
// without SCTP_PEER_ADDR_THLDS, or one whose net.sctp.pf_enable is 0, cannot
// take a pf threshold, and says so. The primary is set once the association
// is up (set_primary_path).
void apply_sctp_path_settings(int fd, const sctp_path_request& request);

// Makes `address` (an IP literal, with `port`) the primary path of the
// association on `fd` (SCTP_PRIMARY_ADDR). Throws std::system_error with one
// sentence when it is not one of the association's peer addresses.
void set_primary_path(int fd, std::int32_t assoc_id, const std::string& address,
                      std::uint16_t port);

// What one association (or, before it exists, the socket) really uses.
struct sctp_path_values {
    std::uint32_t hb_interval_ms = 0;
    bool hb_enabled = false;
    std::uint32_t path_max_retrans = 0;
    std::uint32_t assoc_max_retrans = 0;
    // Unset where the kernel has no SCTP_PEER_ADDR_THLDS.
    std::optional<std::uint32_t> pf_threshold;
    // The primary path's address ("10.0.0.2:45453"); empty on a socket
    // without an association, or where the kernel does not say.
    std::string primary;
    // Whether this socket is told of potentially-failed paths
    // (SCTP_EXPOSE_POTENTIALLY_FAILED_STATE, Linux 5.5); unset where the
    // kernel has no such option, and then no such event comes.
    std::optional<bool> pf_exposed;
};

// Reads them back; `assoc_id` names the association on a one-to-many
// socket, 0 on one that holds one (or none yet). Throws std::system_error.
sctp_path_values read_sctp_path_settings(int fd, std::int32_t assoc_id = 0);

// The network namespace's net.sctp.* settings that failover depends on,
// each unset where /proc/sys/net/sctp/ does not have it.
struct sctp_path_system {
    std::optional<std::uint32_t> pf_enable;  // 1: the potentially-failed state is used
    std::optional<std::uint32_t> pf_expose;  // 0 unset, 1 disabled, 2 enabled
    std::optional<std::uint32_t> pf_retrans;
    std::optional<std::uint32_t> ps_retrans;  // primary switchover threshold
    std::optional<std::uint32_t> path_max_retrans;
    std::optional<std::uint32_t> association_max_retrans;
    std::optional<std::uint32_t> hb_interval_ms;
    std::optional<std::uint32_t> rto_initial_ms;
    std::optional<std::uint32_t> rto_min_ms;
    std::optional<std::uint32_t> rto_max_ms;
};
sctp_path_system read_sctp_path_system();

}  // namespace sctp_perf
