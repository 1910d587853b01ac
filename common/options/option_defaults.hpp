// SPDX-License-Identifier: Apache-2.0
#pragma once
// The default of every option that has one, defined once. The options
// structs start from these, so do the raw command-line values before
// validation, and --help shows them (default_text, number_values.hpp): a
// default changed here changes all three.
//
// Defaults that depend on the machine (the client's and the server's
// threads, the server's --max-clients under ulimit -n) are not options'
// defaults but decisions taken when the program starts
// (client/machine_defaults, server_main); the options leave them at 0.

#include <chrono>
#include <cstdint>

#include "options/arrival_process.hpp"
#include "stats/binned_histogram.hpp"
#include "transport/transport_protocol.hpp"

namespace sctp_perf {

// Every program.
// The port a server listens on (-p) and a client connects to unless told.
inline constexpr std::uint16_t default_port = 45453;
inline constexpr transport_protocol default_transport = transport_protocol::sctp;  // -t
inline constexpr std::chrono::milliseconds default_io_timeout{10'000};             // --io-timeout
inline constexpr long long default_streams = 1;                                    // --streams
// --poll-before-sleep: how long a wait polls before it sleeps
// (transport/poll_before_sleep.hpp); 0 sleeps at once.
inline constexpr std::chrono::microseconds default_poll_before_sleep{0};

// The clients.
inline constexpr std::uint32_t default_iterations = 1'000'000;  // -c, primer not included
// --primer: unrecorded round trips per flow before measuring, as ACE made.
inline constexpr std::uint32_t default_primer_iterations = 100;
// --warmup: with --duration, seconds run before measuring and not recorded.
inline constexpr std::chrono::seconds default_warmup{0};
inline constexpr unsigned default_flows = 1;                                   // --flows
inline constexpr unsigned default_repeat = 1;                                  // --repeat
inline constexpr const char* default_server_host = "localhost";                // -H
inline constexpr arrival_process default_arrivals = arrival_process::uniform;  // --arrivals
// -m, -M, -b and -x: the histogram's own defaults.
inline constexpr bin_layout default_histogram{};
// --echo-every with --throughput (with --rate every message is timed).
inline constexpr std::uint32_t default_throughput_echo_every = 1000;
// --batch: one message per system call, as without it.
inline constexpr unsigned default_batch = 1;
// The most --batch takes: what one gathering write (IOV_MAX) or one
// sendmmsg() (UIO_MAXIOV) takes on Linux, transport's max_batch_messages.
inline constexpr unsigned max_batch = 1024;
// The most --tick-rate takes, ticks per second: a tick of 1 us.
inline constexpr double max_tick_rate_per_s = 1'000'000.0;
// --interval in the load modes (ping-pong prints no progress lines unless asked).
inline constexpr std::chrono::seconds default_load_interval{1};

// How many flows SOCK_STREAM_clt sets up at once by default. Each flow
// waits about two round trips, so over a 10 ms path 10,000 flows wait
// 0.8 s at 256; over loopback 64 to 1024 did no better than one another
// (bench/README.md, ten_thousand_flows.sh). Few enough that a burst of
// SYNs stays within a listener's default backlog (the kernel's somaxconn,
// 4096 since Linux 5.4).
inline constexpr unsigned default_connect_window = 256;

// The servers.
// --max-clients by default, where the descriptor limit allows it: enough
// for a load test of thousands of flows.
inline constexpr unsigned default_max_clients = 10'000;
// How long a new connection may take to deliver its whole test header,
// busy or not: a silent or trickling one must not hold a slot for long.
inline constexpr std::chrono::milliseconds default_header_timeout{2000};
inline constexpr std::chrono::seconds default_idle_report{60};  // --idle-report

}  // namespace sctp_perf
