// SPDX-License-Identifier: Apache-2.0
#pragma once
// Progress while a load test runs: one line per interval for a person watching
// stderr, and the same numbers as CSV for a script.
//
// An interval covers every flow together. Its latency is that of the timed
// messages whose replies arrived in it. In rate mode latency is "corrected":
// measured from the time a message was due, so a client that fell behind its
// schedule shows the delay instead of hiding it (coordinated omission). In
// throughput mode nothing is scheduled and latency runs from the actual send:
// "uncorrected". MB means 10^6 bytes.

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "stats/log_linear_histogram.hpp"

namespace sctp_perf {

// SCTP: one path of the first flow's association at the end of an interval,
// as SCTP_GET_PEER_ADDR_INFO gave it.
struct interval_path_state {
    std::string address;  // the peer address, "10.0.0.2:45453"
    std::string state;    // "active", "potentially_failed", "inactive", "unconfirmed"
    std::uint32_t srtt_ms = 0;
    std::uint32_t rto_ms = 0;
    std::uint32_t cwnd_bytes = 0;
};

// SCTP: the first flow's paths at the end of an interval, and the path
// events the client saw in it (every flow).
struct interval_paths_sample {
    std::string primary;  // the primary path's address
    std::uint64_t events = 0;
    std::vector<interval_path_state> paths;  // the association's peer addresses, in its order
};

struct interval_sample {
    double elapsed_s = 0;                 // end of the interval, seconds since measuring started
    double length_s = 0;                  // length of this interval
    std::uint64_t messages_sent = 0;      // requests sent in the interval
    std::uint64_t messages_received = 0;  // replies received in the interval
    std::uint64_t bytes_sent = 0;         // request bytes sent (payload incl. message header)
    std::uint64_t bytes_received = 0;     // reply bytes received
    const log_linear_histogram* latency = nullptr;  // ns; null or empty: no timed reply arrived
    bool latency_corrected = true;  // rate mode: from due time; throughput: from actual send
    double cpu_percent = 0;         // client, user + system, % of one CPU
    std::uint64_t rss_kib = 0;      // client resident set at the end of the interval
    // The end of the interval on the wall clock (t0's wall time plus
    // elapsed_s on the steady clock); unset in unit tests.
    std::optional<std::chrono::system_clock::time_point> ends_at;
    // SCTP: the paths, appended to the line and the row; null: none.
    const interval_paths_sample* paths = nullptr;
};

// One line for stderr, without its newline, e.g.
// "[   3.000 s] sent     2000 recv     2000 |     0.256 MB/s out     0.032 MB/s in |
//  corrected   p50      1.050 p99      1.099 max      1.100 us | cpu  12.5 % rss      5.2 MiB |
//  min      1.001 mean      1.051 sd      0.029 us | 2026-11-26T07:08:03.500000Z"
// (one line, wrapped here). Every field has a fixed width so successive lines
// align; latencies are in microseconds, "-" when no timed reply arrived in
// the interval (sd: fewer than two), and the time "-" when unknown. A
// zero-length interval shows rates of 0. The fields added last (min, mean,
// sd, the UTC time of the interval's end) come last, so that what reads the
// older fields by position still finds them. Over SCTP the paths come after
// them: " | primary ADDR events N | ADDR STATE srtt S rto R cwnd C, ..."
// (srtt and rto in milliseconds, as the kernel gives them, cwnd in bytes).
std::string format_interval_line(const interval_sample& s);

// Writes one CSV row per interval, after a header row whose column names carry
// their units:
// elapsed_s,length_s,messages_sent,messages_received,mb_per_s_sent,
// mb_per_s_received,p50_us,p99_us,max_us,latency_kind,cpu_percent,rss_kib,
// utc,min_us,mean_us,stddev_us,latency_samples
// latency_kind is "corrected" or "uncorrected"; the latency fields are
// empty when no timed reply arrived in the interval (stddev_us: fewer than
// two, see defined_statistics.hpp); latency_samples counts the timed replies
// they come from; utc is the end of the interval, ISO 8601 with
// microseconds, empty when unknown. Over SCTP, after those: primary_path,
// path_events, then for each path k of the first flow's association (1, 2,
// ...) pathK_address, pathK_state, pathK_srtt_ms, pathK_rto_ms,
// pathK_cwnd_bytes, as many as the first row has. Columns are only ever
// added at the end. Each row is flushed, so the file can be followed while
// the test runs.
class interval_csv_writer {
  public:
    explicit interval_csv_writer(std::ostream& out) : out_(out) {}
    // Writes the header before the first row.
    void write(const interval_sample& s);

  private:
    std::ostream& out_;
    bool header_written_ = false;
    std::size_t path_columns_ = 0;  // paths in the header, fixed by the first row
};

}  // namespace sctp_perf
