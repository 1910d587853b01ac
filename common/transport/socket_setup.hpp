// SPDX-License-Identifier: Apache-2.0
#pragma once
// Socket options shared by every program, and the clear error for a kernel
// without SCTP.

#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "transport/transport_protocol.hpp"
#include "transport/unique_fd.hpp"

namespace sctp_perf {

// Opens a socket of the given family and type for `transport`. Throws
// std::system_error; where the kernel has no SCTP the message says so and
// what to do about it.
unique_fd open_socket(int family, int type, transport_protocol transport);

// Whether this machine can open IPv6 sockets of `type` for `transport`, to
// choose a dual-stack wildcard over an IPv4-only one. Errors other than a
// missing address family (such as a kernel without SCTP) answer true, so that
// open_socket() reports them with its clear message.
bool ipv6_sockets_work(int type, transport_protocol transport);

// setsockopt(fd, level, name, value) for an int-valued option. Throws
// std::system_error: "cannot set WHAT".
void set_int_option(int fd, int level, int name, int value, const char* what);

// Nagle's algorithm is off unless asked for (TCP_NODELAY / SCTP_NODELAY set),
// because a latency test that batches small requests measures the batching.
void set_nagle(int fd, transport_protocol transport, bool enabled);

// Socket buffer sizes asked for on the command line; unset keeps the system's.
struct socket_buffer_request {
    std::optional<int> send_bytes;     // SO_SNDBUF
    std::optional<int> receive_bytes;  // SO_RCVBUF
};

// What the kernel really uses (Linux doubles a requested size for its own
// bookkeeping and caps it at net.core.[rw]mem_max unless run as root).
struct socket_buffer_sizes {
    int send_bytes = 0;
    int receive_bytes = 0;
};

// Sets the requested sizes; on a socket that will connect or listen, call it
// before, so TCP's window scale is chosen to fit. Root uses the FORCE variants
// so that the system maximum does not silently cap the request. Throws
// std::system_error.
void apply_socket_buffers(int fd, const socket_buffer_request& request);
socket_buffer_sizes read_socket_buffers(int fd);

// Puts the socket back into blocking mode: Asio leaves descriptors it used
// asynchronously (connect, accept) non-blocking, and the timed data path
// relies on blocking calls bounded by set_io_timeout.
void set_blocking(int fd);

// Bounds every later send and receive on `fd`: a call that makes no progress
// for `timeout` fails with EAGAIN, which blocking_io reports as a timeout.
void set_io_timeout(int fd, std::chrono::milliseconds timeout);

// "127.0.0.1:45453" or "[::1]:45453"; IPv4-mapped IPv6 addresses print as IPv4.
std::string format_address(const sockaddr* address, socklen_t length);

// A host as given on the command line, "[::1]" or "::1" alike, in the form the
// resolver takes: without the brackets, which only set an IPv6 literal apart
// from a port. Any other text is returned as it is.
std::string unbracketed_host(std::string_view host);

// A host as given with a port, for messages: "localhost:45453",
// "10.0.0.1:45453", "[::1]:45453" (an IPv6 literal, with or without its
// brackets), the way format_address prints resolved addresses.
std::string host_and_port(std::string_view host, std::uint16_t port);
std::string local_address_of(int fd);
std::string peer_address_of(int fd);
// The port a socket is bound to (the real one after binding port 0).
std::uint16_t local_port_of(int fd);

}  // namespace sctp_perf
