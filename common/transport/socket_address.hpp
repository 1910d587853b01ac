// SPDX-License-Identifier: Apache-2.0
#pragma once
// One resolved socket address, of either family, as the socket calls take it.

#include <sys/socket.h>

namespace sctp_perf {

struct socket_address {
    sockaddr_storage storage{};
    socklen_t length = 0;

    int family() const noexcept { return storage.ss_family; }
    const sockaddr* get() const noexcept { return reinterpret_cast<const sockaddr*>(&storage); }
};

}  // namespace sctp_perf
