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

// The mean of two shares weighted by the durations they were measured over.
double weighted_mean(double a, double a_s, double b, double b_s) {
    return a_s + b_s > 0.0 ? (a * a_s + b * b_s) / (a_s + b_s) : std::max(a, b);
}

void add_transport(std::optional<transport_counters>& into,
                   const std::optional<transport_counters>& more) {
    if (!more) {
        return;
    }
    if (!into) {
        into.emplace();
    }
    add_counters(*into, *more);
}

void pool_account(server_account& pooled, const server_account& run) {
    pooled.messages_received += run.messages_received;
    pooled.bytes_received += run.bytes_received;
    pooled.replies_sent += run.replies_sent;
    pooled.bytes_sent += run.bytes_sent;
    pooled.cpu_percent =
        weighted_mean(pooled.cpu_percent, pooled.duration_s, run.cpu_percent, run.duration_s);
    pooled.duration_s += run.duration_s;
    pooled.rss_kib = std::max(pooled.rss_kib, run.rss_kib);
    pooled.pr_abandoned += run.pr_abandoned;
    add_transport(pooled.transport, run.transport);
}

void pool_flow(flow_result& pooled, const flow_result& run, std::size_t runs_before) {
    pooled.messages_sent += run.messages_sent;
    pooled.messages_echo_requested += run.messages_echo_requested;
    pooled.messages_replied += run.messages_replied;
    pooled.bytes_sent += run.bytes_sent;
    pooled.bytes_replied += run.bytes_replied;
    pooled.messages_lost += run.messages_lost;
    pooled.messages_abandoned += run.messages_abandoned;
    pooled.messages_duplicated += run.messages_duplicated;
    pooled.warmup_messages += run.warmup_messages;
    pooled.send_calls += run.send_calls;
    pooled.kernel_abandoned.unsent += run.kernel_abandoned.unsent;
    pooled.kernel_abandoned.sent += run.kernel_abandoned.sent;
    add_transport(pooled.transport, run.transport);
    pooled.rate_per_s = mean_with(pooled.rate_per_s, run.rate_per_s, runs_before);
    pooled.latency.merge(run.latency);
    pool_account(pooled.server, run.server);
}

void pool_server(server_result& pooled, const server_result& run) {
    pooled.messages_sent += run.messages_sent;
    pooled.messages_received_by_server += run.messages_received_by_server;
    pooled.messages_echo_requested += run.messages_echo_requested;
    pooled.messages_replied += run.messages_replied;
    pooled.messages_lost += run.messages_lost;
    pooled.bytes_sent += run.bytes_sent;
    pooled.bytes_replied += run.bytes_replied;
    pool_account(pooled.account, run.account);
    if (pooled.latency && run.latency) {
        pooled.latency->merge(*run.latency);
    }
}

}  // namespace

void pool_load_run(load_result& pooled, const load_result& run, std::size_t runs_before) {
    pooled.rate_achieved_per_s =
        mean_with(pooled.rate_achieved_per_s, run.rate_achieved_per_s, runs_before);
    pooled.client_cpu_percent = weighted_mean(pooled.client_cpu_percent, pooled.duration_s,
                                              run.client_cpu_percent, run.duration_s);
    pooled.duration_s += run.duration_s;
    pooled.sending_s += run.sending_s;
    if (run.setup_s) {
        pooled.setup_s = pooled.setup_s.value_or(0.0) + *run.setup_s;  // every run sets up anew
    }
    if (pooled.seed != run.seed) {
        pooled.seed.reset();
    }
    pooled.messages_sent += run.messages_sent;
    pooled.warmup_messages += run.warmup_messages;
    pooled.send_calls += run.send_calls;
    pooled.messages_received_by_server += run.messages_received_by_server;
    pooled.messages_echo_requested += run.messages_echo_requested;
    pooled.messages_replied += run.messages_replied;
    pooled.bytes_sent += run.bytes_sent;
    pooled.bytes_replied += run.bytes_replied;
    pooled.messages_lost += run.messages_lost;
    pooled.partially_reliable = pooled.partially_reliable || run.partially_reliable;
    pooled.messages_abandoned += run.messages_abandoned;
    pooled.requests_abandoned_by_client_kernel += run.requests_abandoned_by_client_kernel;
    pooled.replies_abandoned_by_server_kernel += run.replies_abandoned_by_server_kernel;
    pooled.messages_duplicated += run.messages_duplicated;
    for (std::size_t s = 0; s < pooled.per_stream.size() && s < run.per_stream.size(); ++s) {
        auto& stream = pooled.per_stream[s];
        const auto& more = run.per_stream[s];
        stream.replies += more.replies;
        if (more.p99_us) {
            stream.p99_us = std::max(stream.p99_us.value_or(0.0), *more.p99_us);
        }
    }
    add_transport(pooled.transport, run.transport);
    pooled.schedule_slip.merge(run.schedule_slip);
    if (pooled.corrected && run.corrected) {
        pooled.corrected->merge(*run.corrected);
    }
    if (pooled.one_way && run.one_way) {
        pooled.one_way->merge(*run.one_way);
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
    pool_account(pooled.server, run.server);
    for (std::size_t f = 0; f < pooled.per_flow.size() && f < run.per_flow.size(); ++f) {
        pool_flow(pooled.per_flow[f], run.per_flow[f], runs_before);
    }
    for (std::size_t s = 0; s < pooled.per_server.size() && s < run.per_server.size(); ++s) {
        pool_server(pooled.per_server[s], run.per_server[s]);
    }
}

}  // namespace sctp_perf
