// SPDX-License-Identifier: Apache-2.0
#pragma once
// A client's SCTP association once it is up: the primary path it was asked
// for (--sctp-primary), and a watch of its paths (transport/
// sctp_path_events.hpp) on its channel, which the reads feed and the
// report reads (client/failure_watch.hpp).

#include <cstdint>

#include "options/client_options.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// Over SCTP: makes --sctp-primary the primary path of association
// `assoc_id` on the channel's socket (to the server port `port`; 0: the
// connected socket's peer port), and gives
// the channel a path watch. Nothing over TCP. Throws std::system_error when
// the primary is not one of the association's addresses.
void prepare_client_paths(message_channel& channel, std::int32_t assoc_id,
                          const client_options& options, std::uint16_t port);

}  // namespace sctp_perf
