// SPDX-License-Identifier: Apache-2.0
#pragma once
// Network interfaces named on the command line: -i and -a take an interface
// name where they take an address (Perftest's -nic, ConsPerf's -if), and
// --bind-device ties every socket to one (SO_BINDTODEVICE).
//
// An entry of -i or -a that names an interface of this host is that
// interface, whatever a resolver would make of the same word; any other
// entry is a host name or an address literal, as before.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/socket_address.hpp"

namespace sctp_perf {

// An interface and its IP addresses, read with getifaddrs: IPv4 first,
// then IPv6 with global addresses before link-local ones (which carry the
// interface as their scope), each in the kernel's order.
struct interface_addresses {
    std::string name;
    std::vector<socket_address> addresses;  // with the port asked for

    // The addresses of `family` (AF_INET or AF_INET6), in order.
    std::vector<socket_address> of_family(int family) const;
    // The hosts without ports, in order: {"127.0.0.1", "::1"}.
    std::vector<std::string> host_list() const;
    // The same joined: "127.0.0.1, ::1", for reports and errors.
    std::string hosts() const;
};

// Whether `name` names a network interface of this host (if_nametoindex).
bool is_interface_name(std::string_view name);

// The addresses of interface `name`, each with `port`; nullopt when no
// interface has that name. An interface without any address gives an
// empty list.
std::optional<interface_addresses> find_interface(std::string_view name, std::uint16_t port);

// The longest interface name the kernel takes (IFNAMSIZ less its NUL).
inline constexpr std::size_t max_interface_name = 15;

}  // namespace sctp_perf
