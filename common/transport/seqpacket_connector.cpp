// SPDX-License-Identifier: Apache-2.0
#include "transport/seqpacket_connector.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <netinet/in.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>

#include "transport/sctp_addresses.hpp"
#include "transport/sctp_features.hpp"
#include "transport/seqpacket_channel.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {

namespace {

// One way of setting up the association: a socket family and the addresses
// of both ends in forms that family's socket accepts.
struct attempt_plan {
    int family = AF_INET;
    packed_addresses peers;
    packed_addresses locals;
};

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

// Builds the plan for `family`, or says why there is none.
std::optional<attempt_plan> plan_for(int family, const std::vector<resolved_host>& servers,
                                     const std::vector<resolved_host>& clients,
                                     std::uint16_t client_port, std::string& why_not) {
    attempt_plan plan;
    plan.family = family;
    for (const auto& host : servers) {
        const auto addresses = addresses_for(host, family);
        if (addresses.empty()) {
            why_not = fmt::format("'{}' has no {} address", host.name, family_name(family));
            return std::nullopt;
        }
        for (const auto& address : addresses) {
            plan.peers.add(address);
        }
    }
    for (const auto& host : clients) {
        const auto addresses = addresses_for(host, family);
        if (addresses.empty()) {
            why_not = fmt::format("client address '{}' has no {} form to reach the server",
                                  host.name, family_name(family));
            return std::nullopt;
        }
        for (const auto& address : addresses) {
            plan.locals.add(address);
        }
    }
    if (clients.empty() && client_port != 0) {
        plan.locals.add(any_address(family, client_port));
    }
    return plan;
}

struct attempt_outcome {
    std::optional<seqpacket_association> association;
    std::string reason;
    bool refused = false;
};

attempt_outcome try_plan(attempt_plan& plan, const seqpacket_connect_request& request) {
    unique_fd fd = open_socket(plan.family, SOCK_SEQPACKET, transport_protocol::sctp);
    if (plan.family == AF_INET6) {
        // IPv4 addresses may be part of the same association.
        set_int_option(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, 0, "IPV6_V6ONLY off");
    }
    subscribe_association_events(fd.get());
    apply_sctp_rto(fd.get(), request.sctp_rto);
    apply_sctp_features(fd.get(), request.sctp_features);
    set_nagle(fd.get(), transport_protocol::sctp, request.nagle);
    // SO_SNDTIMEO also bounds a blocking sctp_connectx: the kernel would
    // otherwise retry INIT for minutes when nothing answers.
    set_io_timeout(fd.get(), request.timeout);

    if (!plan.locals.empty()) {
        set_int_option(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
        // One address at a time, so that a failure names the address.
        for (const auto& address : plan.locals.addresses()) {
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

    attempt_outcome outcome;
    sctp_assoc_t id = 0;
    if (::sctp_connectx(fd.get(), plan.peers.data(), plan.peers.count(), &id) != 0) {
        const int error = errno;
        if (error == EINPROGRESS || error == ETIMEDOUT || error == EAGAIN) {
            // Closing the socket below gives up the half-open association.
            outcome.reason =
                fmt::format("no answer within {:g} s", request.timeout.count() / 1000.0);
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

}  // namespace

seqpacket_association connect_seqpacket(const seqpacket_connect_request& request) {
    // Each host with the port, as the addresses are printed everywhere else:
    // "10.0.0.1:45453,[::1]:45453".
    std::vector<std::string> targets;
    for (const auto& host : request.server_hosts) {
        targets.push_back(host_and_port(host, request.server_port));
    }
    const std::string where = fmt::format("{}", fmt::join(targets, ","));
    std::vector<resolved_host> servers;
    std::vector<resolved_host> clients;
    try {
        servers = resolve_hosts(request.server_hosts, request.server_port, false);
        clients = resolve_hosts(request.client_addresses, request.client_port, true);
    } catch (const resolve_error& e) {
        throw connect_error(e.what(), false);
    }
    if (servers.empty()) {
        throw connect_error("no server address given", false);
    }

    // The resolver's preference decides which family goes first.
    const int preferred = servers.front().addresses.front().family();
    const std::array<int, 2> families{preferred, preferred == AF_INET6 ? AF_INET : AF_INET6};
    const bool ipv6 = ipv6_sockets_work(SOCK_SEQPACKET, transport_protocol::sctp);

    std::string last_reason = "no usable address";
    bool refused = false;
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
                last_reason = "this machine has no IPv6";
                continue;
            }
        }
        std::string why_not;
        auto plan = plan_for(family, servers, clients, request.client_port, why_not);
        if (!plan) {
            last_reason = why_not;
            continue;
        }
        auto outcome = try_plan(*plan, request);
        if (outcome.association) {
            return std::move(*outcome.association);
        }
        last_reason = outcome.reason;
        refused = outcome.refused;
    }
    throw connect_error("cannot connect to " + where + " (" + last_reason + ")", refused);
}

}  // namespace sctp_perf
