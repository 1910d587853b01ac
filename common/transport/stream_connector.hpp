// SPDX-License-Identifier: Apache-2.0
#pragma once
// Client side of a one-to-one connection (TCP, or SCTP SOCK_STREAM).
//
// Connecting is three steps, so that one connection and ten thousand share
// them: the routes to the server are resolved once (resolve_routes), each
// attempt opens, tunes and binds a socket and starts a non-blocking connect
// (start_connect), and the attempt's outcome is read once the socket is
// writable (connect_outcome). connect_stream does all three for one
// connection, waiting in poll(); a client of many flows drives many
// attempts from one event loop (client/stream_flow_setup).

#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "errors.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_path_settings.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/socket_address.hpp"
#include "transport/transport_protocol.hpp"
#include "transport/unique_fd.hpp"

namespace sctp_perf {

struct connect_request {
    transport_protocol transport = transport_protocol::sctp;
    std::string server_host = "localhost";  // a name, or an IPv4/IPv6 literal
    std::uint16_t server_port = 45453;
    std::string client_address;     // local address to bind; empty: any
    std::uint16_t client_port = 0;  // local port to bind; 0: the kernel picks
    std::chrono::milliseconds timeout{10'000};
    sctp_rto_request sctp_rto;           // applied before connecting, so INIT retries use it too
    sctp_feature_request sctp_features;  // before connecting: the INIT carries them
    sctp_path_request sctp_paths;        // before connecting: the association starts with them
    std::string bind_device;             // SO_BINDTODEVICE; empty: none
    std::optional<std::uint32_t> max_seg_bytes;  // TCP_MAXSEG / SCTP_MAXSEG, before connecting
};

// One way to reach the server: one of its addresses and, where the request
// names a local address, that address's form in the same family.
struct connect_route {
    socket_address target;
    std::optional<socket_address> local;
    // Not empty when the route cannot be tried, and why: the local address
    // has no form in the target's family.
    std::string unusable;
};

// Every address the server's name resolves to, in the resolver's order,
// each with the local address in its family when one is asked for: an
// interface name gives the interface's first address of that family
// (network_interface.hpp). Throws connect_error when the server's name does
// not resolve, usage_error when the local address is neither an interface
// nor a name that resolves, or an interface with no address to reach any
// of the server's.
std::vector<connect_route> resolve_routes(const connect_request& request);

// Opens a socket for `route`, sets the request's SCTP options, binds the
// local address if there is one and starts connecting without waiting.
// Returns the socket, non-blocking; `failure` is set when connect() failed
// at once (0 when it is in progress or done). Throws connect_error when the
// local address cannot be bound, std::system_error when no socket opens.
unique_fd start_connect(const connect_request& request, const connect_route& route, int& failure);

// The outcome of a connect started on `fd`, once it is writable: 0 when it
// is connected, else the errno it failed with (SO_ERROR).
int connect_outcome(int fd);

// "cannot connect to HOST:PORT (REASON)", refused when the last reason was
// a refusal: the sentence every failed connection ends with.
connect_error connect_failure(const connect_request& request, const std::string& last_reason,
                              bool refused);

// "no answer within S s": the reason for an attempt past its timeout.
std::string no_answer_reason(std::chrono::milliseconds timeout);

// Tries every address the server name resolves to, in order, each attempt
// bounded by `timeout`. Throws connect_error (errors.hpp) naming the host, the
// port and the last reason.
unique_fd connect_stream(const connect_request& request);

}  // namespace sctp_perf
