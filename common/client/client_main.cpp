#include "client/client_main.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string_view>
#include <system_error>

#include "client/descriptor_budget.hpp"
#include "client/load/load_engine.hpp"
#include "client/load/send_schedule.hpp"
#include "client/ping_pong.hpp"
#include "client/test_negotiation.hpp"
#include "errors.hpp"
#include "report/clock_info.hpp"
#include "report/load_report.hpp"
#include "report/output_file.hpp"
#include "report/run_report.hpp"
#include "runtime/cpu_affinity.hpp"
#include "runtime/interrupt.hpp"
#include "transport/sctp_features.hpp"
#include "transport/socket_setup.hpp"
#include "transport/stream_connector.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {
namespace {

// Standard output is checked as a file is: a full disk, a closed stdout or a
// reader that went away loses the report, and that is a failure. Written
// with write(2) so that the error is the kernel's own.
void write_standard_output(std::string_view text) {
    std::cout.flush();  // nothing should be buffered there, but keep the order
    while (!text.empty()) {
        const ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw std::system_error(errno, std::generic_category(),
                                    "cannot write the report to standard output");
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

void write_reports(const client_options& options, const run_report& report,
                   std::ofstream& json_file) {
    std::ostringstream text;
    if (options.format == report_format::json) {
        write_json_report(text, report);
    } else {
        write_ace_report(text, report);
    }
    write_standard_output(text.str());
    if (json_file.is_open()) {
        write_json_report(json_file, report);
        close_output_file(json_file, options.json_file, "JSON report file");
    }
}

void describe_connection(run_report& report, const client_options& options,
                         const client_connection& connection) {
    const int fd = connection.channel->native_handle();
    report.local_addresses = connection.local_addresses;
    report.peer_addresses = connection.peer_addresses;
    if (options.common.transport == transport_protocol::sctp) {
        report.sctp_rto_socket = read_sctp_rto(fd);
        report.sctp_rto_system = read_system_sctp_rto();
        report.sctp_features = read_sctp_features(fd);
    }
    if (options.common.buffers.send_bytes || options.common.buffers.receive_bytes) {
        report.client_buffers = read_socket_buffers(fd);
    }
}

// A member of the "sctp" object of the server's settings; nullptr where the
// server sent none (over TCP, or a peer that is not one of ours).
const nlohmann::json* server_sctp_setting(const nlohmann::json& settings, const char* key) {
    const auto sctp = settings.find("sctp");
    if (sctp == settings.end() || !sctp->is_object()) {
        return nullptr;
    }
    const auto it = sctp->find(key);
    return it == sctp->end() ? nullptr : &*it;
}

// The server's PR-SCTP policy for its replies, as its settings state it.
pr_sctp server_pr_sctp(const nlohmann::json& settings) {
    const auto* pr = server_sctp_setting(settings, "pr_sctp");
    return pr != nullptr && pr->is_string()
               ? parse_pr_sctp(pr->get<std::string>()).value_or(pr_sctp{})
               : pr_sctp{};
}

// The server's outbound streams, as its settings state them; 0 when they
// do not (json::value() would throw for a string there, or convert 1e300
// to int, which is undefined).
std::uint64_t server_outbound_streams(const nlohmann::json& settings) {
    const auto* streams = server_sctp_setting(settings, "outbound_streams");
    return streams != nullptr && streams->is_number_unsigned() ? streams->get<std::uint64_t>() : 0;
}

// Each flow uses streams 0..S-1 both ways (the server answers on the stream
// a request came in on), so both ends must have S outbound streams; SCTP
// negotiates fewer without a word when the peer allows fewer inbound.
void check_stream_counts(const client_options& options, const run_report& report) {
    const auto streams = options.common.sctp.streams;
    const char* server_program =
        report.program.service == "seqpack" ? "SOCK_SEQPACK_srv" : "SOCK_STREAM_srv";
    if (streams <= 1 || !report.sctp_features) {
        return;
    }
    if (report.sctp_features->outbound_streams < streams) {
        throw test_refused(fmt::format(
            "--streams {}: the association has only {} outbound streams, since the server "
            "allows that many inbound; start {} with --streams {} too",
            streams, report.sctp_features->outbound_streams, server_program, streams));
    }
    const auto server_streams = server_outbound_streams(report.server_settings);
    if (server_streams < streams) {
        throw test_refused(fmt::format(
            "--streams {}: the server has only {} outbound streams to answer on; start {} with "
            "--streams {} too",
            streams, server_streams, server_program, streams));
    }
}

// 0, or what a shell reports for the signal that cut the measurement short
// (its report is written all the same) or came while it was written.
int exit_status_after_report() {
    const int signal = interrupt_flag().load();
    return signal != 0 ? exit_status_for_signal(signal) : exit_success;
}

int run_ping_pong_test(const client_options& options, run_report& report,
                       const client_connector& connect, std::ofstream& json_file) {
    client_connection connection = connect(options);
    describe_connection(report, options, connection);
    message_channel& channel = *connection.channel;
    // With --duration the server is told 0: serve until the client closes.
    const std::uint32_t total =
        options.duration ? 0 : options.iterations + protocol::primer_iterations;
    report.server_settings =
        negotiate_test(channel, {options.payload_bytes(), total, options.mode});
    check_stream_counts(options, report);
    latency_recorder recorder(options.histogram);
    ping_pong_plan plan{options.payload_bytes(), options.iterations, options.duration};
    plan.streams = options.common.sctp.streams;
    plan.unordered = options.common.sctp.unordered;
    const interrupt_scope interrupts;
    plan.stop = &interrupt_flag();
    const auto result = run_ping_pong(channel, plan, recorder);
    report.interrupted_by = result.stopped ? interrupt_flag().load() : 0;
    report.transport = read_transport_counters(channel.native_handle(), options.common.transport);
    connection.channel.reset();  // close before reporting, as the server expects

    report.duration_s = std::chrono::duration<double>(result.elapsed).count();
    report.recorder = &recorder;
    write_reports(options, report, json_file);
    return exit_status_after_report();
}

// A seed for a poisson schedule that --seed did not give: 64 bits from the
// system's entropy, reported so that the run can be repeated.
std::uint64_t random_seed() {
    std::random_device entropy;
    return (std::uint64_t{entropy()} << 32) ^ entropy();
}

int run_load(const client_options& options, run_report& report, const client_connector& connect,
             std::ofstream& json_file, std::ofstream& flow_csv) {
    const auto setup_began = std::chrono::steady_clock::now();
    std::vector<std::unique_ptr<message_channel>> channels;
    channels.reserve(options.flows);
    // A load test ends with its end-of-test message, whatever the count.
    protocol::test_header header{options.payload_bytes(), 0, options.mode};
    // The server waits this much longer for a flow's next request than its
    // --io-timeout, so that a slow schedule is not cut off between two
    // messages; the closed loops have no schedule.
    if (options.mode == protocol::test_mode::rate) {
        header.max_gap_ms = longest_gap_ms(options.rate_per_s, options.arrivals);
    }
    for (unsigned flow = 0; flow < options.flows; ++flow) {
        try {
            client_connection connection = connect(options);
            if (flow == 0) {
                describe_connection(report, options, connection);
            }
            auto settings = negotiate_test(*connection.channel, header);
            if (flow == 0) {
                report.server_settings = std::move(settings);
                check_stream_counts(options, report);
            }
            channels.push_back(std::move(connection.channel));
        } catch (const connect_error& e) {
            // Past the first flow the server is there: what failed is this
            // flow (a server's limit on clients, or no local port left).
            if (flow == 0) {
                throw;
            }
            throw connect_error(fmt::format("flow {} of {}: {}", flow, options.flows, e.what()),
                                false);
        } catch (const test_refused& e) {
            if (flow == 0) {
                throw;
            }
            throw test_refused(fmt::format("flow {} of {}, after {} were accepted: {}", flow,
                                           options.flows, flow, e.what()));
        }
    }
    load_plan plan;
    plan.mode = options.mode;
    plan.payload_bytes = options.payload_bytes();
    plan.rate_per_s = options.mode == protocol::test_mode::rate ? options.rate_per_s : 0.0;
    plan.arrivals = options.arrivals;
    plan.seed = options.seed.value_or(random_seed());
    plan.flow_count = options.flows;
    plan.echo_every = options.echo_every;
    plan.messages = options.iterations;
    plan.duration = options.duration;
    plan.threads = options.threads;
    plan.interval = options.interval;
    plan.io_timeout = options.common.io_timeout;
    plan.setup_began = setup_began;
    plan.transport = options.common.transport;
    plan.streams = options.common.sctp.streams;
    plan.unordered = options.common.sctp.unordered;
    plan.pr = options.common.sctp.pr;
    plan.server_pr = server_pr_sctp(report.server_settings);
    load_outputs outputs;
    outputs.progress = &std::cerr;
    outputs.interval_csv = options.interval_csv;
    outputs.histogram_log = options.histogram_log;
    outputs.latency_file = options.latency_file;
    const interrupt_scope interrupts;
    plan.stop = &interrupt_flag();
    const auto result = run_load_test(std::move(channels), plan, outputs);
    report.interrupted_by = interrupt_flag().load();
    report.load = &result;
    report.duration_s = result.duration_s;
    write_reports(options, report, json_file);
    if (flow_csv.is_open()) {
        write_flow_csv(flow_csv, result);
        close_output_file(flow_csv, options.flow_csv, "--flow-csv file");
    }
    return exit_status_after_report();
}

int run(const client_options& options, const program_info& program,
        const client_connector& connect) {
    // Before anything else: a limit too low for the flows is the command
    // line's mistake, and it should not surface at flow 1019 of 5000.
    check_descriptor_limit(options);
    pin_process(options.common.cpus);  // before the environment, which reports the affinity
    run_report report;
    report.program = program;
    report.options = options;
    report.environment = read_environment();
    report.clock = measure_clock();
    std::ofstream json_file = open_output_file(options.json_file, "JSON report file");
    std::ofstream flow_csv = open_output_file(options.flow_csv, "--flow-csv file");
    if (options.load_mode()) {
        return run_load(options, report, connect, json_file, flow_csv);
    }
    return run_ping_pong_test(options, report, connect, json_file);
}

// Whether the command line asks for the JSON format on stdout, read from
// the words themselves: a run that fails before its options are parsed
// still answers in the format it was asked for.
bool json_requested(int argc, const char* const* argv) {
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "--format" && i + 1 < argc) {
            json = std::string_view(argv[++i]) == "json";
        } else if (word.starts_with("--format=")) {
            json = word.substr(9) == "json";
        }
    }
    return json;
}

// The one-line error on stderr, and with --format json the error document
// on stdout too, so that a script reading stdout always gets one object.
// `json_message` is the error without the program-name prefixes that
// stderr's lines carry (several sentences: one per line).
int fail(const program_info& program, bool json, const std::string& message, int exit_code,
         const std::string& stderr_hint = "", const std::string& json_message = "") {
    std::cerr << program.name << ": " << message << '\n' << stderr_hint;
    if (json) {
        std::ostringstream doc;
        write_json_error(doc, program, json_message.empty() ? message : json_message, exit_code);
        try {
            write_standard_output(doc.str());
        } catch (const std::system_error&) {
            // Standard output is gone (often the very failure being
            // reported); the line on stderr says what went wrong.
        }
    }
    return exit_code;
}

}  // namespace

int client_main(int argc, const char* const* argv, const program_info& program,
                const client_connector& connect) {
    // A reader of stdout that went away is an error to report (EPIPE), not
    // a death by SIGPIPE; the sockets pass MSG_NOSIGNAL already.
    std::signal(SIGPIPE, SIG_IGN);
    const std::string server_name =
        program.service == "seqpack" ? "SOCK_SEQPACK_srv" : "SOCK_STREAM_srv";
    try {
        const auto options = parse_client_options(argc, argv, program, std::cout);
        if (!options) {
            return exit_success;
        }
        return run(*options, program, connect);
    } catch (const usage_error& e) {
        const auto* list = dynamic_cast<const usage_error_list*>(&e);
        return fail(program, json_requested(argc, argv), e.what(), exit_usage_error,
                    fmt::format("Try '{} --help' for the options.\n", program.name),
                    list != nullptr ? fmt::format("{}", fmt::join(list->sentences(), "\n"))
                                    : std::string());
    } catch (const connect_error& e) {
        return fail(program, json_requested(argc, argv),
                    fmt::format("{}{}", e.what(),
                                e.refused() ? fmt::format(": is {} running?", server_name) : ""),
                    exit_runtime_failure);
    } catch (const std::exception& e) {  // refused, peer failures, kernel errors
        return fail(program, json_requested(argc, argv), e.what(), exit_runtime_failure);
    }
}

}  // namespace sctp_perf
