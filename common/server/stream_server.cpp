// SPDX-License-Identifier: Apache-2.0
#include "server/stream_server.hpp"

#include <fmt/format.h>

#include <boost/asio/basic_socket_acceptor.hpp>
#include <boost/asio/generic/stream_protocol.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstring>
#include <system_error>

#include "errors.hpp"
#include "server/server_log.hpp"
#include "server/server_loop.hpp"
#include "transport/network_interface.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {
namespace asio = boost::asio;
using generic_stream = asio::generic::stream_protocol;

namespace {

struct listen_address {
    asio::ip::tcp::endpoint endpoint;
    std::string description;  // for the log: "INADDR_ANY", "IN6ADDR_ANY (IPv4 and IPv6)", ...
};

asio::ip::tcp::endpoint endpoint_of(const socket_address& address) {
    asio::ip::tcp::endpoint endpoint;
    std::memcpy(endpoint.data(), &address.storage, address.length);
    return endpoint;
}

listen_address resolve_listen_address(const server_options& options, bool ipv6_usable) {
    if (options.bind_addresses.empty()) {
        if (ipv6_usable) {
            return {{asio::ip::address_v6::any(), options.port}, "IN6ADDR_ANY (IPv6 and IPv4)"};
        }
        return {{asio::ip::address_v4::any(), options.port}, "INADDR_ANY (IPv4 only: no IPv6)"};
    }
    const auto& host = options.bind_addresses.front();
    if (const auto device = find_interface(host, options.port)) {
        // One socket, one address: IPv4 first, as a client's -i does.
        const auto& chosen = device->addresses.front();  // validation saw one at least
        return {endpoint_of(chosen),
                fmt::format("{} ({})", host, endpoint_of(chosen).address().to_string())};
    }
    asio::io_context io;
    asio::ip::tcp::resolver resolver(io);
    boost::system::error_code ec;
    auto results = resolver.resolve(
        unbracketed_host(host), std::to_string(options.port),
        asio::ip::resolver_base::passive | asio::ip::resolver_base::numeric_service, ec);
    if (ec || results.empty()) {
        throw usage_error("-a/--server-accept-addr: cannot resolve '" + host +
                          "': " + ec.message() +
                          ", and no network interface has that name ('ip -brief address' lists "
                          "them)");
    }
    return {results.begin()->endpoint(), unbracketed_host(host)};
}

class stream_server {
  public:
    stream_server(const server_options& options, const program_info& program)
        : options_(options), loop_(options, program), acceptor_(loop_.io()) {}

    int run() {
        open_listener();
        accept_next();
        loop_.run([this] {
            boost::system::error_code ignored;
            acceptor_.close(ignored);
        });
        return exit_success;
    }

  private:
    void open_listener() {
        const auto transport = options_.common.transport;
        const auto where =
            resolve_listen_address(options_, ipv6_sockets_work(SOCK_STREAM, transport));
        const int family = where.endpoint.address().is_v6() ? AF_INET6 : AF_INET;
        const int protocol = ip_protocol_number(transport);
        // The wildcard listens for both families on one socket.
        unique_fd fd = open_listening_socket(family, SOCK_STREAM, options_.bind_addresses.empty(),
                                             options_.common);
        acceptor_.assign(generic_stream(family, protocol), fd.release());
        boost::system::error_code ec;
        acceptor_.bind(
            generic_stream::endpoint(where.endpoint.data(), where.endpoint.size(), protocol), ec);
        if (ec) {
            throw std::system_error(
                ec.value(), std::generic_category(),
                "cannot bind to " +
                    (options_.bind_addresses.empty()
                         ? where.description + " port " + std::to_string(options_.port)
                         : host_and_port(where.description, options_.port)));
        }
        acceptor_.listen(asio::socket_base::max_listen_connections, ec);
        if (ec) {
            throw std::system_error(ec.value(), std::generic_category(), "cannot listen");
        }
        const auto port = local_port_of(acceptor_.native_handle());
        log_info("Accepting connections on port {} on interface {} using {}", port,
                 where.description, ipproto_name_of(transport));
        log_device_and_segment(acceptor_.native_handle(), options_.common);
        // Even with --quiet: callers of -p 0 learn the port from this line.
        log_line(log_level::always, fmt::format("starting server at port {}", port));
    }

    void accept_next() {
        acceptor_.async_accept(
            [this](const boost::system::error_code& ec, generic_stream::socket socket) {
                if (ec == asio::error::operation_aborted) {
                    return;
                }
                if (ec) {
                    loop_.retry_after_failure(fmt::format("accept failed: {}", ec.message()),
                                              [this] { accept_next(); });
                    return;
                }
                loop_.listener_recovered();
                hand_over(unique_fd(socket.release()));
                accept_next();
            });
    }

    void hand_over(unique_fd fd) {
        const auto peer = peer_address_of(fd.get());
        loop_.client_arrived(peer);
        try {
            prepare_session_socket(fd.get(), options_.common);
        } catch (const std::system_error& e) {
            log_error("client {}: {}; closing", peer, e.what());
            return;
        }
        loop_.serve(std::make_unique<stream_channel>(std::move(fd)), peer);
    }

    const server_options& options_;
    server_loop loop_;
    asio::basic_socket_acceptor<generic_stream> acceptor_;
};

}  // namespace

int run_stream_server(const server_options& options, const program_info& program) {
    stream_server server(options, program);
    return server.run();
}

}  // namespace sctp_perf
