// SPDX-License-Identifier: Apache-2.0
#pragma once
// A client's JSON report read back: the one reader of what the clients
// write (json_report.cpp, --format json, format_version 2 or later), typed,
// so that sctp-perf-compare reads the configuration, settings, percentiles,
// histograms and counts of a report through names checked by the compiler
// rather than keys spelled again where each is used. The keys and what each
// means are doc/report.schema.json's; the unit tests write reports with the
// writer and read them back here, so that the two cannot drift apart.
//
// A report is refused, with one sentence naming the file and why (an
// input_error), when it is not JSON, not an sctp-perf client's report, in
// an older format, the report of a failed run ("error") or of an
// interrupted one, or lacks a percentile every run states: a figure resting
// on such a file would mislead. So is a report at odds with itself: a number
// that no run can give (a time below 1 ns or above 2^64 ns; 1e308 is JSON),
// a text where a number belongs, percentiles that fall before the maximum,
// or percentiles that its own hdr_histogram does not give. Each such
// sentence names the key.
//
// What a merge of several clients needs beyond that (the series' histograms,
// the load counts, when the client measured) is read apart, by
// read_report_figures, which refuses more: a report without histograms, or
// whose histogram disagrees with its own summary.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "options/start_time.hpp"
#include "stats/log_linear_histogram.hpp"

namespace sctp_perf {

// The configuration of a report that decides whether two runs measure the
// same thing; nagle is shown, never a reason to refuse.
struct run_config {
    std::string service;    // "stream" or "seqpack"
    std::string transport;  // "tcp" or "sctp"
    std::string mode;       // "ping-pong", "rate" or "throughput"
    unsigned long long payload_bytes = 0;
    unsigned long long reply_bytes = 0;
    bool nagle = false;
    bool operator==(const run_config&) const = default;
};

// The settings that change what a run measures but in which two runs
// compared may differ, since they are what a comparison is often about
// (Nagle is run_config's). nullopt where a report does not state it (a
// ping-pong run has no flows, a TCP run no streams).
struct run_settings {
    std::optional<bool> spin;         // config.spin: the client polls while it waits
    std::optional<bool> server_spin;  // server.spin: the server does
    // config.poll_before_sleep_us, server.poll_before_sleep_us: how long
    // each end's waits poll before they sleep (--poll-before-sleep).
    std::optional<unsigned long long> poll_before_sleep_us;
    std::optional<unsigned long long> server_poll_before_sleep_us;
    // config.timestamps: the client took kernel stamps of each round trip
    // (--timestamps), which costs it a little; a report from before the
    // option took none, and is read as saying so.
    std::optional<bool> timestamps;
    std::optional<unsigned long long> streams;  // sctp.streams_used
    std::optional<bool> unordered;              // sctp.unordered
    std::optional<std::string> arrivals;        // load.arrivals: uniform, poisson, in-step
    std::optional<double> rate_per_s;           // config.rate_per_s, each flow's
    std::optional<unsigned long long> flows;    // config.flows
    std::optional<unsigned long long> batch;    // config.batch: messages per send call, at most
    bool operator==(const run_settings&) const = default;
};

// A percentile a report states: its key ("p99_9_us", "max_us"), its share
// in parts per million (10^6 for the maximum), and its value.
struct stated_percentile {
    std::string key;
    std::uint32_t parts_per_million = 0;
    double us = 0.0;
};

// How many of reported_percentiles (stats/latency_recorder.hpp), from the
// first, every run that timed a round trip states: p50, p90, p99 and
// p99.9, with the maximum. The rarer ones may be absent or null.
inline constexpr std::size_t always_stated_percentiles = 4;

struct client_report {
    std::string source;   // its path, for messages
    std::string content;  // the whole document as one canonical text
    // The whole document, checked as above; what read_report_figures reads.
    nlohmann::json document;
    std::string program;  // SOCK_STREAM_clt, SOCK_SEQPACK_clt
    run_config config;
    run_settings settings;
    // Each run's percentiles, from p50 up to the maximum, those stated: a
    // plain report is one run; a report of repeated runs (--repeat), with a
    // "runs" array, is one run per element, whose pooled figures at the top
    // are summaries of those runs and are only checked.
    std::vector<std::vector<stated_percentile>> runs;
};

// Reads one report's text; `source` names it in every message. Throws
// input_error.
client_report read_client_report(std::string_view text, const std::string& source);

// One latency series of a report: its histogram, whose extremes are the
// exact ones of the series' summary, and that summary's mean and deviation
// (exact, where the histogram knows each value only to its bucket).
struct latency_series {
    log_linear_histogram histogram;
    double mean_us = 0.0;
    double stddev_us = 0.0;
};

// A load mode's figures of one client (the report's "load" object).
struct reported_load {
    // The counts that add up over clients (load_count_keys), by key.
    std::map<std::string, std::uint64_t> counts;
    unsigned flows = 1;
    double rate_asked_per_flow_s = 0.0;  // 0 when not asked
    double rate_achieved_per_flow_s = 0.0;
    double payload_mb_per_s_sent = 0.0;
    double payload_mb_per_s_received_by_server = 0.0;
    // load.latency_corrected (rate mode only) and load.latency_uncorrected.
    std::optional<latency_series> corrected;
    std::optional<latency_series> uncorrected;
};

// The count keys of the load object that add up over clients, in the order
// a merged report lists them; "server_" ones are the load.server object's.
const std::vector<std::string>& load_count_keys();

// What a merge of several clients' runs reads of one report beyond
// client_report.
struct report_figures {
    std::string hostname;  // environment.hostname
    // environment.measurement_began_at: when this client began to measure,
    // to the microsecond, which is what runs of several hosts are aligned
    // on (environment.started_at is when the client started, to the second,
    // before it connected). Empty when the report has none (a run that never
    // began to measure, or a merged report).
    std::string measurement_began_at;
    std::optional<wall_time> measurement_began;
    // start_at.requested and start_at.late_us (microseconds, positive: late)
    // when the client was given --start-at; empty and nullopt otherwise.
    std::string start_at_requested;
    std::optional<double> start_late_us;
    double duration_s = 0.0;  // summary.duration_s
    // The percentiles as the client reported them (p50_us, p99_us, max_us, ...).
    nlohmann::json percentiles;
    latency_series headline;  // the report's summary, percentiles and hdr_histogram
    std::optional<reported_load> load;
};

// Throws input_error for a report with no hdr_histogram (a client older than
// the merge), whose histograms disagree with their summaries (count,
// minimum, maximum), or whose flows lost connections (a merge does not add
// up outages).
report_figures read_report_figures(const client_report& report);

}  // namespace sctp_perf
