// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_addresses.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "transport/network_interface.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {

namespace {

socklen_t size_of_family(int family) noexcept {
    return family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
}

std::string host_of(const socket_address& address) {
    char text[INET6_ADDRSTRLEN] = "?";
    if (address.family() == AF_INET) {
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address.storage)->sin_addr,
                    text, sizeof text);
    } else if (address.family() == AF_INET6) {
        ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&address.storage)->sin6_addr,
                    text, sizeof text);
    }
    return text;
}

bool same_address(const socket_address& a, const socket_address& b) noexcept {
    return a.length == b.length && std::memcmp(&a.storage, &b.storage, a.length) == 0;
}

// Walks the packed list sctp_getladdrs / sctp_getpaddrs return.
template <typename Get, typename Free>
std::vector<std::string> read_association_addresses(int fd, sctp_assoc_t assoc_id, Get get,
                                                    Free release) {
    sockaddr* list = nullptr;
    const int count = get(fd, assoc_id, &list);
    std::vector<std::string> result;
    if (count <= 0 || list == nullptr) {
        return result;
    }
    const auto* cursor = reinterpret_cast<const std::byte*>(list);
    for (int i = 0; i < count; ++i) {
        const auto* address = reinterpret_cast<const sockaddr*>(cursor);
        const socklen_t length = size_of_family(address->sa_family);
        result.push_back(format_address(address, length));
        cursor += length;
    }
    release(list);
    return result;
}

}  // namespace

void packed_addresses::add(const socket_address& address) {
    const auto* first = reinterpret_cast<const std::byte*>(&address.storage);
    bytes_.insert(bytes_.end(), first, first + size_of_family(address.family()));
    addresses_.push_back(address);
    ++count_;
}

std::vector<std::string> packed_addresses::describe() const {
    std::vector<std::string> result;
    for (const auto& address : addresses_) {
        result.push_back(format_address(address.get(), address.length));
    }
    return result;
}

std::string packed_addresses::hosts() const {
    std::string result;
    for (const auto& address : addresses_) {
        result += (result.empty() ? "" : ",") + host_of(address);
    }
    return result;
}

bool resolved_host::has_family(int family) const noexcept {
    return std::any_of(addresses.begin(), addresses.end(),
                       [family](const socket_address& a) { return a.family() == family; });
}

socket_address any_address(int family, std::uint16_t port) {
    socket_address address;
    if (family == AF_INET6) {
        auto* v6 = reinterpret_cast<sockaddr_in6*>(&address.storage);
        v6->sin6_family = AF_INET6;
        v6->sin6_addr = in6addr_any;
        v6->sin6_port = htons(port);
        address.length = sizeof(sockaddr_in6);
    } else {
        auto* v4 = reinterpret_cast<sockaddr_in*>(&address.storage);
        v4->sin_family = AF_INET;
        v4->sin_addr.s_addr = htonl(INADDR_ANY);
        v4->sin_port = htons(port);
        address.length = sizeof(sockaddr_in);
    }
    return address;
}

std::vector<resolved_host> resolve_hosts(const std::vector<std::string>& names, std::uint16_t port,
                                         bool passive) {
    std::vector<resolved_host> result;
    const std::string service = std::to_string(port);
    for (const auto& name : names) {
        if (passive) {
            if (auto device = find_interface(name, port)) {
                result.push_back({name, std::move(device->addresses), true});
                continue;
            }
        }
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        // One entry per address: any stream type will do, the protocol is
        // chosen when the socket is opened.
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
        addrinfo* found = nullptr;
        // "[::1]" is how an IPv6 literal is written next to a port; the
        // resolver wants it bare. Errors name the host as it was given.
        const int rc =
            ::getaddrinfo(unbracketed_host(name).c_str(), service.c_str(), &hints, &found);
        if (rc != 0) {
            throw resolve_error("cannot resolve '" + name + "': " +
                                (rc == EAI_SYSTEM ? std::strerror(errno) : ::gai_strerror(rc)));
        }
        resolved_host host{name, {}};
        for (const addrinfo* entry = found; entry != nullptr; entry = entry->ai_next) {
            if ((entry->ai_family != AF_INET && entry->ai_family != AF_INET6) ||
                entry->ai_addrlen > sizeof(sockaddr_storage)) {
                continue;
            }
            socket_address address;
            std::memcpy(&address.storage, entry->ai_addr, entry->ai_addrlen);
            address.length = size_of_family(entry->ai_family);
            const bool seen =
                std::any_of(host.addresses.begin(), host.addresses.end(),
                            [&](const socket_address& a) { return same_address(a, address); });
            if (!seen) {
                host.addresses.push_back(address);
            }
        }
        ::freeaddrinfo(found);
        if (host.addresses.empty()) {
            throw resolve_error("cannot resolve '" + name + "': no IPv4 or IPv6 address");
        }
        result.push_back(std::move(host));
    }
    return result;
}

std::vector<std::string> association_local_addresses(int fd, sctp_assoc_t assoc_id) {
    return read_association_addresses(fd, assoc_id, ::sctp_getladdrs, ::sctp_freeladdrs);
}

std::vector<std::string> association_peer_addresses(int fd, sctp_assoc_t assoc_id) {
    return read_association_addresses(fd, assoc_id, ::sctp_getpaddrs, ::sctp_freepaddrs);
}

}  // namespace sctp_perf
