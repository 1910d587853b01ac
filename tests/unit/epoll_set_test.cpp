// SPDX-License-Identifier: Apache-2.0
// The event loops' epoll set (transport/epoll_set.hpp), on real descriptors:
// an eventfd that is readable once written to.

#include "transport/epoll_set.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <system_error>

#include "transport/unique_fd.hpp"

using namespace sctp_perf;
using namespace std::chrono_literals;

namespace {

void make_readable(const unique_fd& fd) {
    const std::uint64_t one = 1;
    REQUIRE(::write(fd.get(), &one, sizeof one) == sizeof one);
}

// An event's data, copied out: struct epoll_event is packed on x86-64, so
// its u64 is misaligned, and CHECK would bind a reference to it.
std::uint64_t data_of(const epoll_event& event) {
    return event.data.u64;
}

}  // namespace

TEST_CASE("epoll set: events come back with their data, in both kinds of wait") {
    epoll_set set;
    const unique_fd fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    REQUIRE(fd);
    set.add(fd.get(), EPOLLIN, {.u64 = 42});
    std::array<epoll_event, 4> events{};
    // Nothing yet: a look that does not sleep finds nothing.
    CHECK(set.wait(events, 0ms) == 0);
    CHECK(set.wait_precisely(events, 0ns) == 0);
    make_readable(fd);
    REQUIRE(set.wait(events, 1000ms) == 1);
    CHECK(data_of(events[0]) == 42);
    CHECK((events[0].events & EPOLLIN) != 0);
    REQUIRE(set.wait_precisely(events, 1ms) == 1);
    CHECK(data_of(events[0]) == 42);
    // Watched for nothing, it reports nothing, however readable.
    set.modify(fd.get(), 0, {.u64 = 7});
    CHECK(set.wait_precisely(events, 0ns) == 0);
    set.modify(fd.get(), EPOLLIN, {.u64 = 7});
    REQUIRE(set.wait(events, 0ms) == 1);
    CHECK(data_of(events[0]) == 7);
    set.remove(fd.get());
    CHECK(set.wait(events, 0ms) == 0);
}

TEST_CASE("epoll set: every control call is checked, but removing twice is no error") {
    epoll_set set;
    const unique_fd fd(::eventfd(0, EFD_CLOEXEC));
    REQUIRE(fd);
    // Not in the set yet: nothing to change.
    CHECK_THROWS_AS(set.modify(fd.get(), EPOLLIN, {.u64 = 0}), std::system_error);
    set.add(fd.get(), EPOLLIN, {.u64 = 0});
    CHECK_THROWS_AS(set.add(fd.get(), EPOLLIN, {.u64 = 0}), std::system_error);  // EEXIST
    set.remove(fd.get());
    CHECK_NOTHROW(set.remove(fd.get()));                 // ENOENT: a failure path may not know
    CHECK_THROWS_AS(set.remove(-1), std::system_error);  // EBADF
    CHECK_THROWS_AS(set.add(-1, EPOLLIN, {.u64 = 0}), std::system_error);
}
