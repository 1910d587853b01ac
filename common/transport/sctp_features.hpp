// SPDX-License-Identifier: Apache-2.0
#pragma once
// SCTP's own features, asked for per socket: several streams, unordered
// delivery, partial reliability (PR-SCTP, RFC 3758 and RFC 7496), SACK
// timing, the stream scheduler and I-DATA interleaving (RFC 8260).
//
// A request becomes a list of socket options (plan_sctp_features), which is
// pure so that tests can see exactly what each command-line option turns
// into; apply_sctp_features() sets them, before connect() or listen(), since
// most of them shape the INIT. read_sctp_features() reads back what an
// association really got, for the reports of both ends.

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sctp_perf {

// --pr-sctp ttl:MS | rtx:N
enum class pr_sctp_policy : std::uint8_t { none, ttl, rtx };
struct pr_sctp {
    pr_sctp_policy policy = pr_sctp_policy::none;
    std::uint32_t value = 0;  // ttl: lifetime in milliseconds; rtx: retransmissions allowed
    bool any() const noexcept { return policy != pr_sctp_policy::none; }
    friend bool operator==(const pr_sctp&, const pr_sctp&) = default;
};
// "ttl:50" or "rtx:2"; nullopt for anything else (a value must be a whole
// number, ttl 1..86400000 ms, rtx 0..1000).
std::optional<pr_sctp> parse_pr_sctp(std::string_view text);
// "ttl:50", "rtx:2" or "none".
std::string describe(const pr_sctp& pr);

// --stream-scheduler. fc and wfq came with Linux 6.2.
enum class stream_scheduler : std::uint8_t { fcfs = 0, prio = 1, rr = 2, fc = 3, wfq = 4 };
std::optional<stream_scheduler> parse_stream_scheduler(std::string_view text);
std::string_view name_of(stream_scheduler scheduler) noexcept;

// What the command line asked for; the defaults are what a plain SCTP socket
// does anyway, and ask for nothing.
struct sctp_feature_request {
    std::uint16_t streams = 1;  // outbound streams asked for, and inbound streams allowed
    bool unordered = false;     // data messages go out with SCTP_UNORDERED
    pr_sctp pr;                 // data messages go out with this PR-SCTP policy
    std::optional<std::uint32_t> sack_delay_ms;
    std::optional<std::uint32_t> sack_freq;
    std::optional<stream_scheduler> scheduler;
    bool interleave = false;  // I-DATA (RFC 8260)
    bool any() const noexcept {
        return streams != 1 || unordered || pr.any() || sack_delay_ms || sack_freq || scheduler ||
               interleave;
    }
};

// One setsockopt(fd, IPPROTO_SCTP, name, value) the request turns into.
struct sctp_socket_option {
    int name = 0;                  // e.g. SCTP_INITMSG
    std::string name_text;         // "SCTP_INITMSG", for errors and tests
    std::string option;            // the command-line option it serves, e.g. "--streams"
    std::vector<std::byte> value;  // the struct passed to setsockopt, as bytes
};

// The socket options for `request`, in the order they must be set (SCTP_
// FRAGMENT_INTERLEAVE before SCTP_INTERLEAVING_SUPPORTED). Empty when the
// request asks for nothing. Per-message settings (unordered, the PR-SCTP
// policy) are not socket options; they travel with each message (see
// sctp_delivery.hpp); only the PR-SCTP support they need is listed here.
std::vector<sctp_socket_option> plan_sctp_features(const sctp_feature_request& request);

// Sets every option of plan_sctp_features(request) on `fd`, a one-to-one
// socket before connect() or a listening socket before listen(), so that
// associations set up later get them. Throws std::system_error naming the
// command-line option and, where the kernel lacks the feature, what is
// missing (for example "this kernel has no 'fc' stream scheduler (Linux 6.2
// or later)", or "I-DATA interleaving needs sysctl net.sctp.intl_enable=1").
void apply_sctp_features(int fd, const sctp_feature_request& request);

// What one association really uses, read back from its socket (a connected
// one-to-one socket or one peeled off a one-to-many socket).
struct sctp_feature_state {
    std::uint16_t outbound_streams = 0;  // SCTP_STATUS, as negotiated with the peer
    std::uint16_t inbound_streams = 0;
    std::uint32_t sack_delay_ms = 0;  // SCTP_DELAYED_SACK
    std::uint32_t sack_freq = 0;
    bool pr_supported = false;  // SCTP_PR_SUPPORTED: both ends agreed to PR-SCTP
    bool interleaving = false;  // SCTP_INTERLEAVING_SUPPORTED: I-DATA in use
    std::string scheduler;      // SCTP_STREAM_SCHEDULER, by name ("fcfs", ...)
};
// `assoc_id` names the association on a shared one-to-many socket; 0 on a
// socket that holds one.
sctp_feature_state read_sctp_features(int fd, std::int32_t assoc_id = 0);

// The DATA chunks of the peer that this end has not received while it holds
// later ones (SCTP_STATUS's sstat_penddata: the gaps below the highest TSN
// seen). Above 0, a retransmission, or PR-SCTP's FORWARD-TSN giving the
// chunk up, is still to come. nullopt when the kernel does not say.
std::optional<std::uint32_t> data_chunks_awaited(int fd, std::int32_t assoc_id) noexcept;

// The messages this end's kernel abandoned under PR-SCTP on the association
// (SCTP_PR_ASSOC_STATUS, every policy): never sent, and sent but given up.
struct pr_sctp_abandoned {
    std::uint64_t unsent = 0;
    std::uint64_t sent = 0;
    std::uint64_t total() const noexcept { return unsent + sent; }
};
// `assoc_id` names the association on a shared one-to-many socket; 0 on a
// socket that holds one.
pr_sctp_abandoned read_pr_sctp_abandoned(int fd, std::int32_t assoc_id = 0);

}  // namespace sctp_perf
