// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a load run counts, and the rules by which counts add up: a flow's,
// its server's share of the flows (fan-out), the run's, and the runs of
// --repeat pooled.
//
// The client's own counts add up the same way everywhere, so they are one
// type with one +=, which a new counter joins without a sum to be written
// for it in each place. The server's account of a flow (its blob,
// protocol/server_account_blob.hpp) adds up by one of two rules, each with a
// name: over flows that ran at once (add_flow_account), or over runs one
// after another (pool_run_account).

#include <cstdint>

#include "protocol/server_account_blob.hpp"

namespace sctp_perf {

// The server's own account of one flow, from the blob it sends at the end.
using protocol::server_account;

// Counts exclude the primer and the end-of-test message.
struct message_counts {
    std::uint64_t messages_sent = 0;
    // --warmup: messages sent in the warm-up, in no other count; the server
    // counts them (and the primer) in its own.
    std::uint64_t warmup_messages = 0;
    // System calls that sent the measured and warm-up messages (--batch),
    // each one that took bytes; one refused for want of room is not counted.
    std::uint64_t send_calls = 0;
    // The measured messages the server says it received: its own account,
    // less the primer and the warm-up it counts too.
    std::uint64_t messages_received_by_server = 0;
    std::uint64_t messages_echo_requested = 0;
    std::uint64_t messages_replied = 0;
    // Of the measured messages and their replies, counted as each whole one
    // went out or was matched.
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_replied = 0;
    std::uint64_t messages_lost = 0;
    // With PR-SCTP, replies missing at the end are counted here, not as lost;
    // the kernels' own counts of what they gave up come with them.
    std::uint64_t messages_abandoned = 0;
    std::uint64_t requests_abandoned_by_client_kernel = 0;
    std::uint64_t replies_abandoned_by_server_kernel = 0;
    std::uint64_t messages_duplicated = 0;
    // --reconnect: connections that ended in the middle of the run (each set
    // up again, or still down when the run ended); the replies owed on them
    // when they ended; the measured messages due while a flow had no
    // connection, never sent; and the measured messages sent on them, whose
    // server account ended with the connection (messages_received_by_server
    // counts only the accounts that came).
    std::uint64_t connections_lost = 0;
    std::uint64_t replies_lost_to_outages = 0;
    std::uint64_t messages_not_sent_in_outages = 0;
    std::uint64_t messages_sent_on_lost_connections = 0;

    message_counts& operator+=(const message_counts& more) noexcept;
};

// One run: adds a flow's account to the run's (or a server's, with
// fan-out). Counts add up; the duration, CPU share and memory are the
// largest, since each flow's figures are the whole server's over that flow's
// test (its sessions share the worker threads).
void add_flow_account(server_account& run, const server_account& flow);

// Pooled runs (--repeat): adds a run's account to the runs' before it.
// Counts and durations add up; the CPU share is the mean weighted by each
// run's duration; memory is the largest.
void pool_run_account(server_account& pooled, const server_account& run);

// The mean of two shares (CPU percentages) weighted by the seconds each was
// measured over; the larger when neither was measured over any time.
double duration_weighted_mean(double a, double a_s, double b, double b_s) noexcept;

}  // namespace sctp_perf
