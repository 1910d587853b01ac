// SPDX-License-Identifier: Apache-2.0
#pragma once
// Merging the HdrHistogram interval logs (--histogram-log) of clients that
// ran at the same time on several hosts (sctp-perf-compare --merge-logs)
// into one interval log that HdrHistogram's tools read as any other.
//
// Alignment: every interval is placed by its absolute start (the log's base
// time plus the line's start) on the grid of the first log, at the nearest
// multiple of the interval length from the first log's first interval, so
// clients started together (--start-at) within a fraction of an interval
// merge interval for interval. The histograms of one place and one tag are
// added; each tag (and the untagged series) stays a series of its own.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "report/histogram_log_reader.hpp"

namespace sctp_perf::compare {

// One line of the merged log: the encoded histograms of every input line
// placed there with this tag, added up as the log is written (a decoded
// histogram takes 280 KiB, so only one is decoded at a time).
struct merged_interval {
    std::string tag;
    std::int64_t start_ms = 0;   // since merged_log::start_time_ms
    std::int64_t length_ms = 0;  // the longest of its parts'
    std::vector<std::string> parts_base64;
};

struct merged_log {
    std::int64_t start_time_ms = 0;  // since the epoch: the earliest place's start
    std::int64_t interval_ms = 0;    // the logs' interval length
    // In time order, the series in order of first appearance within a place.
    std::vector<merged_interval> intervals;
    std::vector<std::string> tags;             // in order of first appearance; "" untagged
    std::int64_t largest_misalignment_ms = 0;  // of any interval from its place
    std::vector<std::uint64_t> input_counts;   // values in each log, all tags
    std::uint64_t merged_count = 0;            // values in the merged log, all tags
};

// The interval length of a log: that of its first interval. Every interval
// is that long but the last, which ends with the run: shorter when the run
// ended inside it, and a few milliseconds longer when the run's last replies
// came just after its nominal end (the client begins no interval for them).
std::int64_t interval_length_ms(const histogram_log& log);

// Merges `logs` (at least one), named by `names` in messages. Throws
// input_error (report_reader.hpp) when one log comes twice (the same base
// time and intervals, whatever its name), or when their interval lengths
// differ by more than the log's 1 ms resolution; a log whose one interval is
// no longer than the others' is a run shorter than an interval, and merges.
merged_log merge_histogram_logs(const std::vector<histogram_log>& logs,
                                const std::vector<std::string>& names);

// The merged log, written with histogram_log_writer.
void write_merged_log(std::ostream& out, const merged_log& merged);

// What was merged, for standard output: the logs, the intervals, the tags,
// the counts and how well the intervals lined up.
void write_log_merge_summary(std::ostream& out, const merged_log& merged,
                             const std::vector<std::string>& names, const std::string& output);

// Reads every log in `paths`, merges them and writes the result to
// `output`. Throws input_error for a log that cannot be read or merged,
// std::system_error when `output` cannot be written.
merged_log merge_log_files(const std::vector<std::string>& paths, const std::string& output);

}  // namespace sctp_perf::compare
