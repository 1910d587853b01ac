// SPDX-License-Identifier: Apache-2.0
// The SCTP notifications a server or client reads with MSG_NOTIFICATION, as
// a hostile or broken kernel buffer would hand them over: any bytes. The
// decoder must never read past them, must decode a whole SCTP_ASSOC_CHANGE,
// SCTP_SHUTDOWN_EVENT, SCTP_PEER_ADDR_CHANGE or send failure, and must drop
// (nullopt) only what is too short to say which association it is about;
// a path's notification says nothing of the association's end. A reader keeps only the head of a
// notification (notification_head, the one every reader uses) and drops
// the rest: that head must decode as the whole notification does.
//
// The same input, cut into parts, then goes through an association_channel
// (the one-to-many server's hand-over of each association's messages): every
// byte delivered comes out once, in order, and a message's end is marked
// only where a delivered part ended one.
//
// The same bytes, taken as the control buffer of a recvmsg(), go through the
// readers of the kernel's timestamps (--timestamps): whatever lengths the
// control messages claim, neither may read past the buffer (ASan), and a
// transmit stamp is found only beside a receive stamp's form.
//
// Input: the notification's bytes. For the channel, byte 0 gives the read
// size (1..256) and each later byte cuts a part of 1..64 bytes, its low bit
// saying whether the part ends its message.

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "replay_channel.hpp"
#include "transport/association_channel.hpp"
#include "transport/kernel_timestamps.hpp"
#include "transport/sctp_notification.hpp"
#include "transport/sctp_receive.hpp"

using namespace sctp_perf;

namespace {

bool same_notice(const std::optional<association_notice>& a,
                 const std::optional<association_notice>& b) {
    if (a.has_value() != b.has_value()) {
        return false;
    }
    if (!a) {
        return true;
    }
    if (a->event != b->event || a->assoc_id != b->assoc_id ||
        a->path.has_value() != b->path.has_value()) {
        return false;
    }
    return !a->path ||
           (a->path->change == b->path->change && a->path->error == b->path->error &&
            std::memcmp(&a->path->address, &b->path->address, sizeof a->path->address) == 0);
}

// A path's notification: decoded exactly when it holds its association id
// (`needed` bytes), then as "other" to the association, with its path part.
void check_path_notice(const std::optional<association_notice>& notice, std::size_t size,
                       std::size_t needed, const char* what) {
    if (notice.has_value() != (size >= needed)) {
        fuzz::broken(
            (std::string(what) + " is decoded exactly when it holds its assoc id").c_str());
    }
    if (notice && (notice->event != association_event::other || !notice->path)) {
        fuzz::broken(
            (std::string(what) + " is a path's notice, 'other' to the association").c_str());
    }
}

void check_decoder(std::span<const std::byte> bytes) {
    const auto notice = decode_sctp_notification(bytes);
    const notification_head head(bytes);
    if (head.bytes().size() != std::min(bytes.size(), sctp_notification_head_size) ||
        !std::equal(head.bytes().begin(), head.bytes().end(), bytes.begin())) {
        fuzz::broken("a notification's head is its first bytes");
    }
    if (!same_notice(decode_sctp_notification(head.bytes()), notice)) {
        fuzz::broken("a notification's head decodes as the whole notification");
    }
    if (bytes.size() < sizeof(std::uint16_t)) {
        if (notice) {
            fuzz::broken("a notification too short for its type is dropped");
        }
        return;
    }
    std::uint16_t type = 0;
    std::memcpy(&type, bytes.data(), sizeof type);
    if (type == SCTP_ASSOC_CHANGE) {
        if (notice.has_value() !=
            (bytes.size() >= offsetof(sctp_assoc_change, sac_assoc_id) + sizeof(sctp_assoc_t))) {
            fuzz::broken("an SCTP_ASSOC_CHANGE is decoded exactly when it holds its assoc id");
        }
    } else if (type == SCTP_SHUTDOWN_EVENT) {
        if (notice.has_value() !=
            (bytes.size() >= offsetof(sctp_shutdown_event, sse_assoc_id) + sizeof(sctp_assoc_t))) {
            fuzz::broken("an SCTP_SHUTDOWN_EVENT is decoded exactly when it holds its assoc id");
        }
        if (notice && notice->event != association_event::shutdown) {
            fuzz::broken("an SCTP_SHUTDOWN_EVENT is a shutdown");
        }
    } else if (type == SCTP_PEER_ADDR_CHANGE) {
        check_path_notice(notice, bytes.size(),
                          offsetof(sctp_paddr_change, spc_assoc_id) + sizeof(sctp_assoc_t),
                          "an SCTP_PEER_ADDR_CHANGE");
        if (notice && notice->path->change == sctp_path_change::send_failed) {
            fuzz::broken("an SCTP_PEER_ADDR_CHANGE is never a send failure");
        }
    } else if (type == SCTP_SEND_FAILED_EVENT || type == SCTP_SEND_FAILED) {
        const auto needed = type == SCTP_SEND_FAILED_EVENT
                                ? offsetof(sctp_send_failed_event, ssf_assoc_id)
                                : offsetof(sctp_send_failed, ssf_assoc_id);
        check_path_notice(notice, bytes.size(), needed + sizeof(sctp_assoc_t), "a send failure");
        if (notice && notice->path->change != sctp_path_change::send_failed) {
            fuzz::broken("a send failure is decoded as one");
        }
    } else if (!notice || notice->event != association_event::other || notice->path) {
        fuzz::broken("any other notification with a type is decoded as 'other', of no path");
    }
}

void check_channel(std::span<const std::byte> input) {
    if (input.empty()) {
        return;
    }
    const std::size_t read_size = 1 + std::to_integer<std::size_t>(input[0]);
    association_channel channel(-1, 1);
    std::vector<std::byte> delivered;
    std::vector<std::size_t> ends;  // offsets in `delivered` where a message ended
    std::uint8_t next = 0;
    for (std::size_t i = 1; i < input.size(); ++i) {
        const auto cut = std::to_integer<unsigned>(input[i]);
        const std::size_t length = 1 + (cut >> 1) % 64;
        std::vector<std::byte> part(length);
        for (auto& b : part) {
            b = std::byte{next++};
        }
        const bool message_end = (cut & 1) != 0;
        channel.deliver(part, message_end, {});
        delivered.insert(delivered.end(), part.begin(), part.end());
        if (message_end) {
            ends.push_back(delivered.size());
        }
    }
    std::vector<std::byte> taken;
    std::vector<std::byte> buffer(read_size);
    for (;;) {
        const auto got = channel.receive_part(buffer, false, false);
        if (got.bytes == 0) {
            break;
        }
        if (got.bytes > read_size) {
            fuzz::broken("a read never returns more than its buffer holds");
        }
        taken.insert(taken.end(), buffer.begin(), buffer.begin() + static_cast<long>(got.bytes));
        if (got.message_end && std::find(ends.begin(), ends.end(), taken.size()) == ends.end()) {
            fuzz::broken("a message's end is marked only where a delivered part ended one");
        }
    }
    if (taken != delivered || channel.queued_bytes() != 0) {
        fuzz::broken("every delivered byte is read once, in order");
    }
}

// The input as a control buffer, in memory of exactly its size (so that
// ASan sees a read past it), aligned as the kernel's is.
void check_stamp_readers(std::span<const std::byte> input) {
    std::vector<cmsghdr> aligned(input.size() / sizeof(cmsghdr) + 1);
    auto* control = reinterpret_cast<std::byte*>(aligned.data());
    std::copy(input.begin(), input.end(), control);
    // Only the input's bytes count as the buffer: the rest of the vector is
    // beyond msg_controllen.
    msghdr header{};
    header.msg_control = input.empty() ? nullptr : control;
    header.msg_controllen = input.size();
    const auto received = receive_stamp_of(header);
    const auto sent = transmit_stamp_of(header);
    if (sent && !received) {
        fuzz::broken(
            "a transmit stamp is an SCM_TIMESTAMPING message, which is a receive stamp's form");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto input = fuzz::as_bytes(data, size);
    check_decoder(input);
    check_channel(input);
    check_stamp_readers(input);
    return 0;
}
