// SPDX-License-Identifier: Apache-2.0
#include "transport/stream_connector.hpp"

#include <fmt/format.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/generic/stream_protocol.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <optional>
#include <system_error>

#include "transport/sctp_features.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {
namespace asio = boost::asio;

namespace {

using generic_stream = asio::generic::stream_protocol;

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

// The local endpoint of the requested family, or nothing when the request asks
// for no particular local address and port.
std::optional<asio::ip::tcp::endpoint> local_endpoint_for(asio::io_context& io,
                                                          const connect_request& request, bool v6) {
    if (request.client_address.empty() && request.client_port == 0) {
        return std::nullopt;
    }
    if (request.client_address.empty()) {
        return asio::ip::tcp::endpoint(v6 ? asio::ip::tcp::v6() : asio::ip::tcp::v4(),
                                       request.client_port);
    }
    for (const auto& entry : resolve(io, request.client_address, request.client_port, true)) {
        if (entry.endpoint().address().is_v6() == v6) {
            return entry.endpoint();
        }
    }
    return std::nullopt;
}

}  // namespace

unique_fd connect_stream(const connect_request& request) {
    asio::io_context io;
    const auto targets = resolve(io, request.server_host, request.server_port, false);
    const std::string where = host_and_port(request.server_host, request.server_port);
    std::string last_reason = "no usable address";
    bool refused = false;

    for (const auto& entry : targets) {
        const auto target = entry.endpoint();
        const bool v6 = target.address().is_v6();
        const auto local = local_endpoint_for(io, request, v6);
        if (!request.client_address.empty() && !local) {
            last_reason = "client address " + request.client_address + " has no IPv" +
                          (v6 ? "6" : "4") + " form to reach " + target.address().to_string();
            continue;
        }
        const int family = v6 ? AF_INET6 : AF_INET;
        const generic_stream protocol(family, ip_protocol_number(request.transport));
        unique_fd fd = open_socket(family, SOCK_STREAM, request.transport);
        if (request.transport == transport_protocol::sctp) {
            apply_sctp_rto(fd.get(), request.sctp_rto);
            apply_sctp_features(fd.get(), request.sctp_features);
        }
        generic_stream::socket socket(io, protocol, fd.release());

        boost::system::error_code ec;
        if (local) {
            set_int_option(socket.native_handle(), SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
            socket.bind(generic_stream::endpoint(local->data(), local->size(),
                                                 ip_protocol_number(request.transport)),
                        ec);
            if (ec) {
                throw connect_error("cannot bind the client to " +
                                        format_address(local->data(), local->size()) + " (" +
                                        ec.message() + ")",
                                    false);
            }
        }

        // Connect asynchronously only to bound the wait: an unreachable host
        // would otherwise block for the kernel's minutes-long SYN/INIT retries.
        std::optional<boost::system::error_code> outcome;
        socket.async_connect(generic_stream::endpoint(target.data(), target.size(),
                                                      ip_protocol_number(request.transport)),
                             [&outcome](const boost::system::error_code& e) { outcome = e; });
        io.restart();
        io.run_for(request.timeout);
        if (!outcome) {
            socket.close(ec);
            io.restart();
            io.run();
            last_reason = fmt::format("no answer within {:g} s", request.timeout.count() / 1000.0);
            continue;
        }
        if (*outcome) {
            refused = *outcome == asio::error::connection_refused;
            last_reason = outcome->message();
            continue;
        }
        return unique_fd(socket.release());
    }
    throw connect_error("cannot connect to " + where + " (" + last_reason + ")", refused);
}

}  // namespace sctp_perf
