// SPDX-License-Identifier: Apache-2.0
#include "transport/network_interface.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace sctp_perf {
namespace {

// getifaddrs' list, freed on every path.
class interface_list {
  public:
    interface_list() {
        if (::getifaddrs(&head_) != 0) {
            throw std::system_error(errno, std::generic_category(),
                                    "cannot list the network interfaces (getifaddrs)");
        }
    }
    ~interface_list() { ::freeifaddrs(head_); }
    interface_list(const interface_list&) = delete;
    interface_list& operator=(const interface_list&) = delete;
    const ifaddrs* head() const noexcept { return head_; }

  private:
    ifaddrs* head_ = nullptr;
};

// The order addresses are offered in: IPv4, global IPv6, link-local IPv6.
int rank_of(const socket_address& address) {
    if (address.family() == AF_INET) {
        return 0;
    }
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&address.storage);
    return IN6_IS_ADDR_LINKLOCAL(&v6->sin6_addr) ? 2 : 1;
}

socket_address with_port(const sockaddr* entry, std::uint16_t port) {
    socket_address address;
    if (entry->sa_family == AF_INET) {
        address.length = sizeof(sockaddr_in);
        std::memcpy(&address.storage, entry, address.length);
        reinterpret_cast<sockaddr_in*>(&address.storage)->sin_port = htons(port);
    } else {
        address.length = sizeof(sockaddr_in6);
        std::memcpy(&address.storage, entry, address.length);
        reinterpret_cast<sockaddr_in6*>(&address.storage)->sin6_port = htons(port);
    }
    return address;
}

std::string host_of(const socket_address& address) {
    char text[INET6_ADDRSTRLEN] = "?";
    if (address.family() == AF_INET) {
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address.storage)->sin_addr,
                    text, sizeof text);
    } else {
        ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&address.storage)->sin6_addr,
                    text, sizeof text);
    }
    return text;
}

}  // namespace

std::vector<socket_address> interface_addresses::of_family(int family) const {
    std::vector<socket_address> chosen;
    std::copy_if(addresses.begin(), addresses.end(), std::back_inserter(chosen),
                 [family](const socket_address& a) { return a.family() == family; });
    return chosen;
}

std::vector<std::string> interface_addresses::host_list() const {
    std::vector<std::string> list;
    for (const auto& address : addresses) {
        list.push_back(host_of(address));
    }
    return list;
}

std::string interface_addresses::hosts() const {
    std::string text;
    for (const auto& host : host_list()) {
        text += (text.empty() ? "" : ", ") + host;
    }
    return text;
}

bool is_interface_name(std::string_view name) {
    if (name.empty() || name.size() > max_interface_name) {
        return false;
    }
    return ::if_nametoindex(std::string(name).c_str()) != 0;
}

std::optional<interface_addresses> find_interface(std::string_view name, std::uint16_t port) {
    if (!is_interface_name(name)) {
        return std::nullopt;
    }
    interface_addresses found;
    found.name = std::string(name);
    const interface_list list;
    for (const ifaddrs* entry = list.head(); entry != nullptr; entry = entry->ifa_next) {
        if (entry->ifa_addr == nullptr || found.name != entry->ifa_name) {
            continue;
        }
        const int family = entry->ifa_addr->sa_family;
        if (family == AF_INET || family == AF_INET6) {
            found.addresses.push_back(with_port(entry->ifa_addr, port));
        }
    }
    std::stable_sort(
        found.addresses.begin(), found.addresses.end(),
        [](const socket_address& a, const socket_address& b) { return rank_of(a) < rank_of(b); });
    return found;
}

}  // namespace sctp_perf
