// SPDX-License-Identifier: Apache-2.0
// A channel that spins (--spin) receives what a blocking one does, and its
// waits are bounded the same way: by the socket's receive timeout for a
// message's first bytes, by the message timeout for its rest. Over a
// socketpair, so no network is needed.

#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "errors.hpp"
#include "transport/message_channel.hpp"
#include "transport/socket_setup.hpp"

using namespace sctp_perf;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

struct spinning_pair {
    spinning_pair() {
        int fds[2];
        REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
        peer = unique_fd(fds[1]);
        channel = std::make_unique<stream_channel>(unique_fd(fds[0]));
        channel->set_spin(true);
    }
    void send(const std::string& text) const {
        REQUIRE(::send(peer.get(), text.data(), text.size(), 0) ==
                static_cast<ssize_t>(text.size()));
    }
    unique_fd peer;
    std::unique_ptr<stream_channel> channel;
};

std::string as_text(const std::vector<std::byte>& bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

TEST_CASE("spinning channel: a message in parts is received whole") {
    spinning_pair pair;
    pair.channel->set_message_timeout(2s);
    set_io_timeout(pair.channel->native_handle(), 2s);
    std::thread writer([&] {
        pair.send("abc");
        std::this_thread::sleep_for(20ms);  // thousands of empty polls
        pair.send("defgh");
    });
    std::vector<std::byte> message(8);
    pair.channel->receive_message(message);
    writer.join();
    CHECK(as_text(message) == "abcdefgh");
    CHECK(pair.channel->spins());
}

TEST_CASE("spinning channel: receive_some returns what has come") {
    spinning_pair pair;
    set_io_timeout(pair.channel->native_handle(), 2s);
    pair.send("xyz");
    std::vector<std::byte> buffer(16);
    CHECK(pair.channel->receive_some(buffer) == 3);
}

TEST_CASE("spinning channel: a silent peer ends the wait at the socket's receive timeout") {
    spinning_pair pair;
    pair.channel->set_message_timeout(100ms);
    set_io_timeout(pair.channel->native_handle(), 100ms);
    std::vector<std::byte> message(4);
    const auto started = clock_type::now();
    CHECK_THROWS_WITH(pair.channel->receive_message(message),
                      "receive timed out: the peer went silent");
    const auto waited = clock_type::now() - started;
    CHECK(waited >= 100ms);
    CHECK(waited < 2s);  // the bound, plus one stretch of polls, plus a busy machine
}

TEST_CASE("spinning channel: a message begun and not finished ends at the message timeout") {
    spinning_pair pair;
    pair.channel->set_message_timeout(200ms);
    set_io_timeout(pair.channel->native_handle(), 10s);
    pair.send("abc");
    std::vector<std::byte> message(8);
    const auto started = clock_type::now();
    CHECK_THROWS_WITH(pair.channel->receive_message(message),
                      "the peer sent 3 of the 8 bytes of a message in 0.2 s (a message must "
                      "come whole within the I/O timeout)");
    CHECK(clock_type::now() - started < 5s);  // the message timeout, not the 10 s
}

TEST_CASE("spinning channel: a peer that closes is told apart from one that goes silent") {
    spinning_pair pair;
    set_io_timeout(pair.channel->native_handle(), 5s);
    std::vector<std::byte> message(4);
    pair.peer.reset();
    CHECK_THROWS_AS(pair.channel->receive_message(message), peer_closed);

    spinning_pair half;
    set_io_timeout(half.channel->native_handle(), 5s);
    half.send("ab");
    half.peer.reset();
    CHECK_THROWS_WITH(half.channel->receive_message(message),
                      "the peer closed the connection after 2 of 4 bytes");
}

TEST_CASE("receive_timeout_of reads back what set_io_timeout set") {
    spinning_pair pair;
    set_io_timeout(pair.channel->native_handle(), 1500ms);
    CHECK(receive_timeout_of(pair.channel->native_handle()) == 1500ms);
}
