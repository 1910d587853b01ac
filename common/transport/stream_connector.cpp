// SPDX-License-Identifier: Apache-2.0
#include "transport/stream_connector.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "transport/network_interface.hpp"
#include "transport/socket_device.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {
namespace asio = boost::asio;

namespace {

asio::ip::tcp::resolver::results_type resolve(asio::io_context& io, const std::string& host,
                                              std::uint16_t port, bool passive) {
    asio::ip::tcp::resolver resolver(io);
    boost::system::error_code ec;
    auto flags = asio::ip::resolver_base::numeric_service;
    if (passive) {
        flags |= asio::ip::resolver_base::passive;
    }
    // "[::1]" is how an IPv6 literal is written next to a port; the resolver
    // wants it bare.
    auto results = resolver.resolve(unbracketed_host(host), std::to_string(port), flags, ec);
    if (ec) {
        throw connect_error("cannot resolve '" + host + "': " + ec.message(), false);
    }
    return results;
}

socket_address address_of(const asio::ip::tcp::endpoint& endpoint) {
    socket_address address;
    std::memcpy(&address.storage, endpoint.data(), endpoint.size());
    address.length = static_cast<socklen_t>(endpoint.size());
    return address;
}

// The local endpoint of the requested family, or nothing when the request asks
// for no particular local address and port, or its address has no such form.
std::optional<socket_address> local_endpoint_for(asio::io_context& io,
                                                 const connect_request& request, bool v6) {
    if (request.client_address.empty() && request.client_port == 0) {
        return std::nullopt;
    }
    if (request.client_address.empty()) {
        return address_of(asio::ip::tcp::endpoint(v6 ? asio::ip::tcp::v6() : asio::ip::tcp::v4(),
                                                  request.client_port));
    }
    if (const auto device = find_interface(request.client_address, request.client_port)) {
        const auto addresses = device->of_family(v6 ? AF_INET6 : AF_INET);
        return addresses.empty() ? std::nullopt : std::optional(addresses.front());
    }
    asio::ip::tcp::resolver::results_type results;
    try {
        results = resolve(io, request.client_address, request.client_port, true);
    } catch (const connect_error& e) {
        throw usage_error(fmt::format(
            "-i/--client-connect-addr {}: neither a network interface of this host ('ip -brief "
            "address' lists them) nor an address ({})",
            request.client_address, e.what()));
    }
    for (const auto& entry : results) {
        if (entry.endpoint().address().is_v6() == v6) {
            return address_of(entry.endpoint());
        }
    }
    return std::nullopt;
}

void bind_local(int fd, const connect_request& request, const socket_address& local) {
    set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
    // Without a port, TCP leaves choosing one to connect(), which may then
    // reuse a port towards other servers: bind() alone would hold one of
    // the address's ports for this socket, whatever it connects to.
    if (request.client_port == 0 && request.transport == transport_protocol::tcp) {
        set_int_option(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1, "IP_BIND_ADDRESS_NO_PORT");
    }
    if (::bind(fd, local.get(), local.length) != 0) {
        const int error = errno;
        throw connect_error("cannot bind the client to " +
                                format_address(local.get(), local.length) + " (" +
                                std::system_category().message(error) + ")",
                            false);
    }
}

// Waits up to `timeout` for the connect started on `fd` to end; false when
// it has not.
bool wait_writable(int fd, std::chrono::milliseconds timeout) {
    using clock = std::chrono::steady_clock;
    const auto until = clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - clock::now());
        pollfd entry{fd, POLLOUT, 0};
        const int ready = ::poll(&entry, 1, static_cast<int>(std::max<long long>(0, left.count())));
        if (ready > 0) {
            return true;
        }
        if (ready == 0) {
            return false;
        }
        if (errno != EINTR) {
            throw std::system_error(errno, std::generic_category(), "poll while connecting");
        }
    }
}

}  // namespace

std::vector<connect_route> resolve_routes(const connect_request& request) {
    asio::io_context io;
    std::vector<connect_route> routes;
    for (const auto& entry : resolve(io, request.server_host, request.server_port, false)) {
        const auto target = entry.endpoint();
        const bool v6 = target.address().is_v6();
        connect_route route;
        route.target = address_of(target);
        route.local = local_endpoint_for(io, request, v6);
        if (!request.client_address.empty() && !route.local) {
            route.unusable = "client address " + request.client_address + " has no IPv" +
                             (v6 ? "6" : "4") + " form to reach " + target.address().to_string();
        }
        routes.push_back(std::move(route));
    }
    // An interface with no address in any of the server's families is the
    // command line's mistake, not the network's.
    const bool none_usable = std::all_of(
        routes.begin(), routes.end(), [](const connect_route& r) { return !r.unusable.empty(); });
    if (none_usable && !routes.empty() && is_interface_name(request.client_address)) {
        throw usage_error(fmt::format(
            "-i/--client-connect-addr {}: the interface has no address of the family of {} "
            "({}); give it one (ip address add ADDRESS dev {}) or reach the server by an "
            "address of the interface's family",
            request.client_address, request.server_host, routes.front().unusable,
            request.client_address));
    }
    return routes;
}

unique_fd start_connect(const connect_request& request, const connect_route& route, int& failure) {
    const int family = route.target.family();
    unique_fd fd = open_socket(family, SOCK_STREAM, request.transport);
    if (!request.bind_device.empty()) {
        bind_to_device(fd.get(), request.bind_device);
    }
    if (request.max_seg_bytes) {  // before connecting: the SYN or INIT carries it
        apply_max_segment(fd.get(), request.transport, *request.max_seg_bytes);
    }
    if (request.transport == transport_protocol::sctp) {
        apply_sctp_rto(fd.get(), request.sctp_rto);
        apply_sctp_features(fd.get(), request.sctp_features);
        apply_sctp_path_settings(fd.get(), request.sctp_paths);
    }
    if (route.local) {
        bind_local(fd.get(), request, *route.local);
    }
    // Non-blocking, so that the wait is bounded by the caller: an
    // unreachable host would otherwise block for the kernel's minutes-long
    // SYN/INIT retries.
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags | O_NONBLOCK) != 0) {
        throw std::system_error(errno, std::generic_category(),
                                "cannot make a socket non-blocking");
    }
    failure = 0;
    if (::connect(fd.get(), route.target.get(), route.target.length) != 0 && errno != EINPROGRESS) {
        failure = errno;
    }
    return fd;
}

int connect_outcome(int fd) {
    int error = 0;
    socklen_t size = sizeof error;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0) {
        return errno;
    }
    return error;
}

connect_error connect_failure(const connect_request& request, const std::string& last_reason,
                              bool refused) {
    return connect_error("cannot connect to " +
                             host_and_port(request.server_host, request.server_port) + " (" +
                             last_reason + ")",
                         refused);
}

std::string no_answer_reason(std::chrono::milliseconds timeout) {
    return fmt::format("no answer within {:g} s", timeout.count() / 1000.0);
}

unique_fd connect_stream(const connect_request& request) {
    std::string last_reason = "no usable address";
    bool refused = false;
    for (const auto& route : resolve_routes(request)) {
        if (!route.unusable.empty()) {
            last_reason = route.unusable;
            continue;
        }
        int failure = 0;
        unique_fd fd = start_connect(request, route, failure);
        if (failure == 0) {
            if (!wait_writable(fd.get(), request.timeout)) {
                last_reason = no_answer_reason(request.timeout);
                continue;
            }
            failure = connect_outcome(fd.get());
        }
        if (failure != 0) {
            refused = failure == ECONNREFUSED;
            last_reason = std::system_category().message(failure);
            continue;
        }
        return fd;
    }
    throw connect_failure(request, last_reason, refused);
}

}  // namespace sctp_perf
