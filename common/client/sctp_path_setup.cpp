// SPDX-License-Identifier: Apache-2.0
#include "client/sctp_path_setup.hpp"

#include <netinet/in.h>
#include <sys/socket.h>

#include <memory>

#include "transport/sctp_path_settings.hpp"

namespace sctp_perf {

void prepare_client_paths(message_channel& channel, std::int32_t assoc_id,
                          const client_options& options, std::uint16_t port) {
    if (options.common.transport != transport_protocol::sctp) {
        return;
    }
    if (!options.common.sctp_paths.primary.empty()) {
        if (port == 0) {
            sockaddr_storage peer{};
            socklen_t length = sizeof peer;
            if (::getpeername(channel.native_handle(), reinterpret_cast<sockaddr*>(&peer),
                              &length) == 0) {
                port = ntohs(peer.ss_family == AF_INET6
                                 ? reinterpret_cast<const sockaddr_in6&>(peer).sin6_port
                                 : reinterpret_cast<const sockaddr_in&>(peer).sin_port);
            }
        }
        set_primary_path(channel.native_handle(), assoc_id, options.common.sctp_paths.primary,
                         port);
    }
    channel.watch_paths(std::make_shared<sctp_path_watch>());
}

}  // namespace sctp_perf
