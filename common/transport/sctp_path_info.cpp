// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_path_info.hpp"

#include <netinet/in.h>
#include <netinet/sctp.h>
#include <sys/socket.h>

#include <cstring>

#include "transport/socket_setup.hpp"

namespace sctp_perf {
namespace {

const char* state_name(std::int32_t state) {
    switch (state) {
        case SCTP_ACTIVE:
            return "active";
        case SCTP_PF:
            return "potentially_failed";
        case SCTP_INACTIVE:
            return "inactive";
        case SCTP_UNCONFIRMED:
            return "unconfirmed";
        default:
            return "unknown";
    }
}

socklen_t length_of(const sockaddr* address) {
    return address->sa_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
}

}  // namespace

association_paths read_association_paths(int fd, std::int32_t assoc_id) {
    association_paths result;
    sctp_status status{};
    status.sstat_assoc_id = assoc_id;
    socklen_t status_length = sizeof status;
    if (::getsockopt(fd, IPPROTO_SCTP, SCTP_STATUS, &status, &status_length) == 0 &&
        status.sstat_primary.spinfo_address.ss_family != 0) {
        const auto* primary =
            reinterpret_cast<const sockaddr*>(&status.sstat_primary.spinfo_address);
        result.primary = format_address(primary, length_of(primary));
    }
    sockaddr* addresses = nullptr;
    const int count = ::sctp_getpaddrs(fd, assoc_id, &addresses);
    if (count <= 0) {
        return result;
    }
    // Packed back to back, each at its own family's size.
    const auto* at = reinterpret_cast<const std::byte*>(addresses);
    for (int i = 0; i < count; ++i) {
        const auto* address = reinterpret_cast<const sockaddr*>(at);
        const socklen_t length = length_of(address);
        peer_path_info path;
        path.address = format_address(address, length);
        sctp_paddrinfo info{};
        info.spinfo_assoc_id = assoc_id;
        std::memcpy(&info.spinfo_address, address, length);
        socklen_t info_length = sizeof info;
        if (::getsockopt(fd, IPPROTO_SCTP, SCTP_GET_PEER_ADDR_INFO, &info, &info_length) == 0) {
            path.state = state_name(info.spinfo_state);
            path.srtt_ms = info.spinfo_srtt;
            path.rto_ms = info.spinfo_rto;
            path.cwnd_bytes = info.spinfo_cwnd;
            path.mtu_bytes = info.spinfo_mtu;
        } else {
            path.state = "unknown";
        }
        result.paths.push_back(std::move(path));
        at += length;
    }
    ::sctp_freepaddrs(addresses);
    return result;
}

}  // namespace sctp_perf
