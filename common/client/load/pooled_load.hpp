// SPDX-License-Identifier: Apache-2.0
#pragma once
// The load results of a repeated test (--repeat) pooled into one, so that
// the load report's usual sections describe all the runs together.
//
// Each figure pools as its meaning asks: counts, times and histograms add
// up (duration and sending time are the runs' sums, so the MB/s figures are
// over all of them); the achieved rates are the mean of the runs' (each a
// mean over its flows); CPU shares are the mean weighted by each run's
// duration; memory and a worker's busy share are the largest of any run.
// The server's accounts pool by pool_run_account (load_counts.hpp).
// Flow i of the pooled result is flow i of every run, and with fan-out
// server s is server s of every run; a stream's p99, of which a run keeps
// no histogram, is the largest of the runs'. A poisson seed stays only when
// every run used the same one.

#include <cstddef>

#include "client/load/load_result.hpp"

namespace sctp_perf {

// Adds `run` to `pooled`, which holds the `runs_before` runs before it (at
// least 1: the first run is the pooled result as it is). Both come from the
// same options, so their mode, flows, threads and streams agree.
void pool_load_run(load_result& pooled, const load_result& run, std::size_t runs_before);

}  // namespace sctp_perf
