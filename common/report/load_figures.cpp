// SPDX-License-Identifier: Apache-2.0
#include "report/load_figures.hpp"

#include "report/load_report.hpp"
#include "stats/value_spread.hpp"

namespace sctp_perf {

flow_figures figures_of(const flow_result& flow) {
    const auto& h = flow.latency;
    if (h.count() == 0) {
        return {};
    }
    return {us_of_ns(h.percentile_ns(500'000)), us_of_ns(h.percentile_ns(990'000)),
            us_of_ns(static_cast<double>(h.max_ns()))};
}

server_figures figures_of(const server_result& server) {
    const auto& h = *server.latency;
    if (h.count() == 0) {
        return {};
    }
    return {us_of_ns(h.percentile_ns(500'000)), us_of_ns(h.percentile_ns(990'000)),
            us_of_ns(h.percentile_ns(999'000)), us_of_ns(static_cast<double>(h.max_ns()))};
}

flow_spread spread_over_flows(const load_result& l, std::size_t worst_count) {
    flow_spread spread;
    std::vector<double> p50s;
    std::vector<double> p99s;
    std::vector<std::size_t> timed;  // p99s[k] is per_flow[timed[k]]'s
    for (std::size_t i = 0; i < l.per_flow.size(); ++i) {
        const auto figures = figures_of(l.per_flow[i]);
        if (figures.p50_us) {
            p50s.push_back(*figures.p50_us);
            p99s.push_back(*figures.p99_us);
            timed.push_back(i);
        }
    }
    spread.timed_flows = timed.size();
    if (timed.empty()) {
        return spread;
    }
    const auto p50 = spread_of(p50s);
    const auto p99 = spread_of(p99s);
    spread.p50 = {p50.min, p50.median, p50.max};
    spread.p99 = {p99.min, p99.median, p99.max};
    for (const auto k : largest_first(p99s, worst_count)) {
        spread.worst.push_back(timed[k]);
    }
    return spread;
}

}  // namespace sctp_perf
