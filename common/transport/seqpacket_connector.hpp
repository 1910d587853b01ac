// SPDX-License-Identifier: Apache-2.0
#pragma once
// Client side of an SCTP association over a one-to-many (SOCK_SEQPACKET)
// socket, possibly multi-homed: several server addresses reached through
// sctp_connectx, several local addresses bound with sctp_bindx.

#include <netinet/in.h>
#include <netinet/sctp.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "errors.hpp"
#include "transport/sctp_features.hpp"
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
    bool nagle = false;
};

struct seqpacket_association {
    unique_fd socket;  // SOCK_SEQPACKET, holding this association only
    sctp_assoc_t id = 0;
};

// Sets up the association. Where the names resolve to both IPv4 and IPv6,
// tries one family and then the other, in the resolver's order, so a server
// bound to one family only is still found. Throws connect_error naming the
// hosts, the port and the last reason, with refused() telling the caller
// whether to suggest starting a server; std::system_error when the kernel
// cannot open an SCTP socket at all.
seqpacket_association connect_seqpacket(const seqpacket_connect_request& request);

}  // namespace sctp_perf
