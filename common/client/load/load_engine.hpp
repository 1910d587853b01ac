// SPDX-License-Identifier: Apache-2.0
#pragma once
// The load engine: runs a load test (--rate or --throughput) over flows
// that are connected and whose test the server has accepted.
//
// Threads and I/O: each of `threads` workers drives its share of the flows
// with a non-blocking event loop (epoll): it sends what is due, reads what
// has arrived, and sleeps until the next due time. One loop per group of
// flows, rather than a send and a receive thread per flow, keeps 64 flows on
// two CPUs from becoming 128 threads competing for them, and keeps a reply's
// arrival timed by the thread that is already awake. Sleeps end early and
// spin the last stretch, since a wake-up from a timer is itself late by tens
// of microseconds and that lateness would count as latency. With channels
// that spin (--spin) the workers never sleep: each polls epoll without a
// timeout, a whole CPU per worker thread.
//
// The main thread gathers each interval's figures from the workers and
// writes the progress line, the interval CSV and the HdrHistogram log; the
// workers only record into their own histograms.

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "client/load/load_flow.hpp"
#include "client/load/load_result.hpp"

namespace sctp_perf {

struct load_outputs {
    std::ostream* progress = nullptr;  // the per-interval line (stderr), or none
    std::string interval_csv;          // paths; empty: not written
    std::string histogram_log;
    std::string latency_file;
    std::string program;  // the client's name, which starts a warning's line
};

// Runs the primer on every flow, then the measured load, then collects each
// flow's account from the server. Throws peer_error (naming the flow) when a
// peer fails, and std::system_error when an output file cannot be written.
load_result run_load_test(std::vector<std::unique_ptr<message_channel>> channels,
                          const load_plan& plan, const load_outputs& outputs);

}  // namespace sctp_perf
