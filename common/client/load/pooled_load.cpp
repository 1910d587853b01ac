// SPDX-License-Identifier: Apache-2.0
#include "client/load/pooled_load.hpp"

#include <algorithm>

namespace sctp_perf {
namespace {

// The mean of `runs_before` values whose mean is `mean`, and one more.
double mean_with(double mean, double more, std::size_t runs_before) {
    const auto n = static_cast<double>(runs_before);
    return (mean * n + more) / (n + 1.0);
}

void pool_flow(flow_result& pooled, const flow_result& run, std::size_t runs_before) {
    static_cast<message_counts&>(pooled) += run;
    add_counters(pooled.transport, run.transport);
    pooled.rate_per_s = mean_with(pooled.rate_per_s, run.rate_per_s, runs_before);
    pooled.latency.merge(run.latency);
    pool_run_account(pooled.server, run.server);
}

void pool_server(server_result& pooled, const server_result& run) {
    static_cast<message_counts&>(pooled) += run;
    pool_run_account(pooled.account, run.account);
    if (pooled.latency && run.latency) {
        pooled.latency->merge(*run.latency);
    }
}

}  // namespace

void pool_load_run(load_result& pooled, const load_result& run, std::size_t runs_before) {
    pooled.rate_achieved_per_s =
        mean_with(pooled.rate_achieved_per_s, run.rate_achieved_per_s, runs_before);
    pooled.client_cpu_percent = duration_weighted_mean(pooled.client_cpu_percent, pooled.duration_s,
                                                       run.client_cpu_percent, run.duration_s);
    pooled.duration_s += run.duration_s;
    pooled.sending_s += run.sending_s;
    if (run.setup_s) {
        pooled.setup_s = pooled.setup_s.value_or(0.0) + *run.setup_s;  // every run sets up anew
    }
    if (pooled.seed != run.seed) {
        pooled.seed.reset();
    }
    static_cast<message_counts&>(pooled) += run;
    pooled.partially_reliable = pooled.partially_reliable || run.partially_reliable;
    for (std::size_t s = 0; s < pooled.per_stream.size() && s < run.per_stream.size(); ++s) {
        auto& stream = pooled.per_stream[s];
        const auto& more = run.per_stream[s];
        stream.replies += more.replies;
        if (more.p99_us) {
            stream.p99_us = std::max(stream.p99_us.value_or(0.0), *more.p99_us);
        }
    }
    add_counters(pooled.transport, run.transport);
    pooled.schedule_slip.merge(run.schedule_slip);
    if (pooled.corrected && run.corrected) {
        pooled.corrected->merge(*run.corrected);
    }
    if (pooled.one_way && run.one_way) {
        pooled.one_way->merge(*run.one_way);
    }
    if (pooled.split && run.split) {
        pooled.split->merge(*run.split);
    }
    if (pooled.uncorrected && run.uncorrected) {
        pooled.uncorrected->merge(*run.uncorrected);
    }
    for (std::size_t t = 0; t < run.worker_busy_percent.size(); ++t) {
        if (t < pooled.worker_busy_percent.size()) {
            pooled.worker_busy_percent[t] =
                std::max(pooled.worker_busy_percent[t], run.worker_busy_percent[t]);
        } else {
            pooled.worker_busy_percent.push_back(run.worker_busy_percent[t]);
        }
    }
    pooled.client_rss.merge(run.client_rss);
    pool_run_account(pooled.server, run.server);
    for (std::size_t f = 0; f < pooled.per_flow.size() && f < run.per_flow.size(); ++f) {
        pool_flow(pooled.per_flow[f], run.per_flow[f], runs_before);
    }
    for (std::size_t s = 0; s < pooled.per_server.size() && s < run.per_server.size(); ++s) {
        pool_server(pooled.per_server[s], run.per_server[s]);
    }
}

}  // namespace sctp_perf
