// SPDX-License-Identifier: Apache-2.0
#pragma once
// Client side of a one-to-one connection (TCP, or SCTP SOCK_STREAM).

#include <chrono>
#include <cstdint>
#include <string>

#include "errors.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_tuning.hpp"
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
};

// Tries every address the server name resolves to, in order, each attempt
// bounded by `timeout`. Throws connect_error (errors.hpp) naming the host, the
// port and the last reason.
unique_fd connect_stream(const connect_request& request);

}  // namespace sctp_perf
