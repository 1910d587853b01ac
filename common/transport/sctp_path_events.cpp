// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_path_events.hpp"

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "transport/sctp_path_settings.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {
namespace {

std::int64_t now_ns(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

std::int64_t now_ns(std::chrono::system_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

void sctp_path_watch::record(const sctp_path_notice& notice) {
    const auto monotonic = now_ns(std::chrono::steady_clock::now());
    const auto realtime = now_ns(std::chrono::system_clock::now());
    const std::lock_guard lock(mutex_);
    if (notice.change == sctp_path_change::send_failed) {
        ++sends_failed_;
        last_send_error_ = notice.error;
        return;
    }
    if (events_.size() >= max_events) {
        ++dropped_;
        return;
    }
    sctp_path_event event;
    event.monotonic_ns = monotonic;
    event.realtime_ns = realtime;
    event.change = notice.change;
    event.error = notice.error;
    if (notice.address.ss_family == AF_INET || notice.address.ss_family == AF_INET6) {
        event.address = format_address(reinterpret_cast<const sockaddr*>(&notice.address),
                                       sizeof notice.address);
    }
    events_.push_back(std::move(event));
}

std::vector<sctp_path_event> sctp_path_watch::events() const {
    const std::lock_guard lock(mutex_);
    return events_;
}

std::uint64_t sctp_path_watch::events_dropped() const {
    const std::lock_guard lock(mutex_);
    return dropped_;
}

std::uint64_t sctp_path_watch::sends_failed() const {
    const std::lock_guard lock(mutex_);
    return sends_failed_;
}

std::int32_t sctp_path_watch::last_send_error() const {
    const std::lock_guard lock(mutex_);
    return last_send_error_;
}

sctp_path_watch::address_key sctp_path_watch::key_of(const sockaddr_storage& source,
                                                     socklen_t length) noexcept {
    address_key key{};
    if (source.ss_family == AF_INET && length >= static_cast<socklen_t>(sizeof(sockaddr_in))) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(source);
        key[0] = 4;
        std::memcpy(&key[2], &v4.sin_port, sizeof v4.sin_port);
        std::memcpy(&key[4], &v4.sin_addr, sizeof v4.sin_addr);
    } else if (source.ss_family == AF_INET6 &&
               length >= static_cast<socklen_t>(sizeof(sockaddr_in6))) {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(source);
        std::memcpy(&key[2], &v6.sin6_port, sizeof v6.sin6_port);
        if (IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr)) {
            key[0] = 4;
            std::memcpy(&key[4], &v6.sin6_addr.s6_addr[12], 4);
        } else {
            key[0] = 6;
            std::memcpy(&key[4], &v6.sin6_addr, sizeof v6.sin6_addr);
        }
    }
    return key;
}

std::uint16_t sctp_path_watch::path_of(const sockaddr_storage& source, socklen_t length) {
    const auto key = key_of(source, length);
    if (key[0] == 0) {
        return 0;
    }
    if (last_path_ != 0 && key == last_key_) {
        return last_path_;
    }
    const std::lock_guard lock(mutex_);
    const auto found = std::find(keys_.begin(), keys_.end(), key);
    std::uint16_t path = 0;
    if (found != keys_.end()) {
        path = static_cast<std::uint16_t>(found - keys_.begin() + 1);
    } else if (keys_.size() < max_paths) {
        keys_.push_back(key);
        addresses_.push_back(format_address(reinterpret_cast<const sockaddr*>(&source), length));
        path = static_cast<std::uint16_t>(keys_.size());
    }
    last_key_ = key;
    last_path_ = path;
    return path;
}

std::vector<std::string> sctp_path_watch::path_addresses() const {
    const std::lock_guard lock(mutex_);
    return addresses_;
}

bool subscribe_event_types(int fd, std::int32_t assoc_id,
                           std::initializer_list<std::uint16_t> types, const char* what) {
    for (const auto type : types) {
        sctp_event event{};
        event.se_assoc_id = assoc_id;
        event.se_type = type;
        event.se_on = 1;
        if (::setsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &event, sizeof event) == 0) {
            continue;
        }
        if (errno != ENOPROTOOPT && errno != EINVAL) {
            throw std::system_error(errno, std::generic_category(),
                                    std::string("cannot subscribe to ") + what);
        }
        return false;
    }
    return true;
}

void subscribe_path_events(int fd, std::int32_t assoc_id) {
    if (!subscribe_event_types(fd, assoc_id, {SCTP_PEER_ADDR_CHANGE, SCTP_SEND_FAILED_EVENT},
                               "SCTP path events")) {
        // Kernels before 5.0 know only the older all-in-one option: what is
        // on already (association events, say) stays on.
        sctp_event_subscribe events{};
        socklen_t length = sizeof events;
        if (::getsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &events, &length) != 0) {
            throw std::system_error(errno, std::generic_category(),
                                    "cannot read the SCTP events subscribed to");
        }
        events.sctp_address_event = 1;
        events.sctp_send_failure_event = 1;
        if (::setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &events, length) != 0) {
            throw std::system_error(errno, std::generic_category(),
                                    "cannot subscribe to SCTP path events");
        }
    }
    // Without it Linux keeps the potentially-failed state to itself (net.sctp.
    // pf_expose 0 or 1); a kernel that lacks the option never tells of it.
    sctp_assoc_value expose{};
    expose.assoc_id = assoc_id;
    expose.assoc_value = sctp_pf_expose_enable;
    ::setsockopt(fd, IPPROTO_SCTP, SCTP_EXPOSE_POTENTIALLY_FAILED_STATE, &expose, sizeof expose);
}

}  // namespace sctp_perf
