// SPDX-License-Identifier: Apache-2.0
#pragma once
// A TCP connection on loopback for the tests of the server's parts: the
// client's end and the server's, as the listener's accept() gives it, both
// blocking. A real connection, not a socketpair: a session's account reads
// TCP_INFO.

#include <netinet/in.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>

#include "transport/unique_fd.hpp"

namespace sctp_perf::testing {

struct loopback_connection {
    unique_fd client;
    unique_fd server;
};

inline loopback_connection connect_on_loopback() {
    unique_fd listener(::socket(AF_INET, SOCK_STREAM, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    REQUIRE(::bind(listener.get(), reinterpret_cast<sockaddr*>(&address), length) == 0);
    REQUIRE(::listen(listener.get(), 1) == 0);
    REQUIRE(::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&address), &length) == 0);
    loopback_connection c;
    c.client = unique_fd(::socket(AF_INET, SOCK_STREAM, 0));
    REQUIRE(::connect(c.client.get(), reinterpret_cast<sockaddr*>(&address), length) == 0);
    c.server = unique_fd(::accept(listener.get(), nullptr, nullptr));
    REQUIRE(c.server);
    return c;
}

}  // namespace sctp_perf::testing
