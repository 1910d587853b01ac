// SPDX-License-Identifier: Apache-2.0
// The client's workload rules (validate_workload): the mode, its rate and
// echoes, count or duration, flows, threads and the per-interval outputs.
// One sentence for each rule a command line breaks; the others are in
// client_option_rules.cpp.
#include <fmt/format.h>

#include <algorithm>

#include "options/raw_client_options.hpp"
#include "protocol/wire_protocol.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

namespace {

std::optional<std::chrono::nanoseconds> seconds_option(double seconds) {
    return std::chrono::nanoseconds(static_cast<long long>(seconds * 1e9 + 0.5));
}

// --arrivals and --seed: how rate mode spreads its messages.
void validate_arrivals(const raw_client_options& raw, const po::variables_map& given, bool rate,
                       client_options& result, std::vector<std::string>& errors) {
    const auto process = parse_arrival_process(raw.arrivals);
    if (!process) {
        errors.push_back(
            fmt::format("--arrivals must be uniform, poisson or in-step, not '{}'", raw.arrivals));
    } else {
        result.arrivals = *process;
    }
    if (!rate && !given["arrivals"].defaulted()) {
        errors.push_back("--arrivals needs --rate or --total-rate: only rate mode has a schedule");
    }
    if (given.count("seed")) {
        if (result.arrivals != arrival_process::poisson) {
            errors.push_back("--seed needs --arrivals poisson: the other schedules draw nothing");
        } else if (raw.seed < 0) {
            errors.push_back("--seed must be 0 or more");
        } else {
            result.seed = static_cast<std::uint64_t>(raw.seed);
        }
    }
}

// The mode, from the options given alone (client_options::mode says why).
protocol::test_mode mode_of(const raw_client_options& raw, const po::variables_map& given) {
    if (given.count("rate") > 0 || given.count("total-rate") > 0) {
        return protocol::test_mode::rate;
    }
    if (raw.throughput) {
        return protocol::test_mode::throughput;
    }
    const bool needs_load_engine = raw.flows > 1 || given.count("threads") > 0 ||
                                   (given.count("interval") > 0 && raw.interval_s > 0.0) ||
                                   given.count("interval-csv") > 0 ||
                                   given.count("histogram-log") > 0 ||
                                   given.count("latency-file") > 0 || given.count("flow-csv") > 0;
    return needs_load_engine ? protocol::test_mode::framed_ping_pong
                             : protocol::test_mode::ping_pong;
}

// --rate, --total-rate and --throughput: one of them at most, and the rate
// per flow.
void validate_rate(const raw_client_options& raw, const po::variables_map& given,
                   client_options& result, std::vector<std::string>& errors) {
    const bool per_flow = given.count("rate") > 0;
    const bool total = given.count("total-rate") > 0;
    if (per_flow && total) {
        errors.push_back(
            "--rate and --total-rate exclude each other: give the rate per flow or "
            "in all");
    }
    if ((per_flow || total) && raw.throughput) {
        errors.push_back("--rate and --throughput exclude each other: choose one mode");
    }
    if (!per_flow && !total) {
        return;
    }
    const double per_flow_rate =
        total ? raw.total_rate_per_s / static_cast<double>(std::max(raw.flows, 1LL))
              : raw.rate_per_s;
    if (!(per_flow_rate > 0.0 && per_flow_rate <= 10'000'000.0)) {
        errors.push_back(total ? "--total-rate must be more than 0 and at most 10000000 "
                                 "messages per second per flow"
                               : "--rate must be more than 0 and at most 10000000 messages "
                                 "per second");
    }
    result.rate_per_s = per_flow_rate;
}

// --echo-every: the load modes' share of timed messages. After the mode.
void validate_echo_every(const raw_client_options& raw, const po::variables_map& given,
                         client_options& result, std::vector<std::string>& errors) {
    if (!given.count("echo-every")) {
        result.echo_every =
            result.mode == protocol::test_mode::throughput ? default_throughput_echo_every : 1;
    } else if (result.mode != protocol::test_mode::rate &&
               result.mode != protocol::test_mode::throughput) {
        errors.push_back(
            "--echo-every needs --rate or --throughput (ping-pong times every round trip)");
    } else if (raw.echo_every < 1 || raw.echo_every > 1'000'000) {
        errors.push_back("--echo-every must be 1..1000000");
    } else {
        result.echo_every = static_cast<std::uint32_t>(raw.echo_every);
    }
}

// --batch and --tick-rate: how the load modes group their sends. After the
// mode.
void validate_batch_ticks(const raw_client_options& raw, const po::variables_map& given,
                          client_options& result, std::vector<std::string>& errors) {
    const bool rate = result.mode == protocol::test_mode::rate;
    const bool load = rate || result.mode == protocol::test_mode::throughput;
    if (!given["batch"].defaulted()) {
        if (!load) {
            errors.push_back(
                "--batch needs --rate or --throughput: ping-pong has one request in flight, so "
                "there is never more than one to send");
        } else if (raw.batch < 1 || raw.batch > max_batch) {
            errors.push_back(fmt::format("--batch must be 1..{}", max_batch));
        } else {
            result.batch = static_cast<unsigned>(raw.batch);
        }
    }
    if (!given.count("tick-rate")) {
        return;
    }
    if (result.mode == protocol::test_mode::throughput) {
        errors.push_back(
            "--tick-rate needs --rate, not --throughput: throughput mode sends every message "
            "at once, on no schedule to cut into ticks");
    } else if (!rate) {
        errors.push_back(
            "--tick-rate needs --rate or --total-rate: ping-pong sends each request when the "
            "last reply is in, on no schedule to cut into ticks");
    } else if (!(raw.tick_rate_per_s >= 1.0 && raw.tick_rate_per_s <= max_tick_rate_per_s)) {
        errors.push_back(
            fmt::format("--tick-rate must be 1..{:.0f} ticks per second", max_tick_rate_per_s));
    } else {
        result.tick_rate_per_s = raw.tick_rate_per_s;
    }
}

// --duration: a time instead of -c.
void validate_duration(const raw_client_options& raw, const po::variables_map& given,
                       client_options& result, std::vector<std::string>& errors) {
    if (!given.count("duration")) {
        return;
    }
    if (!given["test-iterations"].defaulted()) {
        errors.push_back(
            "-c/--test-iterations and --duration exclude each other: give a count or a time");
    }
    if (!(raw.duration_s > 0.0 && raw.duration_s <= 86400.0)) {
        errors.push_back("--duration must be more than 0 and at most 86400 seconds");
    } else {
        result.duration = seconds_option(raw.duration_s);
    }
}

// --warmup: seconds run and not recorded before a --duration. After
// validate_duration.
void validate_warmup(const raw_client_options& raw, const po::variables_map& given,
                     client_options& result, std::vector<std::string>& errors) {
    if (given["warmup"].defaulted()) {
        return;
    }
    if (!given.count("duration")) {
        errors.push_back(
            "--warmup needs --duration: a counted run (-c) warms up with --primer round trips");
    } else if (!(raw.warmup_s >= 0.0 && raw.warmup_s <= 3600.0)) {
        errors.push_back("--warmup must be 0..3600 seconds");
    } else {
        result.warmup = *seconds_option(raw.warmup_s);
    }
}

// --flows, --connect-window and --threads. Without --threads the count is
// left at 0, for client/machine_defaults to decide from the machine.
void validate_flows(const raw_client_options& raw, const po::variables_map& given,
                    client_options& result, std::vector<std::string>& errors) {
    if (raw.flows < 1 || raw.flows > max_flows) {
        errors.push_back(fmt::format("--flows must be 1..{}", max_flows));
    } else {
        result.flows = static_cast<unsigned>(raw.flows);
    }
    if (raw.connect_window < 1 || raw.connect_window > max_flows) {
        errors.push_back(fmt::format("--connect-window must be 1..{}", max_flows));
    } else {
        result.connect_window = static_cast<unsigned>(raw.connect_window);
    }
    if (given.count("threads")) {
        if (raw.threads < 1 || raw.threads > raw.flows) {
            errors.push_back("--threads must be 1..--flows");
        } else {
            result.threads = static_cast<unsigned>(raw.threads);
        }
    }
}

// --interval and the files of one run: progress lines, interval logs, every
// message, every flow. After the mode.
void validate_interval_outputs(const raw_client_options& raw, const po::variables_map& given,
                               client_options& result, std::vector<std::string>& errors) {
    if (given.count("interval")) {
        if (raw.interval_s != 0.0 && !(raw.interval_s >= 0.01 && raw.interval_s <= 3600.0)) {
            errors.push_back("--interval must be 0 (no progress lines) or 0.01..3600 seconds");
        } else if (raw.interval_s > 0.0) {
            result.interval = seconds_option(raw.interval_s);
        }
    } else if (result.mode == protocol::test_mode::rate ||
               result.mode == protocol::test_mode::throughput) {
        result.interval = default_load_interval;  // ping-pong: none unless asked
    }
    const auto output_file = [&](const char* name, const std::string& value, std::string& into) {
        if (given.count(name) && value.empty()) {
            errors.push_back(fmt::format("--{} needs a file name", name));
        }
        into = value;
    };
    output_file("interval-csv", raw.interval_csv, result.interval_csv);
    output_file("histogram-log", raw.histogram_log, result.histogram_log);
    output_file("latency-file", raw.latency_file, result.latency_file);
    output_file("flow-csv", raw.flow_csv, result.flow_csv);
    output_file("csv-summary", raw.csv_summary, result.csv_summary);
    if ((!result.interval_csv.empty() || !result.histogram_log.empty()) && !result.interval) {
        errors.push_back("--interval-csv and --histogram-log need an --interval above 0");
    }
}

// Every framed request opens with the 16-byte message header, so a framed
// mode needs a payload of 16 bytes or more. After the mode.
void validate_framed_payload(const raw_client_options& raw, const po::variables_map& given,
                             const client_options& result, std::vector<std::string>& errors) {
    if (result.mode == protocol::test_mode::ping_pong) {
        return;
    }
    const bool load = result.mode != protocol::test_mode::framed_ping_pong;
    if (given.count("payload-size-power-of-2") && raw.payload_power >= 0 && raw.payload_power < 4) {
        errors.push_back(load ? "--rate and --throughput need -s 4 or more: each request opens "
                                "with a 16-byte message header"
                              : "ping-pong with --flows, --threads, --interval or their files "
                                "needs -s 4 or more: each request then opens with a 16-byte "
                                "message header");
    }
    if (given.count("payload-bytes") && raw.payload_bytes >= 1 &&
        raw.payload_bytes < protocol::min_load_payload_bytes) {
        errors.push_back(load ? "--rate and --throughput need --payload-bytes 16 or more: each "
                                "request opens with a 16-byte message header"
                              : "ping-pong with --flows, --threads, --interval or their files "
                                "needs --payload-bytes 16 or more: each request then opens with "
                                "a 16-byte message header");
    }
}

}  // namespace

// The workload options: the mode, its rate and echoes, count or duration,
// flows, threads and the per-interval outputs.
void validate_workload(const raw_client_options& raw, const po::variables_map& given,
                       client_options& result, std::vector<std::string>& errors) {
    result.mode = mode_of(raw, given);
    validate_rate(raw, given, result, errors);
    validate_arrivals(raw, given, result.mode == protocol::test_mode::rate, result, errors);
    validate_echo_every(raw, given, result, errors);
    validate_batch_ticks(raw, given, result, errors);
    validate_duration(raw, given, result, errors);
    validate_warmup(raw, given, result, errors);
    validate_flows(raw, given, result, errors);
    validate_interval_outputs(raw, given, result, errors);
    validate_framed_payload(raw, given, result, errors);
}

}  // namespace sctp_perf
