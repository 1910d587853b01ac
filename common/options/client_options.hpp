// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything a client run is configured by.

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "options/arrival_process.hpp"
#include "options/common_options.hpp"
#include "options/fault_options.hpp"
#include "options/server_list.hpp"
#include "options/start_time.hpp"
#include "protocol/wire_protocol.hpp"
#include "stats/binned_histogram.hpp"

namespace sctp_perf {

enum class report_format { ace, json };

// The most --flows a client takes. Each flow is a socket, so in practice
// the descriptor limit (ulimit -n, checked before connecting) and the local
// ports (about 28,000 per server address and port by default) bound it
// first; this bound only keeps a typo from asking for billions.
inline constexpr unsigned max_flows = 100'000;

// The most --primer takes: warm enough for any cache or path, few enough
// that a typo does not hold a server for hours before measuring.
inline constexpr std::uint32_t max_primer_iterations = 1'000'000;

// The most runs --repeat takes: enough for any interval over runs, few
// enough that a typo does not start a week of runs.
inline constexpr unsigned max_repeat = 1000;

struct client_options {
    common_options common;
    std::uint32_t iterations = default_iterations;  // measured iterations, primer not included
    // --primer: unrecorded round trips per flow before measuring. The
    // client's choice alone: the server is told the total (ping-pong) or
    // sees each primer request flagged (the framed modes).
    std::uint32_t primer_iterations = default_primer_iterations;
    // The payload: 2^payload_power bytes (-s), or any size (--payload-bytes;
    // payload_power is then its base-2 logarithm when it is a power of 2).
    unsigned payload_power = 0;
    std::uint32_t payload_bytes_given = 0;  // --payload-bytes; 0: 2^payload_power
    // The reply: 0, the mode's own (2 bytes, or the 16-byte message header
    // in the framed modes); else its size (--reply-bytes, or --echo: the
    // payload's size). The wire's reply_bytes.
    std::uint32_t reply_bytes = 0;
    bool echo = false;  // --echo: every reply is the request sent back
    // --one-way: the server stamps each request's arrival and its reply's
    // departure (the wire's server timestamps), and the reports split each
    // round trip into client->server, the server's turnaround and
    // server->client.
    bool one_way = false;
    // --timestamps: the kernel's software stamps of each request's departure
    // and each reply's arrival at the client split each round trip into the
    // client's send stack, what lies beyond the client and its receive
    // stack (stats/round_trip_split.hpp). Plain ping-pong only, for now.
    bool timestamps = false;
    // --half-rtt: the reports add RTT/2 ("half of the round trip, as RTI
    // Perftest reports") beside the round trip, never instead of it.
    bool half_rtt = false;
    bin_layout histogram = default_histogram;
    // Server addresses: SOCK_SEQPACK may list several (comma-separated) for
    // one multi-homed association; SOCK_STREAM's are its servers' hosts,
    // one per server of `servers`.
    std::vector<std::string> server_hosts{default_server_host};
    std::uint16_t server_port = default_port;
    // SOCK_STREAM: the servers, each with its port (its own or -p's); with
    // several, the flows are dealt over them (fan-out), flow k to server k
    // modulo their number (options/server_list.hpp). Empty for SOCK_SEQPACK.
    std::vector<server_endpoint> servers;
    // Local addresses: SOCK_SEQPACK binds them all, for a multi-homed
    // association; SOCK_STREAM deals its flows over them, flow k binding
    // address k modulo their number.
    std::vector<std::string> client_addresses;  // empty: any interface
    std::uint16_t client_port = 0;              // 0: the kernel picks
    report_format format = report_format::ace;
    bool all_bins = false;  // every histogram row, zero counts too, as ACE printed them
    std::string json_file;  // also write the JSON report here (any format on stdout)

    // The workload. Ping-pong is a closed loop; the load modes keep many
    // requests in flight (see client/load_engine.hpp). The mode follows
    // from the options given alone: --rate or --total-rate, rate;
    // --throughput, throughput; otherwise ping-pong, run framed on the load
    // engine when it needs the engine (several flows, --threads, progress
    // lines or per-message files), else in its leanest loop.
    protocol::test_mode mode = protocol::test_mode::ping_pong;
    double rate_per_s = 0.0;  // rate mode: messages per second per flow (--total-rate / flows)
    arrival_process arrivals = default_arrivals;  // rate mode's schedule
    std::optional<std::uint64_t> seed;  // --arrivals poisson; unset: drawn when the run starts
    std::uint32_t echo_every = 1;       // load modes: every Nth message asks for a reply
    // --batch, the load modes: due messages sent per system call, at most.
    unsigned batch = default_batch;
    // --tick-rate, rate mode: the messages due within each tick of 1/T
    // seconds go together at its start, timed from it; unset: no ticks.
    std::optional<double> tick_rate_per_s;
    std::optional<std::chrono::nanoseconds> duration;  // run for a time instead of -c
    // --warmup, with a duration: the run first goes on for this long, after
    // the primer, and records nothing of it; then `duration` is measured.
    std::chrono::nanoseconds warmup = default_warmup;
    unsigned flows = default_flows;  // connections (stream) or associations (seqpack), 1..max_flows
    // Client threads driving the flows. 0: --threads not given, and the
    // run takes min(flows, CPUs it may run on), which client/machine_defaults
    // decides: the machine's share of a run is no option's to read.
    unsigned threads = 0;
    // SOCK_STREAM: flows being set up (connecting, opening the test) at once.
    unsigned connect_window = default_connect_window;
    std::optional<std::chrono::nanoseconds> interval;  // progress line period; unset: none
    std::string interval_csv;                          // also write the progress lines as CSV here
    std::string histogram_log;                         // HdrHistogram interval log
    std::string latency_file;                          // every timed message as CSV
    std::string flow_csv;                              // every flow's figures as CSV
    std::string csv_summary;  // one line per invocation, appended (report/csv_summary.hpp)
    // Repeated runs (--repeat): each its own connections, primer and
    // measurement; the report pools them and gives the spread over runs.
    unsigned repeat = default_repeat;   // runs, 1..max_repeat
    std::chrono::nanoseconds pause{0};  // between two runs
    // --start-at: connect and prime, then begin to measure at this instant,
    // as clients on other hosts given the same instant do (client/start_wait.hpp).
    std::optional<wall_time> start_at;
    // --check: validate as a run would, then exit before connecting.
    bool check_only = false;
    // --at: commands run at instants of the measured run (client/fault_schedule.hpp).
    fault_request faults;

    // Whether the run goes through the load engine (client/load): the load
    // modes, and ping-pong over several flows or with interval outputs.
    bool load_mode() const noexcept { return mode != protocol::test_mode::ping_pong; }
    // Whether the flows are dealt over several servers (SOCK_STREAM's -H list).
    bool fan_out() const noexcept { return servers.size() > 1; }

    std::uint32_t payload_bytes() const noexcept {
        return payload_bytes_given != 0 ? payload_bytes_given : std::uint32_t{1} << payload_power;
    }
    bool payload_power_of_2() const noexcept {
        return payload_bytes() == std::uint32_t{1} << payload_power;
    }
    // --timestamps with --one-way: the server's kernel receive stamps travel
    // in every reply too (the wire's flag_server_receive_stamps).
    bool server_receive_stamps() const noexcept { return timestamps && one_way; }
    // And over TCP its kernel's transmit stamps (the wire's
    // flag_server_transmit_stamps): the kernel's SCTP makes none.
    bool server_transmit_stamps() const noexcept {
        return server_receive_stamps() && common.transport == transport_protocol::tcp;
    }
    // The size of every reply of the run.
    std::uint32_t reply_size() const noexcept {
        return reply_bytes != 0 ? reply_bytes
                                : protocol::min_reply_bytes(mode, one_way, server_receive_stamps(),
                                                            server_transmit_stamps());
    }
};

// Parses and validates a client command line. Returns nullopt when --help or
// --version was answered on `out`. Throws usage_error naming every broken rule.
std::optional<client_options> parse_client_options(int argc, const char* const* argv,
                                                   const program_info& program, std::ostream& out);

// Splits "a,b,c" into its non-empty parts.
std::vector<std::string> split_address_list(const std::string& list);

}  // namespace sctp_perf
