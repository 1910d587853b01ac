// SPDX-License-Identifier: Apache-2.0
#include "transport/socket_setup.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/sctp.h>
#include <netinet/tcp.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <string>
#include <system_error>

namespace sctp_perf {

std::optional<transport_protocol> parse_transport(std::string_view text) noexcept {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "sctp") {
        return transport_protocol::sctp;
    }
    if (lower == "tcp") {
        return transport_protocol::tcp;
    }
    return std::nullopt;
}

unique_fd open_socket(int family, int type, transport_protocol transport) {
    const int fd = ::socket(family, type | SOCK_CLOEXEC, ip_protocol_number(transport));
    if (fd >= 0) {
        return unique_fd(fd);
    }
    const int error = errno;
    if (transport == transport_protocol::sctp &&
        (error == EPROTONOSUPPORT || error == ESOCKTNOSUPPORT)) {
        // SOCK_SEQPACKET programs have no -t: TCP is the SOCK_STREAM pair's job.
        const char* tcp_hint =
            (type == SOCK_STREAM) ? "with '-t tcp'" : "with SOCK_STREAM_clt/SOCK_STREAM_srv -t tcp";
        throw std::system_error(error, std::generic_category(),
                                std::string("this kernel has no SCTP support: load it with "
                                            "'modprobe sctp' (package linux-modules-extra on some "
                                            "distributions) or measure TCP instead ") +
                                    tcp_hint);
    }
    throw std::system_error(
        error, std::generic_category(),
        std::string("cannot open a ") + std::string(name_of(transport)) + " socket");
}

bool ipv6_sockets_work(int type, transport_protocol transport) {
    const int fd = ::socket(AF_INET6, type | SOCK_CLOEXEC, ip_protocol_number(transport));
    if (fd < 0) {
        return errno != EAFNOSUPPORT;
    }
    ::close(fd);
    return true;
}

void set_int_option(int fd, int level, int name, int value, const char* what) {
    if (::setsockopt(fd, level, name, &value, sizeof value) != 0) {
        throw std::system_error(errno, std::generic_category(), std::string("cannot set ") + what);
    }
}

void set_nagle(int fd, transport_protocol transport, bool enabled) {
    const int nodelay = enabled ? 0 : 1;
    const int level = ip_protocol_number(transport);
    const int option = transport == transport_protocol::sctp ? SCTP_NODELAY : TCP_NODELAY;
    if (::setsockopt(fd, level, option, &nodelay, sizeof nodelay) != 0) {
        throw std::system_error(errno, std::generic_category(),
                                transport == transport_protocol::sctp ? "cannot set SCTP_NODELAY"
                                                                      : "cannot set TCP_NODELAY");
    }
}

namespace {

void set_buffer(int fd, int forced, int plain, int bytes, const char* what) {
    // As root the FORCE variant is tried first: it ignores net.core.*mem_max,
    // which would otherwise cap the request without a word.
    if (::geteuid() == 0 && ::setsockopt(fd, SOL_SOCKET, forced, &bytes, sizeof bytes) == 0) {
        return;
    }
    if (::setsockopt(fd, SOL_SOCKET, plain, &bytes, sizeof bytes) != 0) {
        throw std::system_error(errno, std::generic_category(),
                                std::string("cannot set the socket ") + what);
    }
}

int read_buffer(int fd, int option) {
    int bytes = 0;
    socklen_t length = sizeof bytes;
    if (::getsockopt(fd, SOL_SOCKET, option, &bytes, &length) != 0) {
        throw std::system_error(errno, std::generic_category(), "cannot read a socket buffer size");
    }
    return bytes;
}

}  // namespace

void apply_socket_buffers(int fd, const socket_buffer_request& request) {
    if (request.send_bytes) {
        set_buffer(fd, SO_SNDBUFFORCE, SO_SNDBUF, *request.send_bytes, "send buffer (--sndbuf)");
    }
    if (request.receive_bytes) {
        set_buffer(fd, SO_RCVBUFFORCE, SO_RCVBUF, *request.receive_bytes,
                   "receive buffer (--rcvbuf)");
    }
}

socket_buffer_sizes read_socket_buffers(int fd) {
    return {read_buffer(fd, SO_SNDBUF), read_buffer(fd, SO_RCVBUF)};
}

void set_blocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        throw std::system_error(errno, std::generic_category(), "cannot make the socket blocking");
    }
}

void set_io_timeout(int fd, std::chrono::milliseconds timeout) {
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout);
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(seconds.count());
    tv.tv_usec = static_cast<suseconds_t>((timeout - seconds).count() * 1000);
    if (::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0) {
        throw std::system_error(errno, std::generic_category(), "cannot set socket timeouts");
    }
}

std::string format_address(const sockaddr* address, socklen_t length) {
    char host[INET6_ADDRSTRLEN] = "?";
    if (address->sa_family == AF_INET && length >= static_cast<socklen_t>(sizeof(sockaddr_in))) {
        const auto* v4 = reinterpret_cast<const sockaddr_in*>(address);
        ::inet_ntop(AF_INET, &v4->sin_addr, host, sizeof host);
        return std::string(host) + ":" + std::to_string(ntohs(v4->sin_port));
    }
    if (address->sa_family == AF_INET6 && length >= static_cast<socklen_t>(sizeof(sockaddr_in6))) {
        const auto* v6 = reinterpret_cast<const sockaddr_in6*>(address);
        if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
            ::inet_ntop(AF_INET, &v6->sin6_addr.s6_addr[12], host, sizeof host);
            return std::string(host) + ":" + std::to_string(ntohs(v6->sin6_port));
        }
        ::inet_ntop(AF_INET6, &v6->sin6_addr, host, sizeof host);
        return "[" + std::string(host) + "]:" + std::to_string(ntohs(v6->sin6_port));
    }
    return "(unknown address family " + std::to_string(address->sa_family) + ")";
}

std::string unbracketed_host(std::string_view host) {
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
    }
    return std::string(host);
}

std::string host_and_port(std::string_view host, std::uint16_t port) {
    const std::string bare = unbracketed_host(host);
    // Only an IPv6 literal holds a colon: names and IPv4 literals cannot.
    const bool v6 = bare.find(':') != std::string::npos;
    return (v6 ? "[" + bare + "]" : bare) + ":" + std::to_string(port);
}

namespace {
template <typename Query>
std::string address_from(int fd, Query query) {
    sockaddr_storage storage{};
    socklen_t length = sizeof storage;
    if (query(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) {
        return "(unknown)";
    }
    return format_address(reinterpret_cast<sockaddr*>(&storage), length);
}
}  // namespace

std::string local_address_of(int fd) {
    return address_from(fd, ::getsockname);
}
std::string peer_address_of(int fd) {
    return address_from(fd, ::getpeername);
}

std::uint16_t local_port_of(int fd) {
    sockaddr_storage storage{};
    socklen_t length = sizeof storage;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) {
        throw std::system_error(errno, std::generic_category(), "getsockname failed");
    }
    if (storage.ss_family == AF_INET6) {
        return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_port);
    }
    return ntohs(reinterpret_cast<const sockaddr_in*>(&storage)->sin_port);
}

}  // namespace sctp_perf
