// SPDX-License-Identifier: Apache-2.0
#pragma once
// The transport's own counters for one connection, read at the end of a test
// so that a slow tail can be tied to retransmissions: SCTP_GET_ASSOC_STATS
// for an SCTP association, TCP_INFO for a TCP connection.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/transport_counters_blob.hpp"  // the counters, as a value
#include "transport/transport_protocol.hpp"

namespace sctp_perf {

// Reads the counters of the connection on `fd`. Throws std::system_error.
//
// SCTP (SCTP_GET_ASSOC_STATS): retransmitted_chunks, gap_acks_received,
// out_of_sequence_tsns, sacks_sent, sacks_received, control_chunks_sent,
// control_chunks_received, ordered_chunks_sent, ordered_chunks_received,
// unordered_chunks_sent, unordered_chunks_received, duplicate_chunks_received,
// packets_sent, packets_received, max_rto_jiffies (the largest RTO since
// the association began, in kernel ticks of 1/CONFIG_HZ s, as Linux gives
// it: the kernel resets it at each read, and this is the only read).
//
// TCP (TCP_INFO): retransmitted_segments (tcpi_total_retrans), lost_segments,
// rtt_us, rtt_var_us, rto_us, cwnd_segments, segments_sent,
// segments_received, reordering.
// `assoc_id` names the association on a shared one-to-many socket; 0 on a
// socket that holds one.
transport_counters read_transport_counters(int fd, transport_protocol transport,
                                           std::int32_t assoc_id = 0);

// Adds `more` (another connection's counters, same source) into `total`:
// events add up; a value that describes a state (a time, a window, a
// reordering degree) keeps the largest, since their sum would mean nothing.
inline void add_counters(transport_counters& total, const transport_counters& more) {
    if (total.counters.empty()) {
        total = more;
        return;
    }
    const auto is_state = [](std::string_view name) {
        return name.ends_with("_us") || name.ends_with("_jiffies") || name == "cwnd_segments" ||
               name == "reordering";
    };
    for (std::size_t i = 0; i < total.counters.size() && i < more.counters.size(); ++i) {
        auto& into = total.counters[i];
        const auto& from = more.counters[i];
        into.value =
            is_state(into.name) ? std::max(into.value, from.value) : into.value + from.value;
    }
}

// The same over connections that may have no counters (none were read):
// `total` has none until one of them has some.
inline void add_counters(std::optional<transport_counters>& total,
                         const std::optional<transport_counters>& more) {
    if (more) {
        add_counters(total ? *total : total.emplace(), *more);
    }
}

}  // namespace sctp_perf
