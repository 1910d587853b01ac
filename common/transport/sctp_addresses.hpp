// SPDX-License-Identifier: Apache-2.0
#pragma once
// Address lists for multi-homed SCTP: resolving comma-separated host lists,
// packing them the way sctp_bindx and sctp_connectx take them, and reading
// back which addresses an association really uses.
//
// A multi-homed association has several addresses on each end. The programs
// name them as lists (-a, -H, -i); the kernel wants them packed back to back,
// each sockaddr_in or sockaddr_in6 at its own size, all on one socket family.

#include <netinet/in.h>
#include <netinet/sctp.h>
#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors.hpp"
#include "transport/socket_address.hpp"

namespace sctp_perf {

// Addresses packed back to back, as sctp_bindx and sctp_connectx read them.
class packed_addresses {
  public:
    void add(const socket_address& address);
    bool empty() const noexcept { return count_ == 0; }
    int count() const noexcept { return count_; }
    // Non-const: the lksctp calls take a non-const pointer though they only read.
    sockaddr* data() noexcept { return reinterpret_cast<sockaddr*>(bytes_.data()); }
    // "10.0.0.1:45453" for each address, in order.
    std::vector<std::string> describe() const;
    // Hosts only, without ports, joined by commas: for log lines and errors.
    std::string hosts() const;
    const std::vector<socket_address>& addresses() const noexcept { return addresses_; }

  private:
    std::vector<std::byte> bytes_;
    std::vector<socket_address> addresses_;
    int count_ = 0;
};

// A name from a list, with what it resolved to (IPv4 and IPv6, in resolver order).
struct resolved_host {
    std::string name;
    std::vector<socket_address> addresses;
    bool interface = false;  // `name` is a network interface: these are its addresses

    bool has_family(int family) const noexcept;
};

// The wildcard address of `family` ("any interface") with `port`.
socket_address any_address(int family, std::uint16_t port);

// Resolves every name (a host name, an IPv4 literal or an IPv6 literal with or
// without brackets: "::1", "[::1]") with `port` set
// in each address. `passive` asks for addresses to bind rather than to reach,
// and then a name may also be a network interface, which stands for every
// address it has (network_interface.hpp; none when it has none).
// Throws resolve_error for the first name that does not resolve.
std::vector<resolved_host> resolve_hosts(const std::vector<std::string>& names, std::uint16_t port,
                                         bool passive);

// Every address of an association, from sctp_getladdrs / sctp_getpaddrs, as
// "host:port" strings. `fd` is a socket holding the association `assoc_id`.
// Empty when the kernel cannot say (the association is already gone).
std::vector<std::string> association_local_addresses(int fd, sctp_assoc_t assoc_id);
std::vector<std::string> association_peer_addresses(int fd, sctp_assoc_t assoc_id);

}  // namespace sctp_perf
