// SPDX-License-Identifier: Apache-2.0
#pragma once
// An epoll set, for the loops that drive many sockets from one thread: the
// server's workers (server/event_worker.hpp), the load engine's workers
// (client/load/load_worker.hpp) and the set-up of many flows at once
// (client/flow_setup_loop.hpp).
//
// It owns the descriptor, checks every call, and ends a wait that a signal
// cut short as a wait that found nothing, so that the loop goes round and
// looks at its own flags (an interrupt, a stop). When to wait and for how
// long is each loop's own policy (spinning, the next deadline, the set-up
// window): the set waits only as it is told.

#include <sys/epoll.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>

#include "transport/unique_fd.hpp"

namespace sctp_perf {

class epoll_set {
  public:
    // Throws std::system_error when the kernel gives no epoll descriptor.
    epoll_set();

    // Registers `fd`, or changes what it is watched for: `events` (EPOLLIN,
    // EPOLLOUT, ...), reported with `data`. Throw std::system_error.
    void add(int fd, std::uint32_t events, epoll_data_t data);
    void modify(int fd, std::uint32_t events, epoll_data_t data);
    // Takes `fd` out of the set. One that is not in it is no error: closing
    // a descriptor takes it out too, and a failure path may not know whether
    // it was added. Throws std::system_error for any other failure.
    void remove(int fd);

    // Waits at most `timeout` (zero: a look that never sleeps) for events,
    // stored from the front of `events`. Returns how many there are; 0 when
    // none came in time or a signal ended the wait. Throws std::system_error.
    // In whole milliseconds, as epoll_wait counts them:
    std::size_t wait(std::span<epoll_event> events, std::chrono::milliseconds timeout);
    // To the nanosecond (epoll_pwait2), for a loop that wakes just before a
    // message is due:
    std::size_t wait_precisely(std::span<epoll_event> events, std::chrono::nanoseconds timeout);

  private:
    void control(int operation, int fd, std::uint32_t events, epoll_data_t data);

    unique_fd fd_;
};

}  // namespace sctp_perf
