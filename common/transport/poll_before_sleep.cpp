// SPDX-License-Identifier: Apache-2.0
#include "transport/poll_before_sleep.hpp"

#include <poll.h>
#include <sched.h>

#include <cerrno>

namespace sctp_perf {

bool poll_readable(int fd, std::chrono::microseconds bound, bool stamps_queued) {
    bool failed = false;
    const bool ready = poll_within(bound, [&] {
        pollfd look{fd, POLLIN, 0};
        const int n = ::poll(&look, 1, 0);
        failed = n < 0 && errno != EINTR;
        const bool only_stamps = stamps_queued && n > 0 && look.revents == POLLERR;
        if ((n > 0 && !only_stamps) || failed) {
            return true;
        }
        yield_to_peer();
        return false;
    });
    return ready && !failed;
}

void yield_to_peer() noexcept {
    ::sched_yield();
}

}  // namespace sctp_perf
