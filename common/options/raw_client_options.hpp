// SPDX-License-Identifier: Apache-2.0
#pragma once
// The client's command line between reading and validation, shared by its
// option table (client_option_table.cpp) and its rules
// (client_option_rules.cpp). Only client_options.cpp puts them together.

#include <boost/program_options/variables_map.hpp>
#include <string>

#include "options/client_options.hpp"

namespace sctp_perf {

// The raw command-line values of a client, before validation.
struct raw_client_options {
    raw_common_options common;
    long long iterations = default_iterations;
    long long primer = default_primer_iterations;
    long long payload_power = -1;  // -s, or --payload-bytes: one is required
    long long payload_bytes = -1;
    long long reply_bytes = -1;  // -1: the mode's own
    bool echo = false;
    bool one_way = false;
    bool timestamps = false;
    bool half_rtt = false;
    double histogram_min_us = default_histogram.min_us;
    double histogram_max_us = default_histogram.max_us;
    long long max_outliers = static_cast<long long>(default_histogram.max_outliers);
    long long bin_count = static_cast<long long>(default_histogram.bin_count);
    long long client_port = 0;
    std::string client_addresses;
    long long server_port = default_port;
    std::string server_hosts = default_server_host;
    std::string format = "ace";
    bool all_bins = false;
    std::string json_file;
    double rate_per_s = 0.0;
    double total_rate_per_s = 0.0;
    std::string arrivals{name_of(default_arrivals)};
    long long seed = 0;
    bool throughput = false;
    long long echo_every = 0;  // 0: the mode's default
    long long batch = default_batch;
    double tick_rate_per_s = 0.0;
    double duration_s = 0.0;
    double warmup_s = std::chrono::duration<double>(default_warmup).count();
    long long flows = default_flows;
    long long threads = 0;  // 0: not given
    long long connect_window = default_connect_window;
    double interval_s = -1.0;  // -1: the mode's default
    std::string interval_csv;
    std::string histogram_log;
    std::string latency_file;
    std::string flow_csv;
    std::string csv_summary;
    long long repeat = default_repeat;
    double pause_s = 0.0;
    std::string start_at;
    bool check = false;
    bool check_lines = false;
    raw_fault_options faults;  // --at
};

// Adds the client's options (and the common layer) to `groups`.
void add_client_options(option_groups& groups, raw_client_options& raw,
                        const program_info& program);

// What --help prints around the client's options.
help_layout client_help(const option_groups& groups, const program_info& program);

// The workload options into `result`: the mode, its rate and echoes, count
// or duration, flows, threads and the per-interval outputs; a sentence in
// `errors` for each rule broken (workload_option_rules.cpp).
void validate_workload(const raw_client_options& raw,
                       const boost::program_options::variables_map& given, client_options& result,
                       std::vector<std::string>& errors);

// The client's options from the raw values; throws usage_error_list naming
// every broken rule.
client_options validate_client_options(const raw_client_options& raw,
                                       const boost::program_options::variables_map& given,
                                       const program_info& program);

}  // namespace sctp_perf
