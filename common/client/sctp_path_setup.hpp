// SPDX-License-Identifier: Apache-2.0
#pragma once
// A client's SCTP association once it is up: the primary path it was asked
// for (--sctp-primary), and, where its paths are worth watching, a watch of
// them (transport/sctp_path_events.hpp) on its channel, which the reads
// feed and the report reads (client/failure_watch.hpp).

#include <cstdint>

#include "options/client_options.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// Whether the paths of a run's associations are watched: the run asked
// about them, with a path option or --at, or asked for a multi-homed
// association (`multi_homed`: SOCK_SEQPACK_clt given several server or
// local addresses). Any other association reads as it would without the
// watch, at no cost per message. The command line decides, not the kernel's
// list of peer addresses: over loopback that list holds every address of
// the host, and a plain benchmark would pay for a watch nobody asked for.
bool watches_paths(const client_options& options, bool multi_homed) noexcept;

// Over SCTP: makes --sctp-primary the primary path of association
// `assoc_id` on the channel's socket (to the server port `port`; 0: the
// connected socket's peer port) and, where watches_paths says so,
// subscribes the association to path events and gives the channel a path
// watch that also learns each reply's path. Nothing over TCP. Throws
// std::system_error when the primary is not one of the association's
// addresses, or the subscription fails.
void prepare_client_paths(message_channel& channel, std::int32_t assoc_id,
                          const client_options& options, std::uint16_t port, bool multi_homed);

}  // namespace sctp_perf
