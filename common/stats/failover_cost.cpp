// SPDX-License-Identifier: Apache-2.0
#include "stats/failover_cost.hpp"

#include <algorithm>

namespace sctp_perf {
namespace {

std::optional<reply_gap> longest_gap_of(const std::vector<reply_sample>& by_arrival) {
    std::optional<reply_gap> longest;
    for (std::size_t i = 1; i < by_arrival.size(); ++i) {
        const reply_gap gap{by_arrival[i - 1].arrived_ns, by_arrival[i].arrived_ns};
        if (!longest || gap.length_ns() > longest->length_ns()) {
            longest = gap;
        }
    }
    return longest;
}

// The first request left unanswered when the replies stopped: of the
// replies that came once the longest gap had ended, the earliest begun.
std::int64_t inferred_fault(const std::vector<reply_sample>& by_arrival,
                            const std::optional<reply_gap>& gap) {
    if (!gap) {
        return by_arrival.empty() ? 0 : by_arrival.front().start_ns;
    }
    std::int64_t earliest = gap->to_ns;
    for (const auto& r : by_arrival) {
        if (r.arrived_ns >= gap->to_ns) {
            earliest = std::min(earliest, r.start_ns);
        }
    }
    return earliest;
}

// Nearest rank: the smallest latency that at least 99.9 % of them do not
// exceed; `latencies` is sorted and not empty.
std::int64_t p999_of(const std::vector<std::int64_t>& latencies) {
    const auto n = latencies.size();
    const auto rank = (n * 999 + 999) / 1000;  // ceil(0.999 * n), at least 1
    return latencies[rank - 1];
}

}  // namespace

failover_cost measure_failover_cost(std::vector<reply_sample> replies,
                                    const failover_window& window) {
    std::stable_sort(
        replies.begin(), replies.end(),
        [](const reply_sample& a, const reply_sample& b) { return a.arrived_ns < b.arrived_ns; });
    failover_cost cost;
    cost.longest_gap = longest_gap_of(replies);
    cost.fault_inferred = !window.fault_ns;
    cost.fault_ns = window.fault_ns ? *window.fault_ns : inferred_fault(replies, cost.longest_gap);

    std::vector<std::int64_t> unfaulted;
    bool left_path = false;
    for (const auto& r : replies) {
        if (cost.replies_per_path.size() <= r.path) {
            cost.replies_per_path.resize(r.path + 1u, 0);
        }
        ++cost.replies_per_path[r.path];
        if (r.arrived_ns < cost.fault_ns) {
            unfaulted.push_back(r.arrived_ns - r.start_ns);
            cost.fault_path = r.path;  // the last one before the fault wins
            continue;
        }
        const bool other = cost.fault_path != 0 && r.path != 0 && r.path != cost.fault_path;
        if (other && !cost.other_path_reply_ns) {
            cost.other_path_reply_ns = r.arrived_ns - cost.fault_ns;
        }
        left_path = left_path || other;
        if (left_path && window.undone_ns && r.arrived_ns >= *window.undone_ns &&
            r.path == cost.fault_path && !cost.back_on_path_ns) {
            cost.back_on_path_ns = r.arrived_ns - *window.undone_ns;
        }
    }
    cost.unfaulted_replies = unfaulted.size();
    cost.later_replies = replies.size() - unfaulted.size();
    if (!unfaulted.empty()) {
        std::sort(unfaulted.begin(), unfaulted.end());
        cost.unfaulted_p999_ns = p999_of(unfaulted);
        for (const auto& r : replies) {
            if (r.arrived_ns >= cost.fault_ns &&
                r.arrived_ns - r.start_ns > *cost.unfaulted_p999_ns) {
                ++cost.later_slower_than_p999;
            }
        }
    }
    return cost;
}

}  // namespace sctp_perf
