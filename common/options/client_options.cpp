// SPDX-License-Identifier: Apache-2.0
#include "options/client_options.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <boost/program_options/value_semantic.hpp>
#include <cmath>

#include "protocol/wire_protocol.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

namespace {

struct raw_client_options {
    raw_common_options common;
    long long iterations = 1'000'000;
    long long payload_power = -1;  // -s, or --payload-bytes: one is required
    long long payload_bytes = -1;
    long long reply_bytes = -1;  // -1: the mode's own
    bool echo = false;
    double histogram_min_us = 0.0;
    double histogram_max_us = 10000.0;
    long long max_outliers = 100;
    long long bin_count = 1000;
    long long client_port = 0;
    std::string client_addresses;
    long long server_port = 45453;
    std::string server_hosts = "localhost";
    std::string format = "ace";
    bool all_bins = false;
    std::string json_file;
    double rate_per_s = 0.0;
    double total_rate_per_s = 0.0;
    std::string arrivals = "uniform";
    long long seed = 0;
    bool throughput = false;
    long long echo_every = 0;  // 0: the mode's default
    double duration_s = 0.0;
    long long flows = 1;
    long long threads = 0;  // 0: min(flows, online CPUs)
    long long connect_window = default_connect_window;
    double interval_s = -1.0;  // -1: the mode's default
    std::string interval_csv;
    std::string histogram_log;
    std::string latency_file;
    std::string flow_csv;
    long long repeat = 1;
    double pause_s = 0.0;
    std::string start_at;
    bool check = false;
};

void add_client_options(option_groups& groups, raw_client_options& raw,
                        const program_info& program) {
    const bool multi = program.service == socket_service::seqpack;
    auto& unreadable = raw.common.unreadable_numbers;
    // clang-format off
    groups.test.add_options()
        ("payload-size-power-of-2,s",
         count_value(raw.payload_power, unreadable, "-s/--payload-size-power-of-2",
                     count_kind::integer)->value_name("POWER"),
         "each request carries 2^POWER bytes, POWER in 0..16 (1 byte to 64 KiB); this or "
         "--payload-bytes is required")
        ("payload-bytes",
         count_value(raw.payload_bytes, unreadable, "--payload-bytes", count_kind::bytes)
             ->value_name("N"),
         "each request carries N bytes, any size from 1 to 65536 (16 or more in the framed "
         "modes); excludes -s")
        ("reply-bytes",
         count_value(raw.reply_bytes, unreadable, "--reply-bytes", count_kind::bytes)
             ->value_name("N"),
         "each reply carries N bytes, 2..65536 (16..65536 in the framed modes, whose replies "
         "carry the 16-byte message header) (default: 2 in ping-pong, 16 in the framed modes)")
        ("echo", po::bool_switch(&raw.echo),
         "each reply is the request sent back, of the payload's size (a full echo; with "
         "--throughput, of the messages --echo-every times); excludes --reply-bytes")
        ("test-iterations,c",
         count_value(raw.iterations, unreadable, "-c/--test-iterations")
             ->default_value("1000000")->value_name("N"),
         "measured round trips (per flow), after 100 unrecorded primer round trips")
        ("duration", real_value(raw.duration_s, unreadable, "--duration", real_kind::seconds)
             ->value_name("S"),
         "run for S seconds instead of a count; excludes -c")
        ("repeat", count_value(raw.repeat, unreadable, "--repeat")
             ->default_value("1")->value_name("N"),
         "run the whole test N times, 1..1000, each run on new connections after its own "
         "primer; the report pools the runs and gives each percentile's median over them "
         "with a confidence interval")
        ("pause", real_value(raw.pause_s, unreadable, "--pause", real_kind::seconds)
             ->value_name("S"),
         "with --repeat: wait S seconds between runs, 0..3600 (default: 0)")
        ("start-at", po::value(&raw.start_at)->value_name("TIME"),
         "connect and prime, then begin to measure at TIME, so that clients on several hosts "
         "measure together: ISO 8601 with a zone (2026-11-26T14:05:00Z, "
         "2026-11-26T14:05:00.250+01:00) or Unix seconds (1795701900.5), at most 24 h ahead; "
         "connecting begins 5 s before it, and a client not ready by then fails")
        ("rate", real_value(raw.rate_per_s, unreadable, "--rate", real_kind::rate)
             ->value_name("R"),
         "open loop: R messages per second per flow, each timed from when it was due "
         "(needs a payload of 16 bytes or more)")
        ("total-rate", real_value(raw.total_rate_per_s, unreadable, "--total-rate",
                                  real_kind::rate)->value_name("R"),
         "as --rate, but R messages per second over all flows, divided evenly among them")
        ("arrivals", po::value(&raw.arrivals)->default_value(raw.arrivals)
             ->value_name("uniform|poisson|in-step"),
         "how --rate spreads the flows' messages: constant rates with the flows' phases "
         "spread evenly, exponential gaps (from --seed; none above 20 mean gaps), or every "
         "flow's message k at the same instant (synchronized bursts)")
        ("seed", count_value(raw.seed, unreadable, "--seed", count_kind::integer)
             ->value_name("N"),
         "--arrivals poisson: the seed of the gaps, to repeat a run's schedule (default: "
         "drawn at random and reported)")
        // Ping-pong with --flows, --threads, --interval or an interval file
        // runs framed on the load engine, and needs -s 4 as the load modes do.
        ("throughput", po::bool_switch(&raw.throughput),
         "send as fast as the transport takes; every --echo-every'th message is timed")
        ("echo-every", count_value(raw.echo_every, unreadable, "--echo-every")->value_name("N"),
         "load modes: every Nth message asks for a reply and is timed (default: 1 with --rate, "
         "1000 with --throughput)")
        ("flows", count_value(raw.flows, unreadable, "--flows")
             ->default_value("1")->value_name("N"),
         multi ? "associations at once, 1..100000 (each needs a descriptor: see ulimit -n); "
                 "--rate and -c are per flow"
               : "connections at once, 1..100000 (each needs a descriptor: see ulimit -n); "
                 "--rate and -c are per flow")
        ("threads", count_value(raw.threads, unreadable, "--threads")->value_name("N"),
         "client threads driving the flows (default: min(flows, online CPUs))");
    if (!multi) {
        groups.test.add_options()
            ("connect-window", count_value(raw.connect_window, unreadable, "--connect-window")
                 ->default_value(std::to_string(default_connect_window))->value_name("N"),
             "flows set up at once (connecting and opening the test), 1..100000; lower it to "
             "spare a server's SYN backlog");
    }
    groups.histogram.add_options()
        ("histogram-min-bin,m",
         real_value(raw.histogram_min_us, unreadable, "-m/--histogram-min-bin",
                    real_kind::microseconds)->default_value("0")->value_name("US"),
         "lower edge of the histogram, microseconds")
        ("histogram-max-bin,M",
         real_value(raw.histogram_max_us, unreadable, "-M/--histogram-max-bin",
                    real_kind::microseconds)->default_value("10000")->value_name("US"),
         "upper edge of the histogram, microseconds")
        ("histogram-bin-count,b",
         count_value(raw.bin_count, unreadable, "-b/--histogram-bin-count")
             ->default_value("1000")->value_name("N"),
         "number of equal-width histogram bins")
        ("histogram-num-outliers,x",
         count_value(raw.max_outliers, unreadable, "-x/--histogram-num-outliers")
             ->default_value("100")->value_name("N"),
         "how many out-of-range round trips to list; the most extreme are kept")
        ("all-bins", po::bool_switch(&raw.all_bins),
         "list every bin, empty ones too, as ACE did (by default bins with a count of 0 are "
         "left out of both formats)");
    groups.connection.add_options()
        ("server-host,H", po::value(&raw.server_hosts)->default_value(raw.server_hosts)
             ->value_name(multi ? "HOSTS" : "HOST"),
         multi ? "server addresses, comma-separated, for one multi-homed association "
                 "(sctp_connectx)"
               : "server host: a name or an IPv4/IPv6 literal")
        ("server-port,p",
         count_value(raw.server_port, unreadable, "-p/--server-port", count_kind::integer)
             ->default_value("45453")->value_name("PORT"),
         "server port")
        ("client-connect-addr,i",
         po::value(&raw.client_addresses)->default_value("", "any interface")
             ->value_name(multi ? "ADDRS" : "ADDR"),
         multi ? "local addresses to bind, comma-separated (sctp_bindx)"
               : "local address to bind the client to; with --flows, a comma-separated list "
                 "deals the flows over them (flow k binds address k modulo their number), "
                 "each address giving the flows its own ephemeral ports")
        ("client-port,C",
         count_value(raw.client_port, unreadable, "-C/--client-port", count_kind::integer)
             ->default_value("0", "chosen by the kernel")->value_name("PORT"),
         "local port to bind the client to");
    groups.output.add_options()
        ("format", po::value(&raw.format)->default_value(raw.format)->value_name("ace|json"),
         "report format on stdout: the ACE histogram layout or JSON")
        ("json-file", po::value(&raw.json_file)->value_name("FILE"),
         "also write the JSON report to FILE")
        ("interval", real_value(raw.interval_s, unreadable, "--interval", real_kind::seconds)
             ->value_name("S"),
         "a progress line on stderr every S seconds (default: 1 with --rate or --throughput, "
         "none in ping-pong; 0: none)")
        ("interval-csv", po::value(&raw.interval_csv)->value_name("FILE"),
         "also write the progress lines to this CSV file")
        ("histogram-log", po::value(&raw.histogram_log)->value_name("FILE"),
         "write every interval's latency histograms to FILE in HdrHistogram's interval-log "
         "format (nanoseconds)")
        ("latency-file", po::value(&raw.latency_file)->value_name("FILE"),
         "write every timed message to this CSV file (nanoseconds)")
        ("flow-csv", po::value(&raw.flow_csv)->value_name("FILE"),
         "write every flow's counts, rate and p50, p99 and max latency to this CSV file "
         "(microseconds)");
    add_common_options(groups, raw.common, program);
    // After --help and --version: a way to ask the program, as those are.
    groups.general.add_options()
        ("check", po::bool_switch(&raw.check),
         "check the options as a run would, the descriptor and port limits included, then "
         "exit without connecting (no host is resolved, no file opened): status 0 and "
         "nothing printed when a run would start, 2 and the run's sentences when not");
    // clang-format on
}

help_layout client_help(const option_groups& groups, const program_info& program) {
    const bool multi = program.service == socket_service::seqpack;
    const std::string& name = program.name;
    const std::string server = multi ? "SOCK_SEQPACK_srv" : "SOCK_STREAM_srv";
    const std::string tcp = multi ? "" : " -t tcp";
    help_layout help;
    help.usage = name + " -s POWER | --payload-bytes N [options]";
    help.groups = {{"Test", &groups.test},
                   {"Histogram", &groups.histogram},
                   {"Connection", &groups.connection},
                   {"SCTP", &groups.sctp},
                   {"Output", &groups.output},
                   {"General", &groups.general}};
    help.notes = std::string(number_forms_note) +
                 "R takes the same suffixes and decimals. S is seconds and US microseconds, with\n"
                 "decimals allowed (0.5, 1e-3).\n"
                 "All times are microseconds of a full round trip (request out, reply back),\n"
                 "never halved.\n"
                 "Exit status: 0 success, 1 runtime failure, 2 usage error, 130 or 143\n"
                 "interrupted by SIGINT (Ctrl-C) or SIGTERM: the report of what was measured\n"
                 "is written first, marked interrupted; a second signal ends it at once.\n"
                 "Long names may also be spelled with underscores (--payload_size_power_of_2).\n"
                 "With --repeat above 1, --json-file holds the whole report; --latency-file,\n"
                 "--histogram-log, --interval-csv and --flow-csv describe one run and are\n"
                 "refused. A failure or an interrupt ends the runs: the report covers those\n"
                 "done.\n";
    help.examples = fmt::format(
        "  {0}{1} &\n"
        "      start a server on port 45453 (on this host or another)\n"
        "  {2}{1} -s 6 -c 100k\n"
        "      100000 round trips of 64 bytes to localhost\n"
        "  {2}{1} -H 10.0.0.2 -s 10 --format json --json-file run.json\n"
        "      1 KiB round trips to 10.0.0.2; the report as JSON, also in run.json\n"
        "  {2}{1} -s 4 --rate 10k --duration 30 --flows 4\n"
        "      4 flows of 10000 messages per second each, for 30 seconds\n"
        "  {2}{1} -s 6 -c 100k --repeat 10 --pause 1\n"
        "      10 runs of 100000 round trips, a second apart: each percentile over them\n"
        "  {2}{1} -H 10.0.0.2 -s 6 --rate 10k --start-at 1795701900\n"
        "      the same on every client host: all measure from 2026-11-26T14:05:00Z\n",
        server, tcp, name);
    if (multi) {
        help.examples += "  " + name +
                         " -H 10.0.0.2,10.0.1.2 -s 7 --streams 4\n"
                         "      one association to a two-homed server, its messages on 4 streams\n";
    }
    return help;
}

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

// The workload options: the mode, its rate and echoes, count or duration,
// flows, threads and the per-interval outputs.
void validate_workload(const raw_client_options& raw, const po::variables_map& given,
                       client_options& result, std::vector<std::string>& errors) {
    const bool per_flow = given.count("rate") > 0;
    const bool total = given.count("total-rate") > 0;
    const bool rate = per_flow || total;
    if (per_flow && total) {
        errors.push_back(
            "--rate and --total-rate exclude each other: give the rate per flow or "
            "in all");
    }
    if (rate && raw.throughput) {
        errors.push_back("--rate and --throughput exclude each other: choose one mode");
    }
    if (rate) {
        result.mode = protocol::test_mode::rate;
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
    } else if (raw.throughput) {
        result.mode = protocol::test_mode::throughput;
    }
    const bool load = result.load_mode();
    validate_arrivals(raw, given, rate, result, errors);

    // Ping-pong over several flows, or with the per-interval outputs, runs
    // framed on the load engine; plain ping-pong keeps its leanest loop.
    const bool framed =
        !load && (raw.flows > 1 || given.count("threads") > 0 ||
                  (given.count("interval") > 0 && raw.interval_s > 0.0) ||
                  given.count("interval-csv") > 0 || given.count("histogram-log") > 0 ||
                  given.count("latency-file") > 0 || given.count("flow-csv") > 0);
    if (framed) {
        result.mode = protocol::test_mode::framed_ping_pong;
    }

    if (given.count("echo-every")) {
        if (!load) {
            errors.push_back(
                "--echo-every needs --rate or --throughput (ping-pong times every round trip)");
        } else if (raw.echo_every < 1 || raw.echo_every > 1'000'000) {
            errors.push_back("--echo-every must be 1..1000000");
        } else {
            result.echo_every = static_cast<std::uint32_t>(raw.echo_every);
        }
    } else {
        result.echo_every = result.mode == protocol::test_mode::throughput ? 1000 : 1;
    }

    if (given.count("duration")) {
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
    } else {
        const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
        result.threads =
            std::max(1u, std::min(result.flows, static_cast<unsigned>(std::max(1L, online))));
    }

    if (given.count("interval")) {
        if (raw.interval_s != 0.0 && !(raw.interval_s >= 0.01 && raw.interval_s <= 3600.0)) {
            errors.push_back("--interval must be 0 (no progress lines) or 0.01..3600 seconds");
        } else if (raw.interval_s > 0.0) {
            result.interval = seconds_option(raw.interval_s);
        }
    } else if (load) {
        result.interval = std::chrono::seconds(1);  // ping-pong: none unless asked
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
    if ((!result.interval_csv.empty() || !result.histogram_log.empty()) && !result.interval) {
        errors.push_back("--interval-csv and --histogram-log need an --interval above 0");
    }
    if ((load || framed) && given.count("payload-size-power-of-2") && raw.payload_power >= 0 &&
        raw.payload_power < 4) {
        errors.push_back(load ? "--rate and --throughput need -s 4 or more: each request opens "
                                "with a 16-byte message header"
                              : "ping-pong with --flows, --threads, --interval or their files "
                                "needs -s 4 or more: each request then opens with a 16-byte "
                                "message header");
    }
    if ((load || framed) && given.count("payload-bytes") && raw.payload_bytes >= 1 &&
        raw.payload_bytes < protocol::min_load_payload_bytes) {
        errors.push_back(load ? "--rate and --throughput need --payload-bytes 16 or more: each "
                                "request opens with a 16-byte message header"
                              : "ping-pong with --flows, --threads, --interval or their files "
                                "needs --payload-bytes 16 or more: each request then opens with "
                                "a 16-byte message header");
    }
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
    const auto smallest = protocol::min_reply_bytes(result.mode);
    if (sized) {
        if (raw.reply_bytes < smallest || raw.reply_bytes > protocol::max_reply_bytes) {
            errors.push_back(
                framed ? "--reply-bytes must be 16..65536 here: a framed reply carries its "
                         "request's 16-byte message header (sequence and token), which the "
                         "client matches"
                       : "--reply-bytes must be 2..65536: a ping-pong reply carries the "
                         "request's first and last check bytes");
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
            errors.push_back(
                "--echo needs a payload of 2 bytes or more: a ping-pong reply carries the "
                "request's first and last check bytes (2 bytes)");
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

client_options validate(const raw_client_options& raw, const po::variables_map& given,
                        const program_info& program) {
    std::vector<std::string> errors;
    client_options result;
    result.common = validate_common_options(raw.common, given, program, errors);

    if (raw.iterations < 1 || raw.iterations > protocol::max_measured_iterations) {
        errors.push_back(
            fmt::format("-c/--test-iterations must be 1..{}", protocol::max_measured_iterations));
    } else {
        result.iterations = static_cast<std::uint32_t>(raw.iterations);
    }
    validate_payload(raw, given, result, errors);

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
    result.server_hosts = split_address_list(raw.server_hosts);
    if (result.server_hosts.empty()) {
        errors.push_back("-H/--server-host must name a host");
    } else if (!multi && result.server_hosts.size() > 1) {
        errors.push_back(
            "-H/--server-host takes one host here; SOCK_SEQPACK_clt takes a comma-separated list");
    }
    result.client_addresses = split_address_list(raw.client_addresses);
    if (!multi && result.client_addresses.size() > 1 && raw.flows <= 1) {
        errors.push_back(
            "-i/--client-connect-addr takes a list here only with --flows above 1, to deal the "
            "flows over the addresses; SOCK_SEQPACK_clt takes a list for one association");
    }

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

    validate_workload(raw, given, result, errors);
    validate_reply(raw, given, result, errors);
    validate_repeat(raw, given, result, errors);
    validate_start_at(raw, given, result, errors);
    const bool open_loop =
        result.mode == protocol::test_mode::rate || result.mode == protocol::test_mode::throughput;
    if (result.common.sctp.pr.any() && !open_loop) {
        errors.push_back(
            "--pr-sctp needs --rate or --throughput: in ping-pong one abandoned message would "
            "stop the round trips");
    }
    throw_if_invalid(errors, program);
    return result;
}

}  // namespace

std::vector<std::string> split_address_list(const std::string& list) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto comma = std::min(list.find(',', start), list.size());
        if (comma > start) {
            parts.push_back(list.substr(start, comma - start));
        }
        start = comma + 1;
    }
    return parts;
}

std::optional<client_options> parse_client_options(int argc, const char* const* argv,
                                                   const program_info& program, std::ostream& out) {
    raw_client_options raw;
    option_groups groups;
    add_client_options(groups, raw, program);
    po::variables_map given;
    if (!parse_command_line(argc, argv, groups, client_help(groups, program), program, given,
                            out)) {
        return std::nullopt;
    }
    return validate(raw, given, program);
}

}  // namespace sctp_perf
