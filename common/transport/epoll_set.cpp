// SPDX-License-Identifier: Apache-2.0
#include "transport/epoll_set.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <ctime>
#include <system_error>

namespace sctp_perf {
namespace {

std::system_error system_error_of(const char* what) {
    return {errno, std::generic_category(), what};
}

// What a wait returned: the events that came, or none when a signal ended it.
std::size_t events_or_interrupted(int n, const char* what) {
    if (n >= 0) {
        return static_cast<std::size_t>(n);
    }
    if (errno == EINTR) {
        return 0;
    }
    throw system_error_of(what);
}

int capacity_of(std::span<epoll_event> events) {
    return static_cast<int>(std::min<std::size_t>(events.size(), INT_MAX));
}

}  // namespace

epoll_set::epoll_set() : fd_(::epoll_create1(EPOLL_CLOEXEC)) {
    if (!fd_) {
        throw system_error_of("epoll_create1 failed");
    }
}

void epoll_set::control(int operation, int fd, std::uint32_t events, epoll_data_t data) {
    epoll_event event{};
    event.events = events;
    event.data = data;
    if (::epoll_ctl(fd_.get(), operation, fd, &event) != 0) {
        throw system_error_of("epoll_ctl failed");
    }
}

void epoll_set::add(int fd, std::uint32_t events, epoll_data_t data) {
    control(EPOLL_CTL_ADD, fd, events, data);
}

void epoll_set::modify(int fd, std::uint32_t events, epoll_data_t data) {
    control(EPOLL_CTL_MOD, fd, events, data);
}

void epoll_set::remove(int fd) {
    if (::epoll_ctl(fd_.get(), EPOLL_CTL_DEL, fd, nullptr) != 0 && errno != ENOENT) {
        throw system_error_of("epoll_ctl failed");
    }
}

std::size_t epoll_set::wait(std::span<epoll_event> events, std::chrono::milliseconds timeout) {
    const auto ms = std::clamp<std::chrono::milliseconds::rep>(timeout.count(), 0, INT_MAX);
    return events_or_interrupted(
        ::epoll_wait(fd_.get(), events.data(), capacity_of(events), static_cast<int>(ms)),
        "epoll_wait failed");
}

std::size_t epoll_set::wait_precisely(std::span<epoll_event> events,
                                      std::chrono::nanoseconds timeout) {
    const auto ns = std::max<std::chrono::nanoseconds::rep>(timeout.count(), 0);
    const timespec limit{static_cast<time_t>(ns / 1'000'000'000),
                         static_cast<long>(ns % 1'000'000'000)};
    return events_or_interrupted(
        ::epoll_pwait2(fd_.get(), events.data(), capacity_of(events), &limit, nullptr),
        "epoll_pwait2 failed");
}

}  // namespace sctp_perf
