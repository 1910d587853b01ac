// SPDX-License-Identifier: Apache-2.0
#include "server/seqpack_server.hpp"

#include <fmt/ranges.h>
#include <netinet/in.h>
#include <netinet/sctp.h>
#include <sys/socket.h>

#include <boost/asio/generic/seq_packet_protocol.hpp>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <optional>
#include <system_error>
#include <vector>

#include "errors.hpp"
#include "server/one_to_many_worker.hpp"
#include "server/server_log.hpp"
#include "server/server_loop.hpp"
#include "transport/sctp_addresses.hpp"
#include "transport/sctp_delivery.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_notification.hpp"
#include "transport/sctp_receive.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/seqpacket_channel.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {
namespace asio = boost::asio;
using seq_packet = asio::generic::seq_packet_protocol;

namespace {

// Notifications have a small fixed part, and the first message of a client
// is a 24-byte test header (16 bytes from a client of an older version);
// anything longer is kept in part and refused by the session as too long.
constexpr std::size_t listener_buffer_bytes = 4096;

// Messages handled per wake-up, so that a flood of new associations cannot
// keep the signal handler and the idle timer from their turn.
constexpr int messages_per_wakeup = 64;

struct listen_plan {
    int family = AF_INET;
    packed_addresses addresses;  // each with the requested port
    std::string description;     // for the log
};

listen_plan plan_listener(const server_options& options) {
    const bool ipv6 = ipv6_sockets_work(SOCK_SEQPACKET, transport_protocol::sctp);
    listen_plan plan;
    if (options.bind_addresses.empty()) {
        plan.family = ipv6 ? AF_INET6 : AF_INET;
        plan.addresses.add(any_address(plan.family, options.port));
        plan.description = ipv6 ? "IN6ADDR_ANY (IPv6 and IPv4)" : "INADDR_ANY (IPv4 only: no IPv6)";
        return plan;
    }
    std::vector<resolved_host> hosts;
    try {
        hosts = resolve_hosts(options.bind_addresses, options.port, true);
    } catch (const resolve_error& e) {
        throw usage_error(std::string("-a/--server-accept-addr: ") + e.what() +
                          ", and no network interface has that name ('ip -brief address' lists "
                          "them)");
    }
    // Every address of every name, on one socket: an IPv6 one when any of
    // them is IPv6, since it takes the IPv4 ones too.
    bool any_v6 = false;
    for (const auto& host : hosts) {
        any_v6 = any_v6 || host.has_family(AF_INET6);
    }
    plan.family = any_v6 && ipv6 ? AF_INET6 : AF_INET;
    for (const auto& host : hosts) {
        bool added = false;
        for (const auto& address : host.addresses) {
            if (address.family() == AF_INET || plan.family == AF_INET6) {
                plan.addresses.add(address);
                added = true;
            }
        }
        if (!added) {
            throw std::system_error(EAFNOSUPPORT, std::generic_category(),
                                    "cannot bind '" + host.name + "': this machine has no IPv6");
        }
    }
    plan.description = plan.addresses.hosts();
    for (const auto& host : hosts) {  // which addresses each interface gave
        if (host.interface) {
            packed_addresses given;
            for (const auto& address : host.addresses) {
                given.add(address);
            }
            plan.description += fmt::format("; interface {} gave {}", host.name, given.hosts());
        }
    }
    return plan;
}

// What one read of the one-to-many socket brought.
struct listener_message {
    std::vector<std::byte> bytes;  // at most listener_buffer_bytes of it
    bool notification = false;
    bool complete = false;                 // MSG_EOR seen
    std::optional<sctp_assoc_t> assoc_id;  // of a data message, from SCTP_RCVINFO
};

class seqpack_server {
  public:
    seqpack_server(const server_options& options, const program_info& program)
        : options_(options),
          program_(program),
          loop_(options, program),
          listener_(loop_.io()),
          buffer_(listener_buffer_bytes) {}

    int run() {
        auto fd = open_listener();
        if (serves_one_to_many(options_, program_)) {
            serve_on_one_socket(std::move(fd));
            return exit_success;
        }
        listener_.assign(seq_packet(family_, IPPROTO_SCTP), fd.release());
        wait_for_listener();
        loop_.run([this] {
            boost::system::error_code ignored;
            listener_.close(ignored);
        });
        return exit_success;
    }

  private:
    // The default data path: one thread serves every association on the
    // listening socket (server/one_to_many_worker.hpp). The event loop
    // keeps the signals and the idle report; the worker tells it of each
    // client and session through it.
    void serve_on_one_socket(unique_fd fd) {
        auto& io = loop_.io();
        one_to_many_worker worker(
            std::move(fd), loop_.identity(), options_.max_clients,
            {[this, &io](const std::string& peer) {
                 asio::post(io, [this, peer] { loop_.client_arrived(peer); });
             },
             [this, &io] { asio::post(io, [this] { loop_.session_started(); }); },
             [this, &io] { asio::post(io, [this] { loop_.session_ended(); }); }});
        worker.start();
        loop_.run([&worker] { worker.stop(); });
    }

    unique_fd open_listener() {
        const auto plan = plan_listener(options_);
        // An IPv6 socket here may also bind IPv4 addresses of the same
        // association, so it is always dual-stack.
        unique_fd fd = open_listening_socket(plan.family, SOCK_SEQPACKET, /*dual_stack=*/true,
                                             options_.common);
        // Before listen(), so no association can come up unannounced: the
        // COMM_UP notification is what tells this server to peel it off.
        subscribe_association_events(fd.get());
        // Tells which association a data message belongs to, for the rare
        // message read here before its association was peeled off.
        enable_receive_info(fd.get());

        // One address at a time, so that a failure names it; after the first
        // the port is the one the kernel chose (with -p 0) for all others.
        std::uint16_t port = options_.port;
        for (const auto& planned : plan.addresses.addresses()) {
            socket_address address = planned;
            if (address.family() == AF_INET6) {
                reinterpret_cast<sockaddr_in6*>(&address.storage)->sin6_port = htons(port);
            } else {
                reinterpret_cast<sockaddr_in*>(&address.storage)->sin_port = htons(port);
            }
            if (::sctp_bindx(fd.get(), reinterpret_cast<sockaddr*>(&address.storage), 1,
                             SCTP_BINDX_ADD_ADDR) != 0) {
                throw std::system_error(
                    errno, std::generic_category(),
                    "cannot bind to " + format_address(address.get(), address.length));
            }
            port = local_port_of(fd.get());
        }
        if (::listen(fd.get(), SOMAXCONN) != 0) {
            throw std::system_error(errno, std::generic_category(), "cannot listen");
        }
        const auto rto = read_sctp_rto(fd.get());
        family_ = plan.family;

        log_info("Accepting connections on port {} on interface {} using IPPROTO_SCTP", port,
                 plan.description);
        log_info("SCTP retransmission timeout: initial {} ms, min {} ms, max {} ms", rto.initial_ms,
                 rto.min_ms, rto.max_ms);
        log_device_and_segment(fd.get(), options_.common);
        // Even with --quiet: callers of -p 0 learn the port from this line.
        log_line(log_level::always, fmt::format("starting server at port {}", port));
        return fd;
    }

    void wait_for_listener() {
        listener_.async_wait(seq_packet::socket::wait_read,
                             [this](const boost::system::error_code& ec) {
                                 if (ec) {
                                     return;  // closed: stopping
                                 }
                                 if (drain_listener()) {
                                     wait_for_listener();
                                 }
                             });
    }

    // Handles what is queued on the listening socket. Returns false when a
    // read failed and a retry has been scheduled instead.
    bool drain_listener() {
        for (int i = 0; i < messages_per_wakeup; ++i) {
            listener_message message;
            const int error = receive_on_listener(message);
            if (error == EAGAIN || error == EWOULDBLOCK) {
                return true;
            }
            if (error != 0) {
                // Out of memory or similar: say so, and try again shortly
                // rather than spin.
                loop_.retry_after_failure(
                    fmt::format("receive on the listening socket failed: {}", std::strerror(error)),
                    [this] { wait_for_listener(); });
                return false;
            }
            loop_.listener_recovered();
            handle(std::move(message));
        }
        return true;
    }

    // Returns 0 or the errno of the failed read.
    int receive_on_listener(listener_message& message) {
        // SCTP_FUTURE_ASSOC (0) is never an association's id: left as it is,
        // the message came without one.
        sctp_assoc_t id = SCTP_FUTURE_ASSOC;
        int msg_flags = 0;
        ssize_t n = 0;
        do {
            n = receive_sctp(listener_.native_handle(), buffer_, MSG_DONTWAIT, msg_flags, nullptr,
                             &id);
        } while (n < 0 && errno == EINTR);
        if (n < 0) {
            return errno;
        }
        if (n == 0) {
            return ESHUTDOWN;  // only after a shutdown(), which this server never does
        }
        const auto bytes = std::span(buffer_).first(static_cast<std::size_t>(n));
        message.notification = (msg_flags & MSG_NOTIFICATION) != 0;
        message.complete = (msg_flags & MSG_EOR) != 0;
        if (id != SCTP_FUTURE_ASSOC) {
            message.assoc_id = id;
        }
        if (!message.notification || message.complete) {
            message.bytes.assign(bytes.begin(), bytes.end());
            return 0;
        }
        // The rest of a long notification is read and dropped; the rest of a
        // long data message stays queued and goes with its association when
        // that is peeled off.
        notification_head head(bytes);
        const ssize_t rest = head.read_rest(listener_.native_handle(), MSG_DONTWAIT);
        if (rest < 0) {
            return errno;
        }
        if (rest == 0) {
            return ESHUTDOWN;
        }
        message.bytes.assign(head.bytes().begin(), head.bytes().end());
        message.complete = true;
        return 0;
    }

    void handle(listener_message message) {
        if (message.notification) {
            // Only a new association matters here; the others concern
            // associations already peeled off or never established.
            const auto notice = decode_sctp_notification(message.bytes);
            if (notice && notice->event == association_event::up) {
                start_session(static_cast<sctp_assoc_t>(notice->assoc_id), std::nullopt);
            }
            return;
        }
        if (!message.assoc_id) {
            log_error("dropped a {}-byte message of an unknown association", message.bytes.size());
            return;
        }
        // The association's first message was read here before it could be
        // peeled off: the session gets it along with the socket.
        start_session(*message.assoc_id,
                      pending_message{std::move(message.bytes), message.complete});
    }

    void start_session(sctp_assoc_t id, std::optional<pending_message> first) {
        unique_fd fd;
        try {
            fd = peel_off_association(listener_.native_handle(), id);
        } catch (const std::system_error& e) {
            if (e.code().value() == EINVAL) {
                // A client that sent its message and closed at once can be
                // gone before this server got to it; its messages are left
                // here with no one to answer.
                if (first) {
                    log_error("dropped a {}-byte message of association {}, which has ended",
                              first->bytes.size(), id);
                } else {
                    log_error("association {} ended before it could be served", id);
                }
                return;
            }
            log_error("{}; aborting it", e.what());
            abort_association(id);
            return;
        }
        const auto peer = peer_address_of(fd.get());
        loop_.client_arrived(peer);
        const auto peers = association_peer_addresses(fd.get(), id);
        if (peers.size() > 1) {
            log_info("client {}: association with client addresses {}; server addresses {}", peer,
                     fmt::join(peers, ", "),
                     fmt::join(association_local_addresses(fd.get(), id), ", "));
        }
        try {
            // Keeps SCTP_RECVRCVINFO on: the session answers each request on
            // the stream it came in on.
            prepare_session_socket(fd.get(), options_.common);
        } catch (const std::system_error& e) {
            log_error("client {}: {}; closing", peer, e.what());
            return;
        }
        loop_.serve(std::make_unique<seqpacket_channel>(std::move(fd), std::move(first)), peer);
    }

    // Ends an association that could not be given a socket of its own, so
    // the client hears of it at once rather than at its I/O timeout.
    void abort_association(sctp_assoc_t id) {
        sctp_sndrcvinfo info{};
        info.sinfo_flags = SCTP_ABORT;
        info.sinfo_assoc_id = id;
        ::sctp_send(listener_.native_handle(), nullptr, 0, &info, MSG_DONTWAIT | MSG_NOSIGNAL);
    }

    const server_options& options_;
    const program_info& program_;
    int family_ = AF_INET;
    server_loop loop_;
    seq_packet::socket listener_;
    std::vector<std::byte> buffer_;
};

}  // namespace

int run_seqpack_server(const server_options& options, const program_info& program) {
    seqpack_server server(options, program);
    return server.run();
}

}  // namespace sctp_perf
