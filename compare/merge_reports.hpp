// SPDX-License-Identifier: Apache-2.0
#pragma once
// Merging the reports of clients that loaded one server together from
// several hosts (sctp-perf-compare --merge): one report whose counts are the
// sums of theirs and whose latency is the distribution over every timed
// message of every client, as if one client had timed them all. Never an
// average of the clients' percentiles: p99 over 3 hosts is the p99 of all
// their messages, read from the sum of their full-resolution histograms
// (each report's "hdr_histogram", HdrHistogram's V2 encoding), with the
// clients' own percentile code (reported_percentiles).
//
// The reports are read by report/client_report.hpp: what a comparison reads
// and, with read_report_figures, the histograms and counts a merge adds up.
// Writing the merged report is merged_report's.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/comparison.hpp"
#include "options/start_time.hpp"
#include "report/client_report.hpp"

namespace sctp_perf::compare {

// What one client's report gives the merge.
struct host_run {
    std::string source;    // the report's path
    std::string content;   // the whole document as one canonical text
    std::string hostname;  // environment.hostname
    std::string program;   // SOCK_STREAM_clt, SOCK_SEQPACK_clt
    // environment.measurement_began_at: when this client began to measure,
    // to the microsecond, which is what runs of several hosts are aligned
    // on (environment.started_at is when the client started, to the second,
    // before it connected). Empty when the report has none (a run that never
    // began to measure, or a merged report).
    std::string measurement_began_at;
    std::optional<wall_time> measurement_began;
    // measurement_began plus summary.duration_s: when it stopped measuring.
    std::optional<wall_time> measurement_ended;
    // start_at.requested and start_at.late_us (microseconds, positive: late)
    // when the client was given --start-at; empty and nullopt otherwise.
    std::string start_at_requested;
    std::optional<double> start_late_us;
    run_config config;
    nlohmann::json config_doc;  // the whole config object, for the merged report
    double duration_s = 0.0;
    // The percentiles as the client reported them (p50_us, p99_us, max_us, ...).
    nlohmann::json percentiles;
    latency_series headline;  // the report's summary, percentiles and hdr_histogram
    // Load modes: load.latency_corrected (rate mode only) and
    // load.latency_uncorrected.
    std::optional<latency_series> corrected;
    std::optional<latency_series> uncorrected;
    // Load modes: the counts of the load object that add up over clients
    // (load_count_keys), by their key there.
    std::map<std::string, std::uint64_t> counts;
    unsigned flows = 0;
    double rate_asked_per_s = 0.0;     // in all flows of this client; 0 when not asked
    double rate_achieved_per_s = 0.0;  // in all its flows (ping-pong: round trips / s)
    double payload_mb_per_s_sent = 0.0;
    double payload_mb_per_s_received_by_server = 0.0;
};

// Reads one client's report from its text; `source` names it. Throws
// input_error for a report that read_client_report or read_report_figures
// refuses (report/client_report.hpp).
host_run parse_host_run(std::string_view text, const std::string& source);

// Several clients' runs as one.
struct merged_run {
    std::vector<host_run> hosts;           // in the order given
    std::vector<std::string> differences;  // configuration differences, when allowed
    // Whether the clients measured at once (the latest start before the
    // earliest end); nullopt when a report does not say when it measured.
    // When they did not (--allow-apart), `apart` says so and the merged
    // rates are not sums: the reports give none.
    std::optional<bool> at_once;
    std::string apart;
    latency_series headline;
    std::optional<latency_series> corrected;
    std::optional<latency_series> uncorrected;
    std::map<std::string, std::uint64_t> counts;
    unsigned flows = 0;
    double duration_s = 0.0;  // the longest of the clients'
    double rate_asked_per_s = 0.0;
    double rate_achieved_per_s = 0.0;
    double payload_mb_per_s_sent = 0.0;
    double payload_mb_per_s_received_by_server = 0.0;
};

// Adds the clients' runs up. Throws input_error when there are fewer than
// two, when one report comes twice (by content), when they differ in
// configuration (service, transport, mode, payload or reply size) and
// `allow_different` is false (with it the differences are kept in
// merged_run::differences), or when they did not measure at once and
// `allow_apart` is false (with it the rates are left out).
merged_run merge_host_runs(std::vector<host_run> hosts, bool allow_different,
                           bool allow_apart = false);

// Two series as one: the histograms added, the exact extremes the smaller
// and larger, and the mean and deviation (n - 1) of the pooled samples from
// each part's count, mean and deviation.
latency_series merge_series(const latency_series& a, const latency_series& b);

// Reads every report in `paths` (files, or directories of *.json as
// report_files_in finds them) and merges them. Throws input_error.
merged_run merge_report_files(const std::vector<std::string>& paths, bool allow_different,
                              bool allow_apart = false);

}  // namespace sctp_perf::compare
