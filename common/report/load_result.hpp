// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a load-mode run (--rate or --throughput) hands to the report writers.
//
// Counts exclude the primer and the end-of-test message. Latencies are in
// nanoseconds in the histograms and printed in microseconds.
//
// Memory: the run's latencies keep full resolution (log_linear_histogram,
// 280 KiB each); each flow keeps a compact_histogram (5 KiB, within 6.25 %):
// about 50 MB for 10,000 flows rather than 2.9 GB.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "options/arrival_process.hpp"
#include "protocol/server_account_blob.hpp"
#include "protocol/wire_protocol.hpp"
#include "runtime/process_usage.hpp"
#include "stats/compact_histogram.hpp"
#include "stats/log_linear_histogram.hpp"
#include "stats/one_way_split.hpp"
#include "transport/sctp_features.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {

// The server's own account of one flow, from the blob it sends at the end.
using protocol::server_account;

// A latency histogram is 280 KiB, too much to keep for each of 65535 streams:
// replies are counted on every stream, p99 is kept for the first ones.
inline constexpr std::size_t stream_samples_with_latency = 64;

// One SCTP stream's share of a run (with --streams above 1).
struct stream_result {
    std::uint16_t stream = 0;
    std::uint64_t replies = 0;
    std::optional<double> p99_us;  // kept for the first streams only (see stream_samples)
};

// Fan-out: one server's share of a run, its flows k, k + S, k + 2S, ...
// of S servers. Counts as the run's (primer and warm-up left out); the
// latency is the run's headline, of this server's flows only.
struct server_result {
    std::string server;  // "host:port", as -H asked for it
    unsigned flows = 0;
    std::uint64_t messages_sent = 0;
    std::uint64_t messages_received_by_server = 0;  // its own account
    std::uint64_t messages_echo_requested = 0;
    std::uint64_t messages_replied = 0;
    std::uint64_t messages_lost = 0;
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_replied = 0;
    server_account account;  // its flows' accounts, as load_result::server adds them
    std::unique_ptr<log_linear_histogram> latency;
};

struct flow_result {
    unsigned flow = 0;
    std::uint64_t messages_sent = 0;
    std::uint64_t messages_echo_requested = 0;
    std::uint64_t messages_replied = 0;
    // Of the measured messages and their replies, counted as each whole one
    // went out or was matched.
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_replied = 0;
    std::uint64_t messages_lost = 0;
    std::uint64_t messages_abandoned = 0;  // missing replies under PR-SCTP
    std::uint64_t messages_duplicated = 0;
    // --warmup: messages sent in the warm-up, in no other count; the server
    // counts them (and the primer) in its own.
    std::uint64_t warmup_messages = 0;
    // System calls that sent the measured and warm-up messages (--batch),
    // each one that took bytes; one refused for want of room is not counted.
    std::uint64_t send_calls = 0;
    pr_sctp_abandoned kernel_abandoned;  // requests this end's kernel gave up
    std::optional<transport_counters> transport;
    double rate_per_s = 0.0;  // between its first and last send
    // The headline latency: corrected (rate) or from the send (otherwise).
    compact_histogram latency;
    server_account server;
};

struct load_result {
    protocol::test_mode mode = protocol::test_mode::rate;
    double duration_s = 0.0;  // from t0 to the last flow's end-of-test reply
    // t0 on the wall clock: when the measured load began (the first run's,
    // pooled); unset in unit tests.
    std::optional<std::chrono::system_clock::time_point> began;
    unsigned flows = 0;
    unsigned threads = 0;
    // The CPU each worker thread was pinned to (--cpu with more than one
    // worker), worker i's at i; empty when they run where the process may.
    std::vector<unsigned> worker_cpus;
    std::uint32_t echo_every = 1;
    std::uint32_t payload_bytes = 0;
    std::uint32_t reply_bytes = 0;            // of each reply
    double rate_asked_per_s = 0.0;            // per flow; 0 in throughput mode
    std::optional<arrival_process> arrivals;  // rate mode only
    std::optional<std::uint64_t> seed;        // a poisson schedule's (pooled runs: if all alike)
    double rate_achieved_per_s = 0.0;         // per flow, the mean of the flows'
    double sending_s = 0.0;                   // from the first send to the last, longest flow
    // From the first connect to the end of the last primer: how long the
    // flows took to connect, negotiate and prime. Unknown in unit tests.
    std::optional<double> setup_s;
    std::uint64_t messages_sent = 0;
    std::uint64_t warmup_messages = 0;  // --warmup: sent in it, unrecorded, all flows
    // --batch: the most messages per system call, and the calls that sent
    // the measured and warm-up messages, all flows (see flow_result).
    std::size_t batch = 1;
    std::uint64_t send_calls = 0;
    // --tick-rate: ticks per second (rate mode); unset: none.
    std::optional<double> tick_rate_per_s;
    std::uint64_t messages_received_by_server = 0;
    std::uint64_t messages_echo_requested = 0;
    std::uint64_t messages_replied = 0;
    std::uint64_t bytes_sent = 0;     // measured messages' (see flow_result)
    std::uint64_t bytes_replied = 0;  // their replies'
    std::uint64_t messages_lost = 0;
    // With PR-SCTP, replies missing at the end are counted here, not as lost;
    // the kernels' own counts of what they gave up come with them.
    bool partially_reliable = false;
    std::uint64_t messages_abandoned = 0;
    std::uint64_t requests_abandoned_by_client_kernel = 0;
    std::uint64_t replies_abandoned_by_server_kernel = 0;
    std::uint64_t messages_duplicated = 0;
    std::vector<stream_result> per_stream;        // empty with one stream
    std::optional<transport_counters> transport;  // summed over flows (see merge_counters)
    // Send time - due time of every measured message (rate mode only): how
    // late the client itself was. Its maximum is exact.
    compact_histogram schedule_slip;
    std::unique_ptr<log_linear_histogram> corrected;    // from the due time
    std::unique_ptr<log_linear_histogram> uncorrected;  // from the send
    // --one-way: the round trip from the send (uncorrected) split by the
    // server's stamps; null without.
    std::unique_ptr<one_way_split> one_way;
    double client_cpu_percent = 0.0;
    // Per worker thread, the share of its time from t0 to its last flow's end
    // spent sending and reading rather than waiting for a due time or a reply
    // (see sample_sink::busy): near 100 %, it had no time to spare.
    std::vector<double> worker_busy_percent;
    rss_tracker client_rss;
    server_account server;  // summed over flows (duration: the longest; RSS: the largest)
    std::vector<flow_result> per_flow;
    std::vector<server_result> per_server;  // fan-out only: empty with one server

    // Messages per send call achieved: the measured and warm-up messages
    // over the calls that sent them; 0 when none was sent.
    double messages_per_send_call() const noexcept {
        return send_calls > 0 ? static_cast<double>(messages_sent + warmup_messages) /
                                    static_cast<double>(send_calls)
                              : 0.0;
    }
    double payload_mb_per_s_sent() const noexcept {
        return sending_s > 0.0
                   ? static_cast<double>(messages_sent) * payload_bytes / sending_s / 1e6
                   : 0.0;
    }
    double payload_mb_per_s_received_by_server() const noexcept {
        return sending_s > 0.0 ? static_cast<double>(messages_received_by_server) * payload_bytes /
                                     sending_s / 1e6
                               : 0.0;
    }
    // The latency that heads the report: corrected in rate mode; in
    // throughput mode every latency is from the actual send.
    const log_linear_histogram& headline() const noexcept {
        return mode == protocol::test_mode::rate ? *corrected : *uncorrected;
    }
};

}  // namespace sctp_perf
