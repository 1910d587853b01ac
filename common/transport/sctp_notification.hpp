// SPDX-License-Identifier: Apache-2.0
#pragma once
// The SCTP notifications this tool subscribes to (subscribe_association_events
// in transport/seqpacket_channel.hpp, subscribe_path_events in
// transport/sctp_path_events.hpp), read from the bytes recvmsg() gave with
// MSG_NOTIFICATION: which association changed, and how, or which of its
// paths did. One decoder
// for every reader (the one-to-many server, the peeled-off and the client's
// channels), so that a truncated or unknown notification is handled the
// same way everywhere; it is fuzzed (tests/fuzz/fuzz_sctp_notification.cpp).

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace sctp_perf {

enum class association_event : std::uint8_t {
    up,        // SCTP_ASSOC_CHANGE, SCTP_COMM_UP: a new association
    shutdown,  // the peer shut it down (SCTP_SHUTDOWN_EVENT, or SCTP_SHUTDOWN_COMP)
    lost,      // aborted, or the peer stopped answering (SCTP_COMM_LOST, SCTP_CANT_STR_ASSOC)
    restart,   // same addresses and ports, a new peer (SCTP_RESTART)
    other,     // anything else: of no concern to a test
};

// What a path notification says (SCTP_PEER_ADDR_CHANGE's spc_state, in its
// order), or that a message could not be delivered (SCTP_SEND_FAILED_EVENT
// and the older SCTP_SEND_FAILED). To an association these are "other":
// they say nothing of its end.
enum class sctp_path_change : std::uint8_t {
    available,           // SCTP_ADDR_AVAILABLE: reachable again, or newly usable
    unreachable,         // SCTP_ADDR_UNREACHABLE: its error count passed path-max-retrans
    removed,             // SCTP_ADDR_REMOVED
    added,               // SCTP_ADDR_ADDED
    made_primary,        // SCTP_ADDR_MADE_PRIM
    confirmed,           // SCTP_ADDR_CONFIRMED: a heartbeat answered on a new path
    potentially_failed,  // SCTP_ADDR_POTENTIALLY_FAILED (RFC 7829)
    send_failed,         // a message was given up (no address)
    unknown,             // a state this decoder does not know
};

struct sctp_path_notice {
    sctp_path_change change = sctp_path_change::unknown;
    sockaddr_storage address{};  // the peer address; ss_family 0 for send_failed
    std::int32_t error = 0;      // spc_error, or the send failure's ssf_error
};

struct association_notice {
    association_event event = association_event::other;
    std::int32_t assoc_id = 0;  // sctp_assoc_t; 0 when the notification is too short to say
    // Set for a peer address change or a send failure (event is then other).
    std::optional<sctp_path_notice> path;
};

// Decodes the first bytes of a notification (the rest of a long one, such
// as an abort's error causes or a failed message's data, is not needed).
// nullopt when fewer bytes than the notification's fixed fields came, up to
// its association id: the caller drops it.
std::optional<association_notice> decode_sctp_notification(
    std::span<const std::byte> bytes) noexcept;

// The bytes of a notification that decode_sctp_notification reads: a
// reader may drop the rest (notification_head in transport/sctp_receive.hpp).
inline constexpr std::size_t sctp_notification_head_size =
    std::max({sizeof(sctp_assoc_change), sizeof(sctp_shutdown_event), sizeof(sctp_paddr_change),
              offsetof(sctp_send_failed, ssf_data), offsetof(sctp_send_failed_event, ssf_data)});

// "available", "unreachable", ... as reports write them.
const char* name_of(sctp_path_change change) noexcept;

// A peer address change's spc_error as the text report and the server's log
// write it after the event: Linux puts there why the path's state changed
// (its sctp_sn_error_t), which is no error: " (after a heartbeat
// answered)" for 2, " (after a SACK)" for 1, nothing for 0 (the threshold
// reached, which the event says already), " (reason N)" for another.
std::string path_change_reason(std::int32_t error);

}  // namespace sctp_perf
