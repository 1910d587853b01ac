// SPDX-License-Identifier: Apache-2.0
#pragma once
// How SOCK_STREAM_clt connects: one TCP or SCTP one-to-one connection.

#include "client/client_main.hpp"
#include "transport/stream_connector.hpp"

namespace sctp_perf {

// What the options ask of flow `flow`'s connection: with several -i
// addresses, flow k binds address k modulo their number; with several
// servers (fan-out), it connects to server k modulo their number.
connect_request stream_connect_request(const client_options& options, unsigned flow);

// The connection on a connected socket, made blocking and set up as the
// options say (Nagle, I/O timeout, buffers, spinning).
client_connection stream_connection(unique_fd fd, const client_options& options);

// Connects flow `flow` (its server and local address as above).
client_connection connect_stream_client(const client_options& options, unsigned flow);

}  // namespace sctp_perf
