// SPDX-License-Identifier: Apache-2.0
// --poll-before-sleep: a wait looks at its socket without sleeping for up to
// its bound, so that what comes within the bound is taken with no sleep, and
// a wait of bound 0 sleeps at once, as before the option. Whether a thread
// slept is read from the kernel's count of its voluntary context switches
// (getrusage RUSAGE_THREAD): a poll that does not wait never makes one, a
// blocking receive that finds nothing always does.

#include "transport/poll_before_sleep.hpp"

#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "loopback_connection.hpp"
#include "transport/kernel_timestamps.hpp"
#include "transport/message_channel.hpp"
#include "transport/socket_setup.hpp"

using namespace sctp_perf;
using namespace std::chrono_literals;

namespace {

long voluntary_switches() {
    rusage usage{};
    REQUIRE(::getrusage(RUSAGE_THREAD, &usage) == 0);
    return usage.ru_nvcsw;
}

struct channel_pair {
    explicit channel_pair(std::chrono::microseconds poll) {
        int fds[2];
        REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
        peer = unique_fd(fds[1]);
        channel = std::make_unique<stream_channel>(unique_fd(fds[0]));
        channel->set_poll_before_sleep(poll);
        set_io_timeout(channel->native_handle(), 5s);
    }
    unique_fd peer;
    std::unique_ptr<stream_channel> channel;
};

// How many voluntary switches the calling thread made while receiving one
// 4-byte message that a second thread sends after `delay`.
long switches_receiving_after(channel_pair& pair, std::chrono::milliseconds delay) {
    ssize_t sent = 0;  // checked on this thread: Catch's checks are not thread-safe
    std::thread writer([&] {
        std::this_thread::sleep_for(delay);
        sent = ::send(pair.peer.get(), "ping", 4, 0);
    });
    std::vector<std::byte> message(4);
    const auto before = voluntary_switches();
    pair.channel->receive_message(message);
    const auto switches = voluntary_switches() - before;
    writer.join();
    REQUIRE(sent == 4);
    CHECK(std::string(reinterpret_cast<const char*>(message.data()), 4) == "ping");
    return switches;
}

}  // namespace

TEST_CASE("poll_within: a bound of 0 never looks") {
    int looks = 0;
    CHECK_FALSE(poll_within(0us, [&] { return ++looks > 0; }));
    CHECK(looks == 0);
}

TEST_CASE("poll_within: looks until the look succeeds") {
    int looks = 0;
    CHECK(poll_within(10s, [&] { return ++looks == 3; }));
    CHECK(looks == 3);
}

TEST_CASE("poll_within: a look that never succeeds ends at the bound, not before") {
    int looks = 0;
    const auto started = std::chrono::steady_clock::now();
    CHECK_FALSE(poll_within(2ms, [&] { return ++looks < 0; }));
    CHECK(std::chrono::steady_clock::now() - started >= 2ms);
    CHECK(looks >= 1);
}

TEST_CASE("poll_readable: true for data already there, false for a quiet socket") {
    channel_pair pair(0us);
    CHECK_FALSE(poll_readable(pair.channel->native_handle(), 1ms));
    REQUIRE(::send(pair.peer.get(), "x", 1, 0) == 1);
    CHECK(poll_readable(pair.channel->native_handle(), 1ms));
}

TEST_CASE("poll_readable: a closed peer ends the poll for the read to report") {
    channel_pair pair(0us);
    pair.peer.reset();
    const auto started = std::chrono::steady_clock::now();
    CHECK(poll_readable(pair.channel->native_handle(), 10s));
    CHECK(std::chrono::steady_clock::now() - started < 10s);
}

TEST_CASE(
    "a channel polling before it sleeps takes a message that comes within the bound "
    "without sleeping") {
    channel_pair pair(5'000'000us);  // 5 s: the message comes after 20 ms
    CHECK(pair.channel->poll_before_sleep() == 5'000'000us);
    CHECK(switches_receiving_after(pair, 20ms) == 0);
}

TEST_CASE("a channel that does not poll sleeps for the same message") {
    // The counterpart of the test above, so that it can fail: the same
    // wait without the poll shows the sleep.
    channel_pair pair(0us);
    CHECK(switches_receiving_after(pair, 20ms) >= 1);
}

TEST_CASE(
    "with --timestamps a channel's poll is not ended by the transmit stamps on the error queue") {
    // Over TCP the request's transmit stamps wait on the error queue while
    // the reply is awaited, and poll() reports them as POLLERR: taken for an
    // error they ended every poll at once, and the wait slept.
    auto c = testing::connect_on_loopback();
    enable_kernel_timestamps(c.client.get(), true, true);
    const int fd = c.client.get();
    REQUIRE(::send(fd, "q", 1, 0) == 1);  // stamped as it leaves
    std::vector<std::byte> got(1);
    REQUIRE(::recv(c.server.get(), got.data(), 1, MSG_WAITALL) == 1);
    pollfd look{fd, POLLIN, 0};
    REQUIRE(::poll(&look, 1, 0) == 1);
    REQUIRE(look.revents == POLLERR);  // the stamps, and nothing to read
    CHECK(poll_readable(fd, 1ms));     // without the flag: taken for an error
    CHECK_FALSE(poll_readable(fd, 1ms, true));
    REQUIRE(::send(c.server.get(), "r", 1, 0) == 1);
    CHECK(poll_readable(fd, 1s, true));  // the reply ends it
}

TEST_CASE("a channel's poll ends at its bound and the wait then sleeps") {
    channel_pair pair(1'000us);  // 1 ms: the message comes after 50 ms
    CHECK(switches_receiving_after(pair, 50ms) >= 1);
}
