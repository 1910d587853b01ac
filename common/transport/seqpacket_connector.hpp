// SPDX-License-Identifier: Apache-2.0
#pragma once
// Client side of an SCTP association over a one-to-many (SOCK_SEQPACKET)
// socket, possibly multi-homed: several server addresses reached through
// sctp_connectx, several local addresses bound with sctp_bindx.

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "errors.hpp"
#include "transport/sctp_addresses.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_path_settings.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/stream_connector.hpp"  // connect_error
#include "transport/unique_fd.hpp"

namespace sctp_perf {

struct seqpacket_connect_request {
    // Names or IPv4/IPv6 literals, all of one server: one association with
    // every address each of them resolves to.
    std::vector<std::string> server_hosts{"localhost"};
    std::uint16_t server_port = 45453;
    std::vector<std::string> client_addresses;  // local addresses to bind; empty: any
    std::uint16_t client_port = 0;              // local port; 0: the kernel picks
    std::chrono::milliseconds timeout{10'000};  // bounds the association set-up
    sctp_rto_request sctp_rto;           // applied before connecting, so INIT retries use it too
    sctp_feature_request sctp_features;  // before connecting: the INIT carries them
    sctp_path_request sctp_paths;        // before connecting: the association starts with them
    bool nagle = false;
    std::string bind_device;                     // SO_BINDTODEVICE; empty: none
    std::optional<std::uint32_t> max_seg_bytes;  // SCTP_MAXSEG, before connecting
};

struct seqpacket_association {
    unique_fd socket;  // SOCK_SEQPACKET, holding this association only
    sctp_assoc_t id = 0;
};

// One way of setting up the association: a socket family and the addresses
// of both ends in forms that family's socket accepts, or why there is none.
struct seqpacket_route {
    int family = AF_INET;
    packed_addresses peers;
    packed_addresses locals;
    std::string unusable;  // not empty: the route cannot be tried, and why
};

// Connecting is three steps, as for a one-to-one connection
// (stream_connector.hpp), so that a client of many associations drives them
// from one event loop: the routes are resolved once, each attempt opens a
// socket and starts a non-blocking sctp_connectx, and its outcome is read
// from the association's notification once the socket is readable (a
// one-to-many socket is writable before its association is up).
//
// The routes: one per address family the server has, the resolver's
// preferred one first. Throws connect_error when a name does not resolve.
std::vector<seqpacket_route> resolve_seqpacket_routes(const seqpacket_connect_request& request);

// Opens a socket for `route` with the request's options, binds its local
// addresses and starts connecting without waiting. The socket is
// non-blocking; `failure` is set when sctp_connectx failed at once.
// Throws connect_error when a local address cannot be bound,
// std::system_error when no socket opens.
unique_fd start_seqpacket_connect(const seqpacket_connect_request& request,
                                  const seqpacket_route& route, int& failure);

struct seqpacket_progress {
    bool up = false;
    int failure = 0;  // the errno the set-up failed with; 0 while under way or up
    sctp_assoc_t id = 0;
};

// Reads what has come on a socket start_seqpacket_connect returned, without
// waiting: the association's coming up, or its failure.
seqpacket_progress seqpacket_connect_progress(int fd);

// "cannot connect to HOST:PORT,... (REASON)".
connect_error seqpacket_connect_failure(const seqpacket_connect_request& request,
                                        const std::string& last_reason, bool refused);

// Sets up the association. Where the names resolve to both IPv4 and IPv6,
// tries one family and then the other, in the resolver's order, so a server
// bound to one family only is still found. Throws connect_error naming the
// hosts, the port and the last reason, with refused() telling the caller
// whether to suggest starting a server; std::system_error when the kernel
// cannot open an SCTP socket at all.
seqpacket_association connect_seqpacket(const seqpacket_connect_request& request);

}  // namespace sctp_perf
