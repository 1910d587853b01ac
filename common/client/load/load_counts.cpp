// SPDX-License-Identifier: Apache-2.0
#include "client/load/load_counts.hpp"

#include <algorithm>

#include "transport/transport_counters.hpp"

namespace sctp_perf {
namespace {

// What both rules add up alike: the server's counts and its transport's.
void add_account_counts(server_account& total, const server_account& more) {
    total.messages_received += more.messages_received;
    total.bytes_received += more.bytes_received;
    total.replies_sent += more.replies_sent;
    total.bytes_sent += more.bytes_sent;
    total.pr_abandoned += more.pr_abandoned;
    add_counters(total.transport, more.transport);
}

}  // namespace

message_counts& message_counts::operator+=(const message_counts& more) noexcept {
    messages_sent += more.messages_sent;
    warmup_messages += more.warmup_messages;
    send_calls += more.send_calls;
    messages_received_by_server += more.messages_received_by_server;
    messages_echo_requested += more.messages_echo_requested;
    messages_replied += more.messages_replied;
    bytes_sent += more.bytes_sent;
    bytes_replied += more.bytes_replied;
    messages_lost += more.messages_lost;
    messages_abandoned += more.messages_abandoned;
    requests_abandoned_by_client_kernel += more.requests_abandoned_by_client_kernel;
    replies_abandoned_by_server_kernel += more.replies_abandoned_by_server_kernel;
    messages_duplicated += more.messages_duplicated;
    connections_lost += more.connections_lost;
    replies_lost_to_outages += more.replies_lost_to_outages;
    messages_not_sent_in_outages += more.messages_not_sent_in_outages;
    messages_sent_on_lost_connections += more.messages_sent_on_lost_connections;
    return *this;
}

void add_flow_account(server_account& run, const server_account& flow) {
    add_account_counts(run, flow);
    run.duration_s = std::max(run.duration_s, flow.duration_s);
    run.cpu_percent = std::max(run.cpu_percent, flow.cpu_percent);
    run.rss_kib = std::max(run.rss_kib, flow.rss_kib);
}

void pool_run_account(server_account& pooled, const server_account& run) {
    add_account_counts(pooled, run);
    pooled.cpu_percent = duration_weighted_mean(pooled.cpu_percent, pooled.duration_s,
                                                run.cpu_percent, run.duration_s);
    pooled.duration_s += run.duration_s;
    pooled.rss_kib = std::max(pooled.rss_kib, run.rss_kib);
}

double duration_weighted_mean(double a, double a_s, double b, double b_s) noexcept {
    return a_s + b_s > 0.0 ? (a * a_s + b * b_s) / (a_s + b_s) : std::max(a, b);
}

}  // namespace sctp_perf
