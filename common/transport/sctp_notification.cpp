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

sctp_path_change path_change_of(std::int32_t state) noexcept {
    switch (state) {
        case SCTP_ADDR_AVAILABLE:
            return sctp_path_change::available;
        case SCTP_ADDR_UNREACHABLE:
            return sctp_path_change::unreachable;
        case SCTP_ADDR_REMOVED:
            return sctp_path_change::removed;
        case SCTP_ADDR_ADDED:
            return sctp_path_change::added;
        case SCTP_ADDR_MADE_PRIM:
            return sctp_path_change::made_primary;
        case SCTP_ADDR_CONFIRMED:
            return sctp_path_change::confirmed;
        case SCTP_ADDR_POTENTIALLY_FAILED:
            return sctp_path_change::potentially_failed;
        default:
            return sctp_path_change::unknown;
    }
}

// SCTP_PEER_ADDR_CHANGE: the address, its new state and the error, up to
// the association id that ends the struct.
std::optional<association_notice> decode_path_change(std::span<const std::byte> bytes) noexcept {
    const auto id = field_at<sctp_assoc_t>(bytes, offsetof(sctp_paddr_change, spc_assoc_id));
    if (!id) {
        return std::nullopt;
    }
    sctp_path_notice path;
    std::memcpy(&path.address, bytes.data() + offsetof(sctp_paddr_change, spc_aaddr),
                sizeof path.address);
    path.change =
        path_change_of(*field_at<std::int32_t>(bytes, offsetof(sctp_paddr_change, spc_state)));
    path.error = *field_at<std::int32_t>(bytes, offsetof(sctp_paddr_change, spc_error));
    return association_notice{association_event::other, *id, path};
}

// SCTP_SEND_FAILED_EVENT, or SCTP_SEND_FAILED from a kernel that only has
// the older one: the error, up to the association id after the send info.
template <typename Event>
std::optional<association_notice> decode_send_failed(std::span<const std::byte> bytes) noexcept {
    const auto id = field_at<sctp_assoc_t>(bytes, offsetof(Event, ssf_assoc_id));
    if (!id) {
        return std::nullopt;
    }
    sctp_path_notice path;
    path.change = sctp_path_change::send_failed;
    path.error =
        static_cast<std::int32_t>(*field_at<std::uint32_t>(bytes, offsetof(Event, ssf_error)));
    return association_notice{association_event::other, *id, path};
}

}  // namespace

const char* name_of(sctp_path_change change) noexcept {
    switch (change) {
        case sctp_path_change::available:
            return "available";
        case sctp_path_change::unreachable:
            return "unreachable";
        case sctp_path_change::removed:
            return "removed";
        case sctp_path_change::added:
            return "added";
        case sctp_path_change::made_primary:
            return "made_primary";
        case sctp_path_change::confirmed:
            return "confirmed";
        case sctp_path_change::potentially_failed:
            return "potentially_failed";
        case sctp_path_change::send_failed:
            return "send_failed";
        case sctp_path_change::unknown:
            break;
    }
    return "unknown";
}

std::string path_change_reason(std::int32_t error) {
    // Linux's sctp_sn_error_t (include/net/sctp/constants.h), which the
    // user-space header does not carry.
    switch (error) {
        case 0:  // SCTP_FAILED_THRESHOLD
            return "";
        case 1:  // SCTP_RECEIVED_SACK
            return " (after a SACK)";
        case 2:  // SCTP_HEARTBEAT_SUCCESS
            return " (after a heartbeat answered)";
        case 3:  // SCTP_RESPONSE_TO_USER_REQ
            return " (asked by the user)";
        default:
            return " (reason " + std::to_string(error) + ")";
    }
}

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
    } else if (*type == SCTP_PEER_ADDR_CHANGE) {
        return decode_path_change(bytes);
    } else if (*type == SCTP_SEND_FAILED_EVENT) {
        return decode_send_failed<sctp_send_failed_event>(bytes);
    } else if (*type == SCTP_SEND_FAILED) {
        return decode_send_failed<sctp_send_failed>(bytes);
    }
    return decoded;
}

}  // namespace sctp_perf
