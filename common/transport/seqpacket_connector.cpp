// SPDX-License-Identifier: Apache-2.0
#include "transport/seqpacket_connector.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <netinet/in.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>

#include "transport/sctp_addresses.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_notification.hpp"
#include "transport/seqpacket_channel.hpp"
#include "transport/socket_device.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {

namespace {

const char* family_name(int family) {
    return family == AF_INET6 ? "IPv6" : "IPv4";
}

// The addresses of `host` to use on a socket of `family`: an IPv6 socket
// takes IPv4 addresses as well, so a host with no IPv6 address joins with
// its IPv4 ones.
std::vector<socket_address> addresses_for(const resolved_host& host, int family) {
    std::vector<socket_address> chosen;
    for (const auto& address : host.addresses) {
        if (address.family() == family) {
            chosen.push_back(address);
        }
    }
    if (chosen.empty() && family == AF_INET6) {
        chosen = host.addresses;
    }
    return chosen;
}

// The route for `family`; its `unusable` says why there is none.
seqpacket_route route_for(int family, const std::vector<resolved_host>& servers,
                          const std::vector<resolved_host>& clients, std::uint16_t client_port) {
    seqpacket_route route;
    route.family = family;
    for (const auto& host : servers) {
        const auto addresses = addresses_for(host, family);
        if (addresses.empty()) {
            route.unusable = fmt::format("'{}' has no {} address", host.name, family_name(family));
            return route;
        }
        for (const auto& address : addresses) {
            route.peers.add(address);
        }
    }
    for (const auto& host : clients) {
        const auto addresses = addresses_for(host, family);
        if (addresses.empty()) {
            route.unusable = fmt::format("client address '{}' has no {} form to reach the server",
                                         host.name, family_name(family));
            return route;
        }
        for (const auto& address : addresses) {
            route.locals.add(address);
        }
    }
    if (clients.empty() && client_port != 0) {
        route.locals.add(any_address(family, client_port));
    }
    return route;
}

// A socket for `route`, with the request's options set and its local
// addresses bound, not yet connecting.
unique_fd open_seqpacket_socket(const seqpacket_route& route,
                                const seqpacket_connect_request& request) {
    unique_fd fd = open_socket(route.family, SOCK_SEQPACKET, transport_protocol::sctp);
    if (route.family == AF_INET6) {
        // IPv4 addresses may be part of the same association.
        set_int_option(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, 0, "IPV6_V6ONLY off");
    }
    subscribe_association_events(fd.get());
    if (!request.bind_device.empty()) {
        bind_to_device(fd.get(), request.bind_device);
    }
    if (request.max_seg_bytes) {  // before connecting: each association takes it at its start
        apply_max_segment(fd.get(), transport_protocol::sctp, *request.max_seg_bytes);
    }
    apply_sctp_rto(fd.get(), request.sctp_rto);
    apply_sctp_features(fd.get(), request.sctp_features);
    apply_sctp_path_settings(fd.get(), request.sctp_paths);
    set_nagle(fd.get(), transport_protocol::sctp, request.nagle);
    // SO_SNDTIMEO also bounds a blocking sctp_connectx: the kernel would
    // otherwise retry INIT for minutes when nothing answers.
    set_io_timeout(fd.get(), request.timeout);

    if (!route.locals.empty()) {
        set_int_option(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
        // One address at a time, so that a failure names the address.
        for (const auto& address : route.locals.addresses()) {
            socket_address one = address;
            if (::sctp_bindx(fd.get(), reinterpret_cast<sockaddr*>(&one.storage), 1,
                             SCTP_BINDX_ADD_ADDR) != 0) {
                throw connect_error(
                    fmt::format("cannot bind the client to {} ({})",
                                format_address(one.get(), one.length), std::strerror(errno)),
                    false);
            }
        }
    }
    return fd;
}

struct attempt_outcome {
    std::optional<seqpacket_association> association;
    std::string reason;
    bool refused = false;
};

attempt_outcome try_route(seqpacket_route route, const seqpacket_connect_request& request) {
    unique_fd fd = open_seqpacket_socket(route, request);
    attempt_outcome outcome;
    sctp_assoc_t id = 0;
    if (::sctp_connectx(fd.get(), route.peers.data(), route.peers.count(), &id) != 0) {
        const int error = errno;
        if (error == EINPROGRESS || error == ETIMEDOUT || error == EAGAIN) {
            // Closing the socket below gives up the half-open association.
            outcome.reason = no_answer_reason(request.timeout);
        } else {
            outcome.refused = error == ECONNREFUSED;
            outcome.reason = std::strerror(error);
        }
        return outcome;
    }
    // A socket of its own for the association: sends need not name it, and
    // the data path is the same as on the server's peeled-off sockets.
    outcome.association = seqpacket_association{peel_off_association(fd.get(), id), id};
    return outcome;
}

// An interface among the local addresses with no address in any family
// the server has is the command line's mistake, not the network's.
void check_interfaces_reach(const std::vector<seqpacket_route>& routes,
                            const std::vector<resolved_host>& clients) {
    const bool none_usable = std::all_of(
        routes.begin(), routes.end(), [](const seqpacket_route& r) { return !r.unusable.empty(); });
    const bool interface = std::any_of(clients.begin(), clients.end(),
                                       [](const resolved_host& h) { return h.interface; });
    if (none_usable && interface && !routes.empty()) {
        throw usage_error(fmt::format(
            "-i/--client-connect-addr: {}; give the interface an address of the server's "
            "family (ip address add ADDRESS dev IFACE) or reach the server by an address of "
            "the interface's family",
            routes.front().unusable));
    }
}

}  // namespace

std::vector<seqpacket_route> resolve_seqpacket_routes(const seqpacket_connect_request& request) {
    std::vector<resolved_host> servers;
    std::vector<resolved_host> clients;
    try {
        servers = resolve_hosts(request.server_hosts, request.server_port, false);
    } catch (const resolve_error& e) {
        throw connect_error(e.what(), false);
    }
    try {
        clients = resolve_hosts(request.client_addresses, request.client_port, true);
    } catch (const resolve_error& e) {
        throw usage_error(fmt::format(
            "-i/--client-connect-addr: {}, and no network interface has that name ('ip -brief "
            "address' lists them)",
            e.what()));
    }
    if (servers.empty()) {
        throw connect_error("no server address given", false);
    }

    // The resolver's preference decides which family goes first.
    const int preferred = servers.front().addresses.front().family();
    const std::array<int, 2> families{preferred, preferred == AF_INET6 ? AF_INET : AF_INET6};
    const bool ipv6 = ipv6_sockets_work(SOCK_SEQPACKET, transport_protocol::sctp);
    std::vector<seqpacket_route> routes;
    for (const int family : families) {
        if (family == AF_INET6) {
            bool any_v6 = false;
            for (const auto& host : servers) {
                any_v6 = any_v6 || host.has_family(AF_INET6);
            }
            if (!any_v6) {
                continue;  // the IPv4 attempt covers these addresses
            }
            if (!ipv6) {
                routes.push_back({family, {}, {}, "this machine has no IPv6"});
                continue;
            }
        }
        routes.push_back(route_for(family, servers, clients, request.client_port));
    }
    check_interfaces_reach(routes, clients);
    return routes;
}

unique_fd start_seqpacket_connect(const seqpacket_connect_request& request,
                                  const seqpacket_route& route, int& failure) {
    unique_fd fd = open_seqpacket_socket(route, request);
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags | O_NONBLOCK) != 0) {
        throw std::system_error(errno, std::generic_category(),
                                "cannot make a socket non-blocking");
    }
    seqpacket_route peers = route;  // sctp_connectx takes a non-const pointer
    sctp_assoc_t id = 0;
    failure = 0;
    if (::sctp_connectx(fd.get(), peers.peers.data(), peers.peers.count(), &id) != 0 &&
        errno != EINPROGRESS) {
        failure = errno;
    }
    return fd;
}

seqpacket_progress seqpacket_connect_progress(int fd) {
    // A notification is small; one of an abort may carry the ABORT chunk's
    // causes, whose rest (without MSG_EOR) is read and dropped in turn.
    std::array<std::byte, 1024> buffer{};
    bool rest_of_one = false;  // this read continues a notification
    for (;;) {
        iovec part{buffer.data(), buffer.size()};
        msghdr header{};
        header.msg_iov = &part;
        header.msg_iovlen = 1;
        const ssize_t n = ::recvmsg(fd, &header, MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                return {};
            }
            return {false, errno, 0};
        }
        if (n == 0) {
            return {};  // nothing read: the readiness said no more
        }
        const bool continued = rest_of_one;
        rest_of_one = (header.msg_flags & MSG_EOR) == 0;
        if ((header.msg_flags & MSG_NOTIFICATION) == 0 || continued) {
            continue;  // no data comes before the association is up
        }
        const auto notice =
            decode_sctp_notification(std::span(buffer).first(static_cast<std::size_t>(n)));
        if (!notice) {
            continue;
        }
        if (notice->event == association_event::up) {
            return {true, 0, notice->assoc_id};
        }
        if (notice->event == association_event::lost) {
            // The kernel tells a one-to-many socket no errno: an INIT that
            // met an ABORT or a closed port is what a blocking
            // sctp_connectx calls refused.
            return {false, ECONNREFUSED, 0};
        }
    }
}

connect_error seqpacket_connect_failure(const seqpacket_connect_request& request,
                                        const std::string& last_reason, bool refused) {
    // Each host with the port, as the addresses are printed everywhere else:
    // "10.0.0.1:45453,[::1]:45453".
    std::vector<std::string> targets;
    for (const auto& host : request.server_hosts) {
        targets.push_back(host_and_port(host, request.server_port));
    }
    return connect_error(
        fmt::format("cannot connect to {} ({})", fmt::join(targets, ","), last_reason), refused);
}

seqpacket_association connect_seqpacket(const seqpacket_connect_request& request) {
    std::string last_reason = "no usable address";
    bool refused = false;
    for (const auto& route : resolve_seqpacket_routes(request)) {
        if (!route.unusable.empty()) {
            last_reason = route.unusable;
            continue;
        }
        auto outcome = try_route(route, request);
        if (outcome.association) {
            return std::move(*outcome.association);
        }
        last_reason = outcome.reason;
        refused = outcome.refused;
    }
    throw seqpacket_connect_failure(request, last_reason, refused);
}

}  // namespace sctp_perf
