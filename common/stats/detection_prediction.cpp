// SPDX-License-Identifier: Apache-2.0
#include "stats/detection_prediction.hpp"

#include <algorithm>

namespace sctp_perf {

std::uint64_t retransmission_timeouts_ms(std::uint64_t rto_ms, std::uint64_t rto_max_ms,
                                         std::uint64_t expiries) noexcept {
    std::uint64_t total = 0;
    std::uint64_t timeout = std::min(rto_ms, rto_max_ms);
    for (std::uint64_t k = 0; k < expiries; ++k) {
        total += timeout;
        // Doubled up to the cap (timeout * 2 > cap, written so that it
        // cannot overflow); once there it stays.
        timeout = timeout > rto_max_ms - timeout ? rto_max_ms : timeout * 2;
    }
    return total;
}

detection_prediction predict_detection(const detection_inputs& in) noexcept {
    detection_prediction p;
    p.unreachable_expiries = in.path_max_retrans + 1;
    p.unreachable_ms = retransmission_timeouts_ms(in.rto_ms, in.rto_max_ms, p.unreachable_expiries);
    if (in.pf_enabled && in.pf_threshold && *in.pf_threshold + 1 < in.path_max_retrans) {
        p.pf_expiries = *in.pf_threshold + 1;
        p.pf_ms = retransmission_timeouts_ms(in.rto_ms, in.rto_max_ms, *p.pf_expiries);
    }
    return p;
}

}  // namespace sctp_perf
