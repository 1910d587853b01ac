// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_receive.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "transport/kernel_timestamps.hpp"
#include "transport/sctp_path_events.hpp"

namespace sctp_perf {

namespace {

// Takes the SCTP_RCVINFO of a read, if one came.
void take_receive_info(msghdr& header, sctp_delivery* delivery, sctp_assoc_t* assoc_id) noexcept {
    for (cmsghdr* c = CMSG_FIRSTHDR(&header); c != nullptr; c = CMSG_NXTHDR(&header, c)) {
        if (c->cmsg_level == IPPROTO_SCTP && c->cmsg_type == SCTP_RCVINFO &&
            c->cmsg_len >= CMSG_LEN(sizeof(sctp_rcvinfo))) {
            sctp_rcvinfo info{};
            std::memcpy(&info, CMSG_DATA(c), sizeof info);
            if (delivery != nullptr) {
                delivery->stream = info.rcv_sid;
                delivery->unordered = (info.rcv_flags & SCTP_UNORDERED) != 0;
            }
            if (assoc_id != nullptr) {
                *assoc_id = info.rcv_assoc_id;
            }
        }
    }
}

}  // namespace

ssize_t receive_sctp(int fd, std::span<std::byte> buffer, int flags, int& msg_flags,
                     sctp_delivery* delivery, sctp_assoc_t* assoc_id, sockaddr_storage* source,
                     socklen_t* source_length, std::int64_t* arrival_ns) {
    alignas(cmsghdr)
        std::byte control[CMSG_SPACE(sizeof(sctp_rcvinfo)) + receive_stamp_control_size];
    const bool with_info = delivery != nullptr || assoc_id != nullptr;
    iovec part{buffer.data(), buffer.size()};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    if (with_info || arrival_ns != nullptr) {
        header.msg_control = control;
        header.msg_controllen = sizeof control;
    }
    if (source != nullptr) {
        header.msg_name = source;
        header.msg_namelen = sizeof *source;
    }
    const ssize_t n = ::recvmsg(fd, &header, flags);
    msg_flags = header.msg_flags;
    if (source_length != nullptr) {
        *source_length = n > 0 && source != nullptr ? header.msg_namelen : 0;
    }
    if (n > 0 && with_info) {
        take_receive_info(header, delivery, assoc_id);
    }
    if (n > 0 && arrival_ns != nullptr) {
        *arrival_ns = receive_stamp_of(header).value_or(0);
    }
    return n;
}

ssize_t receive_sctp_data(int fd, std::span<std::byte> buffer, int flags, int& msg_flags,
                          sctp_delivery* delivery, sctp_path_watch& watch, std::uint16_t* last_path,
                          std::int64_t* arrival_ns) {
    for (;;) {
        sockaddr_storage source{};
        socklen_t source_length = 0;
        const ssize_t n =
            receive_sctp(fd, buffer, flags, msg_flags, delivery, nullptr,
                         last_path != nullptr ? &source : nullptr, &source_length, arrival_ns);
        if (n <= 0 || (msg_flags & MSG_NOTIFICATION) == 0) {
            if (n > 0 && last_path != nullptr) {
                *last_path = watch.path_of(source, source_length);
            }
            return n;
        }
        // It landed in the part of the buffer not yet filled with data.
        notification_head head(buffer.first(static_cast<std::size_t>(n)));
        if ((msg_flags & MSG_EOR) == 0) {
            const ssize_t rest = head.read_rest(fd, 0);
            if (rest <= 0) {
                return rest;
            }
        }
        if (const auto notice = decode_sctp_notification(head.bytes()); notice && notice->path) {
            watch.record(*notice->path);
        }
    }
}

void notification_head::add(std::span<const std::byte> part) noexcept {
    const auto copied = std::min(part.size(), head_.size() - length_);
    std::copy_n(part.begin(), copied, head_.begin() + static_cast<std::ptrdiff_t>(length_));
    length_ += copied;
}

ssize_t notification_head::read_rest(int fd, int flags) {
    std::array<std::byte, 256> rest{};
    for (;;) {
        int msg_flags = 0;
        const ssize_t n = receive_sctp(fd, rest, flags, msg_flags);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return n;
        }
        add(std::span(rest).first(static_cast<std::size_t>(n)));
        if ((msg_flags & MSG_EOR) != 0) {
            return n;
        }
    }
}

}  // namespace sctp_perf
