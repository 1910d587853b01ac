// SPDX-License-Identifier: Apache-2.0
#pragma once
// The account blob: what a server counted on one load-test session, sent
// after its end reply (wire_protocol.hpp) so that the client can check it
// against its own counts. JSON text, one object, its members in this order:
//
//   "messages_received", "bytes_received", "replies_sent", "bytes_sent",
//   "payload_bytes", "reply_bytes", "duration_s", "cpu_percent", "rss_kib",
//   "pr_abandoned" (only when its replies travel under PR-SCTP),
//   "transport" (transport_counters_blob.hpp) and "paths" (over SCTP: the
//   association's path events, sctp_paths_blob.hpp; an added member, so a
//   client that does not know it reads the account as before).
//
// A client reads a peer it does not trust: a member that is missing, of the
// wrong type or out of range reads as 0 (blob_member.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/sctp_paths_blob.hpp"
#include "protocol/transport_counters_blob.hpp"

namespace sctp_perf::protocol {

struct server_account {
    std::uint64_t messages_received = 0;  // primer included, end message not
    std::uint64_t bytes_received = 0;
    std::uint64_t replies_sent = 0;   // primer included, end reply not
    std::uint64_t bytes_sent = 0;     // of those replies
    std::uint32_t payload_bytes = 0;  // the test's sizes, as the server took them
    std::uint32_t reply_bytes = 0;
    double duration_s = 0.0;   // from the test header to the end message
    double cpu_percent = 0.0;  // the server process's, over that time
    std::uint64_t rss_kib = 0;
    // Replies its kernel gave up (PR-SCTP); sent only when `partially_reliable`.
    std::uint64_t pr_abandoned = 0;
    bool partially_reliable = false;
    std::optional<transport_counters> transport;
    // Over SCTP, what the server saw of the association's paths; unset from
    // a server that does not say (TCP, or one older than this member).
    std::optional<path_events_blob> paths;
};

std::string encode_server_account(const server_account& account);

// The account in `text`, or nothing when the text is not a JSON object.
std::optional<server_account> decode_server_account(std::string_view text);

}  // namespace sctp_perf::protocol
