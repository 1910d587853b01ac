// SPDX-License-Identifier: Apache-2.0
// The client's rules: one sentence for each one a command line breaks (the
// workload's are in workload_option_rules.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>

#include "options/raw_client_options.hpp"
#include "options/server_list.hpp"
#include "protocol/wire_protocol.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

namespace {

std::optional<report_format> parse_format(std::string text) {
    for (auto& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (text == "ace") {
        return report_format::ace;
    }
    if (text == "json") {
        return report_format::json;
    }
    return std::nullopt;
}

// -s or --payload-bytes: the size of every request.
void validate_payload(const raw_client_options& raw, const po::variables_map& given,
                      client_options& result, std::vector<std::string>& errors) {
    const bool power = given.count("payload-size-power-of-2") > 0;
    const bool bytes = given.count("payload-bytes") > 0;
    if (power && bytes) {
        errors.push_back(
            "-s/--payload-size-power-of-2 and --payload-bytes exclude each other: give the "
            "payload as a power of 2 or in bytes");
    } else if (!power && !bytes) {
        errors.push_back(
            "-s/--payload-size-power-of-2 or --payload-bytes is required: the payload is 2^s "
            "bytes, s in 0..16, or N bytes, N in 1..65536");
    } else if (power) {
        if (raw.payload_power < 0 || raw.payload_power > 16) {
            errors.push_back("-s/--payload-size-power-of-2 must be 0..16 (1 to 65536 bytes)");
        } else {
            result.payload_power = static_cast<unsigned>(raw.payload_power);
        }
    } else if (raw.payload_bytes < 1 || raw.payload_bytes > protocol::max_payload_bytes) {
        errors.push_back("--payload-bytes must be 1..65536");
    } else {
        result.payload_bytes_given = static_cast<std::uint32_t>(raw.payload_bytes);
        // Its base-2 logarithm, rounded down: exact for a power of 2.
        result.payload_power =
            static_cast<unsigned>(std::bit_width(result.payload_bytes_given) - 1);
    }
}

// Why a reply size (--reply-bytes, or --echo's payload) is too small or too
// large; `stamp_bytes` of the server's timestamps ride in every reply (0
// without --one-way).
std::string reply_size_rule(bool framed, std::uint32_t smallest, std::size_t stamp_bytes) {
    if (stamp_bytes != 0) {
        const char* which =
            stamp_bytes == protocol::server_stamps_size ? "--one-way"
            : stamp_bytes == protocol::server_stamps_size + protocol::server_receive_stamp_size
                ? "--one-way and --timestamps"
                : "--one-way and --timestamps over TCP";
        return framed ? fmt::format(
                            "--reply-bytes must be {}..65536 with {}: a framed reply "
                            "carries its request's 16-byte message header, then the "
                            "server's {} bytes of timestamps",
                            smallest, which, stamp_bytes)
                      : fmt::format(
                            "--reply-bytes must be {}..65536 with {}: a ping-pong reply "
                            "carries the request's two check bytes around the server's "
                            "{} bytes of timestamps",
                            smallest, which, stamp_bytes);
    }
    return framed ? "--reply-bytes must be 16..65536 here: a framed reply carries its "
                    "request's 16-byte message header (sequence and token), which the "
                    "client matches"
                  : "--reply-bytes must be 2..65536: a ping-pong reply carries the "
                    "request's first and last check bytes";
}

// --reply-bytes or --echo: the size of every reply. After validate_workload
// and validate_payload, whose mode and payload it reads.
void validate_reply(const raw_client_options& raw, const po::variables_map& given,
                    client_options& result, std::vector<std::string>& errors) {
    const bool sized = given.count("reply-bytes") > 0;
    if (sized && raw.echo) {
        errors.push_back(
            "--reply-bytes and --echo exclude each other: --echo is a reply of the payload's "
            "size");
        return;
    }
    const bool framed = result.mode != protocol::test_mode::ping_pong;
    result.one_way = raw.one_way;
    result.half_rtt = raw.half_rtt;
    const bool receive_stamps = raw.one_way && raw.timestamps;
    // Over TCP the server's kernel stamps its replies too.
    const bool transmit_stamps =
        receive_stamps && result.common.transport == transport_protocol::tcp;
    const auto smallest =
        protocol::min_reply_bytes(result.mode, raw.one_way, receive_stamps, transmit_stamps);
    const auto stamp_bytes = smallest - protocol::min_reply_bytes(result.mode);
    if (sized) {
        if (raw.reply_bytes < smallest || raw.reply_bytes > protocol::max_reply_bytes) {
            errors.push_back(reply_size_rule(framed, smallest, stamp_bytes));
        } else {
            result.reply_bytes = static_cast<std::uint32_t>(raw.reply_bytes);
        }
    } else if (raw.echo) {
        const auto payload = result.payload_bytes();
        const bool payload_valid = given.count("payload-bytes")
                                       ? result.payload_bytes_given != 0
                                       : raw.payload_power >= 0 && raw.payload_power <= 16;
        if (!payload_valid) {
            return;  // said by validate_payload
        }
        if (payload < smallest) {
            errors.push_back(raw.one_way
                                 ? fmt::format("--echo with --one-way needs a payload of {} "
                                               "bytes or more: the echo carries the server's "
                                               "{} bytes of timestamps after {}",
                                               smallest, stamp_bytes,
                                               framed ? "the 16-byte message header"
                                                      : "the first check byte, and the last "
                                                        "check byte after them")
                                 : "--echo needs a payload of 2 bytes or more: a "
                                   "ping-pong reply carries the request's first and "
                                   "last check bytes (2 bytes)");
        } else {
            result.reply_bytes = payload;
            result.echo = true;
        }
    }
}

// --repeat and --pause: how many runs, and the wait between two of them.
void validate_repeat(const raw_client_options& raw, const po::variables_map& given,
                     client_options& result, std::vector<std::string>& errors) {
    if (raw.repeat < 1 || raw.repeat > max_repeat) {
        errors.push_back(fmt::format("--repeat must be 1..{}", max_repeat));
    } else {
        result.repeat = static_cast<unsigned>(raw.repeat);
    }
    if (given.count("pause")) {
        if (raw.repeat <= 1) {
            errors.push_back("--pause needs --repeat above 1: it is the wait between runs");
        } else if (!(raw.pause_s >= 0.0 && raw.pause_s <= 3600.0)) {
            errors.push_back("--pause must be 0..3600 seconds");
        } else {
            result.pause =
                std::chrono::nanoseconds(static_cast<long long>(raw.pause_s * 1e9 + 0.5));
        }
    }
    if (raw.repeat > 1) {
        for (const char* file : {"latency-file", "histogram-log", "interval-csv", "flow-csv"}) {
            if (given.count(file)) {
                errors.push_back(
                    fmt::format("--{} describes one run: it cannot be given with --repeat above 1 "
                                "(--json-file holds every run)",
                                file));
            }
        }
    }
}

// --start-at: the instant, no further off than max_start_ahead, for one run.
// An instant already past is found when the client is about to connect or
// to measure, and is a runtime failure then (client/start_wait.hpp): the
// same command line is right a second earlier.
void validate_start_at(const raw_client_options& raw, const po::variables_map& given,
                       client_options& result, std::vector<std::string>& errors) {
    if (!given.count("start-at")) {
        return;
    }
    const auto parsed = parse_start_time(raw.start_at);
    if (!parsed.time) {
        errors.push_back(parsed.error);
        return;
    }
    const auto ahead = *parsed.time - std::chrono::system_clock::now();
    if (ahead > max_start_ahead) {
        errors.push_back(fmt::format(
            "--start-at {} is {:.1f} h ahead, more than 24 h: check its date and zone",
            raw.start_at, std::chrono::duration<double, std::ratio<3600>>(ahead).count()));
    }
    // The runs of --repeat follow one another at times that depend on how
    // long each takes, which no other host knows: only one run can be
    // aligned, and a repeated test would misalign the rest silently.
    if (raw.repeat > 1) {
        errors.push_back(
            "--start-at aligns one run across hosts; it cannot be given with --repeat above 1 "
            "(start each run with its own --start-at)");
    }
    result.start_at = parsed.time;
}

// -c and --primer. A ping-pong test header carries their sum, which the
// server takes up to protocol::max_iterations.
void validate_iterations(const raw_client_options& raw, client_options& result,
                         std::vector<std::string>& errors) {
    if (raw.iterations < 1 || raw.iterations > protocol::max_measured_iterations) {
        errors.push_back(
            fmt::format("-c/--test-iterations must be 1..{}", protocol::max_measured_iterations));
    } else {
        result.iterations = static_cast<std::uint32_t>(raw.iterations);
    }
    if (raw.primer < 0 || raw.primer > max_primer_iterations) {
        errors.push_back(fmt::format("--primer must be 0..{}", max_primer_iterations));
    } else if (raw.iterations >= 1 && raw.iterations + raw.primer > protocol::max_iterations) {
        errors.push_back(fmt::format(
            "-c/--test-iterations plus --primer must be at most {}, the most a server takes: "
            "lower one of them",
            protocol::max_iterations));
    } else {
        result.primer_iterations = static_cast<std::uint32_t>(raw.primer);
    }
}

// -m, -M, -b and -x: the histogram's edges, bins and outliers kept.
void validate_histogram(const raw_client_options& raw, client_options& result,
                        std::vector<std::string>& errors) {
    result.histogram.min_us = raw.histogram_min_us;
    result.histogram.max_us = raw.histogram_max_us;
    // Bin edges are computed in doubles: bounded values keep every edge
    // finite and distinct, and a round trip of 1000 s is no latency anyway.
    constexpr double histogram_limit_us = 1e9;
    if (!(raw.histogram_min_us >= 0.0 && raw.histogram_min_us < histogram_limit_us)) {
        errors.push_back("-m/--histogram-min-bin must be 0 or more and below 1e9 microseconds");
    }
    if (!(raw.histogram_max_us > raw.histogram_min_us) || !std::isfinite(raw.histogram_max_us)) {
        errors.push_back("-M/--histogram-max-bin must be finite and greater than -m");
    } else if (raw.histogram_max_us > histogram_limit_us) {
        errors.push_back("-M/--histogram-max-bin must be at most 1e9 microseconds (1000 s)");
    }
    if (raw.bin_count < 1 || raw.bin_count > 10'000'000) {
        errors.push_back("-b/--histogram-bin-count must be 1..10000000");
    } else {
        result.histogram.bin_count = static_cast<std::size_t>(raw.bin_count);
    }
    if (raw.max_outliers < 0 || raw.max_outliers > 1'000'000) {
        errors.push_back("-x/--histogram-num-outliers must be 0..1000000");
    } else {
        result.histogram.max_outliers = static_cast<std::size_t>(raw.max_outliers);
    }
}

// SOCK_STREAM_clt's -H list (options/server_list.hpp): the servers, each
// with its port. One server is written into server_hosts and server_port
// as -H HOST -p PORT would be, so that -H HOST:PORT reports the same.
void validate_servers(const raw_client_options& raw, client_options& result,
                      std::vector<std::string>& errors) {
    auto reading = parse_server_list(raw.server_hosts, result.server_port);
    if (!reading.error.empty()) {
        errors.push_back(reading.error);
        return;
    }
    result.servers = std::move(reading.servers);
    result.server_hosts.clear();
    for (const auto& server : result.servers) {
        result.server_hosts.push_back(server.host);
    }
    if (result.servers.size() == 1) {
        result.server_port = result.servers.front().port;
    }
}

// Fan-out deals the flows over the servers: each server needs one flow at
// least, and only the load engine runs several flows. After the workload.
void validate_fan_out(const client_options& result, std::vector<std::string>& errors) {
    const auto servers = result.servers.size();
    if (servers <= 1) {
        return;
    }
    if (result.flows <= 1) {
        errors.push_back(fmt::format(
            "-H/--server-host lists {} servers, but {} reaches one server: give --flows {} or "
            "more to deal the flows over them (flow k to server k modulo {}), or name one host",
            servers,
            result.mode == protocol::test_mode::ping_pong ? "plain ping-pong (one flow)"
                                                          : "a run of one flow",
            servers, servers));
    } else if (result.flows < servers) {
        errors.push_back(fmt::format(
            "-H/--server-host lists {} servers, but --flows {} leaves {} of them without a flow: "
            "give --flows {} or more, or name fewer servers",
            servers, result.flows, servers - result.flows, servers));
    }
    if (result.one_way) {
        // The split needs the server's clock: one offset, one boot id. Several
        // servers may be several hosts, each with its own clock.
        errors.push_back(fmt::format(
            "--one-way splits each round trip against one server's clock, and -H/--server-host "
            "lists {} servers: run --one-way against one server at a time",
            servers));
    }
}

// -H, -p, -i and -C: where to connect, and from where. SOCK_SEQPACK_clt
// takes lists for one multi-homed association.
void validate_endpoints(const raw_client_options& raw, const program_info& program,
                        client_options& result, std::vector<std::string>& errors) {
    if (raw.server_port < 1 || raw.server_port > 65535) {
        errors.push_back("-p/--server-port must be 1..65535");
    } else {
        result.server_port = static_cast<std::uint16_t>(raw.server_port);
    }
    if (raw.client_port < 0 || raw.client_port > 65535) {
        errors.push_back("-C/--client-port must be 0..65535 (0: the kernel picks)");
    } else {
        result.client_port = static_cast<std::uint16_t>(raw.client_port);
    }
    const bool multi = program.service == socket_service::seqpack;
    if (multi) {
        result.server_hosts = split_address_list(raw.server_hosts);
        if (result.server_hosts.empty()) {
            errors.push_back("-H/--server-host must name a host");
        }
    } else {
        validate_servers(raw, result, errors);
    }
    result.client_addresses = split_address_list(raw.client_addresses);
    if (!multi && result.client_addresses.size() > 1 && raw.flows <= 1) {
        errors.push_back(
            "-i/--client-connect-addr takes a list here only with --flows above 1, to deal the "
            "flows over the addresses; SOCK_SEQPACK_clt takes a list for one association");
    }
    check_interface_entries(result.client_addresses, "-i/--client-connect-addr", errors);
}

// --format, --json-file and --all-bins: the report.
void validate_report(const raw_client_options& raw, const po::variables_map& given,
                     client_options& result, std::vector<std::string>& errors) {
    if (const auto format = parse_format(raw.format)) {
        result.format = *format;
    } else {
        errors.push_back("--format must be ace or json, not '" + raw.format + "'");
    }
    if (given.count("json-file") && raw.json_file.empty()) {
        errors.push_back("--json-file needs a file name");
    }
    result.json_file = raw.json_file;
    result.all_bins = raw.all_bins;
    result.check_only = raw.check;
    // Alone, --check-lines never reaches the rules (check_lines reads the lines).
    if (raw.check_lines) {
        errors.push_back(
            "--check-lines is given alone: it reads the command lines to check from standard "
            "input");
    }
}

// --timestamps: every mode is split, ping-pong by turn
// (client/round_trip_stamps.hpp), the load engine's message by message
// (client/load/flow_stamps.hpp); under --reconnect a flow's new connection
// starts its stamps over (load_flow::resume).
void validate_timestamps(const raw_client_options& raw, client_options& result,
                         std::vector<std::string>& errors) {
    result.timestamps = raw.timestamps;
    // Over TCP with --one-way, plain ping-pong sends one round trip more
    // than it measures, whose reply brings the server's transmit stamp of
    // the last (client/ping_pong.cpp); a load flow's end-of-test reply
    // brings it there.
    if (result.server_transmit_stamps() && !result.load_mode() && !result.duration &&
        std::uint64_t{result.iterations} + result.primer_iterations + 1 >
            protocol::max_iterations) {
        errors.push_back(fmt::format(
            "--timestamps --one-way over TCP in ping-pong takes one round trip more than it "
            "measures, and "
            "-c/--test-iterations plus --primer plus 1 must be at most {}: lower one of them",
            protocol::max_iterations));
    }
}

// --reconnect: where a flow can be set up again and its outage measured.
void validate_reconnect(const client_options& result, bool open_loop,
                        std::vector<std::string>& errors) {
    if (!result.faults.reconnect.enabled) {
        return;
    }
    if (!open_loop) {
        errors.push_back(
            "--reconnect needs --rate or --throughput: a load flow's outage is measured against "
            "its schedule, and ping-pong has none");
    }
    if (result.one_way) {
        errors.push_back(
            "--reconnect cannot be given with --one-way: a restarted server's clock is not the "
            "one the split was measured against");
    }
    if (result.repeat > 1) {
        errors.push_back(
            "--reconnect measures one run's outages: it cannot be given with --repeat above 1");
    }
}

}  // namespace

client_options validate_client_options(const raw_client_options& raw,
                                       const po::variables_map& given,
                                       const program_info& program) {
    std::vector<std::string> errors;
    client_options result;
    result.common = validate_common_options(raw.common, given, program, errors);
    validate_iterations(raw, result, errors);
    validate_payload(raw, given, result, errors);
    validate_histogram(raw, result, errors);
    validate_endpoints(raw, program, result, errors);
    validate_report(raw, given, result, errors);
    validate_workload(raw, given, result, errors);
    validate_reply(raw, given, result, errors);
    validate_timestamps(raw, result, errors);
    validate_repeat(raw, given, result, errors);
    validate_start_at(raw, given, result, errors);
    validate_fan_out(result, errors);
    result.faults =
        validate_fault_options(raw.faults, given, result.duration, result.repeat, errors);
    const bool open_loop =
        result.mode == protocol::test_mode::rate || result.mode == protocol::test_mode::throughput;
    validate_reconnect(result, open_loop, errors);
    if (result.common.sctp.pr.any() && !open_loop) {
        errors.push_back(
            "--pr-sctp needs --rate or --throughput: in ping-pong one abandoned message would "
            "stop the round trips");
    }
    throw_if_invalid(errors, program);
    return result;
}

}  // namespace sctp_perf
