// SPDX-License-Identifier: Apache-2.0
#pragma once
// The SCTP notifications this tool subscribes to (subscribe_association_events
// in transport/seqpacket_channel.hpp), read from the bytes recvmsg() gave
// with MSG_NOTIFICATION: which association changed, and how. One decoder
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

namespace sctp_perf {

enum class association_event : std::uint8_t {
    up,        // SCTP_ASSOC_CHANGE, SCTP_COMM_UP: a new association
    shutdown,  // the peer shut it down (SCTP_SHUTDOWN_EVENT, or SCTP_SHUTDOWN_COMP)
    lost,      // aborted, or the peer stopped answering (SCTP_COMM_LOST, SCTP_CANT_STR_ASSOC)
    restart,   // same addresses and ports, a new peer (SCTP_RESTART)
    other,     // anything else: of no concern to a test
};

struct association_notice {
    association_event event = association_event::other;
    std::int32_t assoc_id = 0;  // sctp_assoc_t; 0 when the notification is too short to say
};

// Decodes the first bytes of a notification (the rest of a long one, such
// as an abort's error causes, is not needed). nullopt when fewer bytes than
// the notification's fixed header came: the caller drops it.
std::optional<association_notice> decode_sctp_notification(
    std::span<const std::byte> bytes) noexcept;

// The bytes of a notification that decode_sctp_notification reads: a
// reader may drop the rest (notification_head in transport/sctp_receive.hpp).
inline constexpr std::size_t sctp_notification_head_size =
    std::max(sizeof(sctp_assoc_change), sizeof(sctp_shutdown_event));

}  // namespace sctp_perf
