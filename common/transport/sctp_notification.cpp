// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_notification.hpp"

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <cstring>

namespace sctp_perf {
namespace {

// Reads a field of a notification's struct from its offset, without
// assuming the bytes are aligned for it.
template <typename T>
std::optional<T> field_at(std::span<const std::byte> bytes, std::size_t offset) noexcept {
    if (bytes.size() < offset + sizeof(T)) {
        return std::nullopt;
    }
    T value{};
    std::memcpy(&value, bytes.data() + offset, sizeof value);
    return value;
}

association_event event_of_assoc_change(std::uint16_t state) noexcept {
    switch (state) {
        case SCTP_COMM_UP:
            return association_event::up;
        case SCTP_SHUTDOWN_COMP:
            return association_event::shutdown;
        case SCTP_COMM_LOST:
        case SCTP_CANT_STR_ASSOC:
            return association_event::lost;
        case SCTP_RESTART:
            return association_event::restart;
        default:
            return association_event::other;
    }
}

}  // namespace

std::optional<association_notice> decode_sctp_notification(
    std::span<const std::byte> bytes) noexcept {
    const auto type =
        field_at<std::uint16_t>(bytes, offsetof(union sctp_notification, sn_header.sn_type));
    if (!type) {
        return std::nullopt;
    }
    association_notice decoded;
    if (*type == SCTP_ASSOC_CHANGE) {
        const auto state = field_at<std::uint16_t>(bytes, offsetof(sctp_assoc_change, sac_state));
        const auto id = field_at<sctp_assoc_t>(bytes, offsetof(sctp_assoc_change, sac_assoc_id));
        if (!state || !id) {
            return std::nullopt;
        }
        decoded.event = event_of_assoc_change(*state);
        decoded.assoc_id = *id;
    } else if (*type == SCTP_SHUTDOWN_EVENT) {
        const auto id = field_at<sctp_assoc_t>(bytes, offsetof(sctp_shutdown_event, sse_assoc_id));
        if (!id) {
            return std::nullopt;
        }
        decoded.event = association_event::shutdown;
        decoded.assoc_id = *id;
    }
    return decoded;
}

}  // namespace sctp_perf
