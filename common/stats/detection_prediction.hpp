// SPDX-License-Identifier: Apache-2.0
#pragma once
// What SCTP's timers predict for the detection of a silent path: how long
// after the first packet lost on it the sender declares it potentially
// failed or unreachable.
//
// The model (Linux net/sctp/sm_sideeffect.c, sctp_do_8_2_transport_strike,
// after RFC 9260 6.3.3 and RFC 7829): each expiry of the path's
// retransmission timer adds one to its error count and doubles its RTO, up
// to rto_max. Expiry k (k = 0, 1, ...) so comes min(RTO * 2^k, rto_max)
// after expiry k - 1, the first one RTO after the lost packet was sent, and
// the path is
//   unreachable at expiry path_max_retrans + 1 (its count exceeds
//   path-max-retrans):   T_unreachable = sum_{k=0}^{PMR} min(RTO * 2^k, RTO_max)
//   potentially failed at expiry pf_threshold + 1, when net.sctp.pf_enable
//   is 1 and that count is still below path-max-retrans (Linux's
//   condition: pf_threshold < error count < path_max_retrans):
//                        T_pf = sum_{k=0}^{PF} min(RTO * 2^k, RTO_max)
// RTO is the path's own when the fault came (read back from the socket),
// not the initial one. Pure arithmetic: no clock, no I/O.

#include <cstdint>
#include <optional>

namespace sctp_perf {

// sum_{k=0}^{expiries-1} min(rto_ms * 2^k, rto_max_ms), in milliseconds;
// 0 for no expiry. An rto_ms above rto_max_ms counts as rto_max_ms, as the
// kernel caps it.
std::uint64_t retransmission_timeouts_ms(std::uint64_t rto_ms, std::uint64_t rto_max_ms,
                                         std::uint64_t expiries) noexcept;

struct detection_inputs {
    std::uint64_t rto_ms = 0;      // the path's RTO when the fault came
    std::uint64_t rto_max_ms = 0;  // the association's rto_max
    std::uint64_t path_max_retrans = 0;
    bool pf_enabled = false;  // net.sctp.pf_enable is 1
    std::optional<std::uint64_t> pf_threshold;
};

struct detection_prediction {
    std::uint64_t unreachable_expiries = 0;  // path_max_retrans + 1
    std::uint64_t unreachable_ms = 0;
    // Set when the potentially-failed state comes before unreachability.
    std::optional<std::uint64_t> pf_expiries;  // pf_threshold + 1
    std::optional<std::uint64_t> pf_ms;
    // What detects the failure first: T_pf where set, else T_unreachable.
    std::uint64_t first_ms() const noexcept { return pf_ms.value_or(unreachable_ms); }
};

detection_prediction predict_detection(const detection_inputs& inputs) noexcept;

// The formula as the reports state it.
inline constexpr const char* detection_formula =
    "T = sum_{k=0}^{N-1} min(RTO * 2^k, RTO_max), N = path_max_retrans + 1 expiries to "
    "unreachable, or pf_threshold + 1 to potentially failed (net.sctp.pf_enable 1 and "
    "pf_threshold + 1 < path_max_retrans); RTO the path's when the fault came";

}  // namespace sctp_perf
