// SPDX-License-Identifier: Apache-2.0
#include "transport/poll_before_sleep.hpp"

#include <poll.h>

#include <cerrno>

namespace sctp_perf {

bool poll_readable(int fd, std::chrono::microseconds bound) {
    bool failed = false;
    const bool ready = poll_within(bound, [&] {
        pollfd look{fd, POLLIN, 0};
        const int n = ::poll(&look, 1, 0);
        failed = n < 0 && errno != EINTR;
        return n > 0 || failed;
    });
    return ready && !failed;
}

}  // namespace sctp_perf
