// SPDX-License-Identifier: Apache-2.0
#include "client/sctp_path_setup.hpp"

#include <netinet/in.h>
#include <sys/socket.h>

#include <memory>

#include "transport/sctp_path_events.hpp"
#include "transport/sctp_path_settings.hpp"

namespace sctp_perf {
namespace {

// The connected socket's peer port, 0 when it cannot be read.
std::uint16_t peer_port(int fd) {
    sockaddr_storage peer{};
    socklen_t length = sizeof peer;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &length) != 0) {
        return 0;
    }
    return ntohs(peer.ss_family == AF_INET6 ? reinterpret_cast<const sockaddr_in6&>(peer).sin6_port
                                            : reinterpret_cast<const sockaddr_in&>(peer).sin_port);
}

}  // namespace

bool watches_paths(const client_options& options, bool multi_homed) noexcept {
    return multi_homed || options.common.sctp_paths.any() || options.faults.any();
}

void prepare_client_paths(message_channel& channel, std::int32_t assoc_id,
                          const client_options& options, std::uint16_t port, bool multi_homed) {
    if (options.common.transport != transport_protocol::sctp) {
        return;
    }
    const int fd = channel.native_handle();
    if (!options.common.sctp_paths.primary.empty()) {
        set_primary_path(fd, assoc_id, options.common.sctp_paths.primary,
                         port != 0 ? port : peer_port(fd));
    }
    if (watches_paths(options, multi_homed)) {
        subscribe_path_events(fd, assoc_id);
        channel.watch_paths(std::make_shared<sctp_path_watch>(), /*each_message_path=*/true);
    }
}

}  // namespace sctp_perf
