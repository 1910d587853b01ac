// SPDX-License-Identifier: Apache-2.0
#pragma once
// How SOCK_STREAM_clt connects: one TCP or SCTP one-to-one connection.

#include "client/client_main.hpp"

namespace sctp_perf {

client_connection connect_stream_client(const client_options& options);

}  // namespace sctp_perf
