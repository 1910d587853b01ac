// SPDX-License-Identifier: Apache-2.0
#pragma once
// How one SCTP message travels: its stream, whether it may be delivered out
// of order, and its PR-SCTP policy. The default (stream 0, ordered, fully
// reliable) is what a plain send() gives, and takes the plain path.

#include <netinet/in.h>
#include <netinet/sctp.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "transport/sctp_features.hpp"

namespace sctp_perf {

struct sctp_delivery {
    std::uint16_t stream = 0;
    bool unordered = false;
    pr_sctp pr;
    bool is_default() const noexcept { return stream == 0 && !unordered && !pr.any(); }
    friend bool operator==(const sctp_delivery&, const sctp_delivery&) = default;
};

// The ancillary data that says how one message travels: SCTP_SNDINFO and,
// with a PR-SCTP policy, SCTP_PRINFO, as sctp_sendv() would build them.
struct delivery_control {
    alignas(cmsghdr)
        std::byte bytes[CMSG_SPACE(sizeof(sctp_sndinfo)) + CMSG_SPACE(sizeof(sctp_prinfo))];
};

// Fills `control` for `delivery` on association `assoc_id` (0 on a socket
// that holds one association) and points `header`'s control at it.
void attach_delivery(msghdr& header, delivery_control& control, const sctp_delivery& delivery,
                     sctp_assoc_t assoc_id);

// One sendmsg() of `message` as one SCTP message carrying `delivery`
// (SCTP_SNDINFO and, with a policy, SCTP_PRINFO), on association
// `assoc_id` of a one-to-many socket (0 on a socket that holds one
// association), with `flags` (MSG_DONTWAIT) and MSG_NOSIGNAL. Returns what
// sendmsg() returned; errno as it left it.
ssize_t send_with_delivery(int fd, std::span<const std::byte> message,
                           const sctp_delivery& delivery, int flags, sctp_assoc_t assoc_id = 0);

// Asks the kernel to say, with every message received on `fd`, which stream
// it came on and whether it was unordered (SCTP_RECVRCVINFO; receive_sctp in
// transport/sctp_receive.hpp reads it). Throws std::system_error.
void enable_receive_info(int fd);

}  // namespace sctp_perf
