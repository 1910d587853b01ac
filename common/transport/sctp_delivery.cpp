// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_delivery.hpp"

#include <netinet/in.h>
#include <netinet/sctp.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace sctp_perf {

void attach_delivery(msghdr& header, delivery_control& control, const sctp_delivery& delivery,
                     sctp_assoc_t assoc_id) {
    std::memset(control.bytes, 0, sizeof control.bytes);
    header.msg_control = control.bytes;
    header.msg_controllen =
        delivery.pr.any() ? sizeof control.bytes : CMSG_SPACE(sizeof(sctp_sndinfo));

    sctp_sndinfo info{};
    info.snd_sid = delivery.stream;
    info.snd_flags = delivery.unordered ? SCTP_UNORDERED : 0;
    info.snd_assoc_id = assoc_id;
    cmsghdr* c = CMSG_FIRSTHDR(&header);
    c->cmsg_level = IPPROTO_SCTP;
    c->cmsg_type = SCTP_SNDINFO;
    c->cmsg_len = CMSG_LEN(sizeof info);
    std::memcpy(CMSG_DATA(c), &info, sizeof info);
    if (delivery.pr.any()) {
        sctp_prinfo policy{};
        policy.pr_policy =
            delivery.pr.policy == pr_sctp_policy::ttl ? SCTP_PR_SCTP_TTL : SCTP_PR_SCTP_RTX;
        policy.pr_value = delivery.pr.value;
        c = CMSG_NXTHDR(&header, c);
        c->cmsg_level = IPPROTO_SCTP;
        c->cmsg_type = SCTP_PRINFO;
        c->cmsg_len = CMSG_LEN(sizeof policy);
        std::memcpy(CMSG_DATA(c), &policy, sizeof policy);
    }
}

ssize_t send_with_delivery(int fd, std::span<const std::byte> message,
                           const sctp_delivery& delivery, int flags, sctp_assoc_t assoc_id) {
    // The SCTP_SNDINFO and SCTP_PRINFO that sctp_sendv() would build, built
    // here: lksctp-tools' sctp_sendv() (1.0.19) passes 0 to sendmsg() and
    // keeps `flags` only in msg_flags, which sendmsg() ignores. MSG_DONTWAIT
    // was lost with it, so a full send buffer made a "non-blocking" send
    // wait out SO_SNDTIMEO, and MSG_NOSIGNAL too, so a send to an
    // association that had just gone would raise SIGPIPE.
    delivery_control control;
    iovec part{const_cast<std::byte*>(message.data()), message.size()};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    attach_delivery(header, control, delivery, assoc_id);
    return ::sendmsg(fd, &header, flags | MSG_NOSIGNAL);
}

void enable_receive_info(int fd) {
    const int on = 1;
    if (::setsockopt(fd, IPPROTO_SCTP, SCTP_RECVRCVINFO, &on, sizeof on) != 0) {
        throw std::system_error(errno, std::generic_category(), "cannot set SCTP_RECVRCVINFO");
    }
}

}  // namespace sctp_perf
