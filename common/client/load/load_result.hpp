// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a load-mode run (--rate or --throughput) hands to the report writers:
// the whole run's figures, each flow's, and with fan-out each server's.
//
// The counts (load_counts.hpp) exclude the primer and the end-of-test
// message. Latencies are in nanoseconds in the histograms and printed in
// microseconds.
//
// Memory: the run's latencies keep full resolution (log_linear_histogram,
// 280 KiB each); each flow keeps a compact_histogram (within 6.25 %, about
// a KiB: only the powers of two its latencies reached): about 13 MB for
// 10,000 flows rather than 2.9 GB.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/load/load_counts.hpp"
#include "options/arrival_process.hpp"
#include "options/fault_options.hpp"
#include "protocol/wire_protocol.hpp"
#include "runtime/process_usage.hpp"
#include "stats/compact_histogram.hpp"
#include "stats/log_linear_histogram.hpp"
#include "stats/one_way_split.hpp"
#include "stats/round_trip_split.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {

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
// of S servers: their counts added up; the latency is the run's headline, of
// this server's flows only.
struct server_result : message_counts {
    std::string server;  // "host:port", as -H asked for it
    unsigned flows = 0;
    server_account account;  // its flows' accounts (add_flow_account)
    std::unique_ptr<log_linear_histogram> latency;
};

// --reconnect: one stretch of a flow without a connection, from the moment
// it saw its connection end to the moment the server accepted its test on a
// new one. Times in seconds from t0.
struct flow_outage {
    double began_s = 0.0;
    std::optional<double> lasted_s;       // unset: still without a connection when the run ended
    std::string cause;                    // how the connection ended, as the flow saw it
    unsigned attempts = 0;                // connects tried, the one that worked included
    std::uint64_t replies_lost = 0;       // owed when the connection ended
    std::uint64_t messages_not_sent = 0;  // measured messages due meanwhile
};

struct flow_result : message_counts {
    unsigned flow = 0;
    std::vector<flow_outage> outages;  // --reconnect, in order
    std::optional<transport_counters> transport;
    double rate_per_s = 0.0;  // between its first and last send
    // The headline latency: corrected (rate) or from the send (otherwise).
    compact_histogram latency;
    server_account server;
};

// The counts are the flows' added up.
struct load_result : message_counts {
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
    // --batch: the most messages per system call (send_calls counts the calls).
    std::size_t batch = 1;
    // --tick-rate: ticks per second (rate mode); unset: none.
    std::optional<double> tick_rate_per_s;
    // PR-SCTP: missing replies count as abandoned, not lost (message_counts).
    bool partially_reliable = false;
    // --reconnect: the flows' outages are in per_flow and the counts; the
    // reports give them only when it was asked for.
    reconnect_policy reconnect;
    std::vector<stream_result> per_stream;        // empty with one stream
    std::optional<transport_counters> transport;  // summed over flows (add_counters)
    // Send time - due time of every measured message (rate mode only): how
    // late the client itself was. Its maximum is exact.
    compact_histogram schedule_slip;
    std::unique_ptr<log_linear_histogram> corrected;    // from the due time
    std::unique_ptr<log_linear_histogram> uncorrected;  // from the send
    // --one-way: the round trip from the send (uncorrected) split by the
    // server's stamps; null without.
    std::unique_ptr<one_way_split> one_way;
    // --timestamps: the round trip from the send (uncorrected) split by the
    // kernel's stamps (client/load/flow_stamps.hpp); null without.
    std::unique_ptr<round_trip_split> split;
    double client_cpu_percent = 0.0;
    // Per worker thread, the share of its time from t0 to its last flow's end
    // spent sending and reading rather than waiting for a due time or a reply
    // (see sample_sink::busy): near 100 %, it had no time to spare.
    std::vector<double> worker_busy_percent;
    rss_tracker client_rss;
    server_account server;  // the flows' accounts (add_flow_account)
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
