// SPDX-License-Identifier: Apache-2.0
#include "client/client_main.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string_view>
#include <system_error>
#include <thread>

#include "client/check_lines.hpp"
#include "client/descriptor_budget.hpp"
#include "client/failure_watch.hpp"
#include "client/failure_watch_inputs.hpp"
#include "client/flow_failure.hpp"
#include "client/load/load_engine.hpp"
#include "client/load/pooled_load.hpp"
#include "client/load/send_schedule.hpp"
#include "client/ping_pong.hpp"
#include "client/start_wait.hpp"
#include "client/test_negotiation.hpp"
#include "errors.hpp"
#include "protocol/server_settings_blob.hpp"
#include "report/csv_summary.hpp"
#include "report/load_report.hpp"
#include "report/output_file.hpp"
#include "report/run_notes.hpp"
#include "report/run_report.hpp"
#include "runtime/clock_probe.hpp"
#include "runtime/cpu_affinity.hpp"
#include "runtime/host_environment.hpp"
#include "runtime/interrupt.hpp"
#include "transport/network_interface.hpp"
#include "transport/sctp_features.hpp"
#include "transport/socket_device.hpp"
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
    if (!options.csv_summary.empty()) {
        append_csv_summary(options.csv_summary, report);
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
    if (!options.common.bind_device.empty()) {
        report.client_bind_device = bound_device_of(fd);
    }
    if (options.common.max_seg_bytes) {
        report.client_max_seg_bytes = read_max_segment(fd, options.common.transport);
    }
    report.client_interfaces.clear();
    for (const auto& entry : options.client_addresses) {
        if (auto device = find_interface(entry, 0)) {
            report.client_interfaces.push_back(std::move(*device));
        }
    }
}

const char* server_program_name(const program_info& program) {
    return program.service == socket_service::seqpack ? "SOCK_SEQPACK_srv" : "SOCK_STREAM_srv";
}

// The server's PR-SCTP policy for its replies, as its settings state it.
pr_sctp server_pr_sctp(const nlohmann::json& settings) {
    const auto sctp = protocol::decode_server_settings(settings).sctp;
    return sctp ? parse_pr_sctp(sctp->pr_sctp).value_or(pr_sctp{}) : pr_sctp{};
}

// The server's outbound streams, as its settings state them; 0 when they
// do not.
std::uint64_t server_outbound_streams(const nlohmann::json& settings) {
    const auto sctp = protocol::decode_server_settings(settings).sctp;
    return sctp ? sctp->outbound_streams : 0;
}

// Each flow uses streams 0..S-1 both ways (the server answers on the stream
// a request came in on), so both ends must have S outbound streams; SCTP
// negotiates fewer without a word when the peer allows fewer inbound.
void check_stream_counts(const client_options& options, const program_info& program,
                         const std::optional<sctp_feature_state>& features,
                         const nlohmann::json& settings) {
    const auto streams = options.common.sctp.streams;
    const char* server_program = server_program_name(program);
    if (streams <= 1 || !features) {
        return;
    }
    if (features->outbound_streams < streams) {
        throw test_refused(fmt::format(
            "--streams {}: the association has only {} outbound streams, since the server "
            "allows that many inbound; start {} with --streams {} too",
            streams, features->outbound_streams, server_program, streams));
    }
    const auto server_streams = server_outbound_streams(settings);
    if (server_streams < streams) {
        throw test_refused(fmt::format(
            "--streams {}: the server has only {} outbound streams to answer on; start {} with "
            "--streams {} too",
            streams, server_streams, server_program, streams));
    }
}

void check_stream_counts(const client_options& options, const run_report& report) {
    check_stream_counts(options, report.program, report.sctp_features, report.server_settings);
}

// 0, or what a shell reports for the signal that cut the measurement short
// (its report is written all the same) or came while it was written.
int exit_status_after_report() {
    const int signal = interrupt_flag().load();
    return signal != 0 ? exit_status_for_signal(signal) : exit_success;
}

// The sentence on a failure, as the one line on stderr gives it.
std::string failure_sentence(const std::exception& e, const program_info& program) {
    const auto* connect = dynamic_cast<const connect_error*>(&e);
    if (connect != nullptr && connect->refused()) {
        return fmt::format("{}: is {} running?", e.what(), server_program_name(program));
    }
    return e.what();
}

// Waits `pause` between two runs, awake to an interrupt; false when one
// came (before or during the wait).
bool pause_between_runs(std::chrono::nanoseconds pause) {
    using clock = std::chrono::steady_clock;
    const auto until = clock::now() + pause;
    while (interrupt_flag().load() == 0) {
        const auto left = until - clock::now();
        if (left <= clock::duration::zero()) {
            return true;
        }
        // In slices: a signal does not cut a sleep short (sleep_for goes
        // back to sleep after EINTR).
        std::this_thread::sleep_for(std::min<clock::duration>(left, std::chrono::milliseconds(20)));
    }
    return false;
}

// Runs `one_run(k)` for run k = 0 .. --repeat - 1 with --pause between two,
// until every run is done or one is interrupted. With --repeat above 1 an
// interrupt is noted from the first run's connection to the last run's end,
// pauses included, so that it never loses the runs done. A failure of the
// first run goes on to the caller, as a single run's would; a later one ends
// the runs, and its sentence is returned (empty when no run failed).
std::string repeat_runs(const client_options& options, const program_info& program,
                        const std::function<void(unsigned)>& one_run) {
    std::optional<interrupt_scope> between_runs;
    if (options.repeat > 1) {
        between_runs.emplace();
    }
    for (unsigned run = 0; run < options.repeat; ++run) {
        if (run > 0 && !pause_between_runs(options.pause)) {
            break;
        }
        if (options.repeat > 1 && options.interval) {  // the runs' progress lines apart
            std::cerr << fmt::format("run {} of {}\n", run + 1, options.repeat);
        }
        try {
            one_run(run);
        } catch (const std::exception& e) {
            if (run == 0) {
                throw;
            }
            return failure_sentence(e, program);
        }
        if (interrupt_flag().load() != 0) {
            break;
        }
    }
    return {};
}

// After the report of runs that a failure ended: the failure's line on
// stderr, and its exit status.
int exit_status_after_failed_runs(const program_info& program, const run_report& report) {
    if (const auto failure = repeat_failure(report)) {
        std::cerr << program.name << ": " << *failure << '\n';
        return exit_runtime_failure;
    }
    return exit_status_after_report();
}

// The connection of the first run is the one a report describes; a later
// run's is checked as the first one's was, since the server may have been
// restarted in between.
run_report& described_run(run_report& report, bool first, run_report& later) {
    if (first) {
        return report;
    }
    later.program = report.program;
    return later;
}

// The start instant with the server's I/O timeout from its settings: the
// longest a client may stay silent between its primer and the instant.
std::optional<start_instant> with_server_timeout(std::optional<start_instant> start,
                                                 const nlohmann::json& settings) {
    if (start) {
        if (const auto ms = protocol::decode_server_settings(settings).io_timeout_ms) {
            // A day at most, as the server's option is; no overflow from a stray value.
            const auto timeout =
                std::chrono::milliseconds(std::min<std::uint64_t>(*ms, 86'400'000));
            // Fan-out: the shortest of the servers' bounds the silence.
            start->server_io_timeout =
                start->server_io_timeout ? std::min(*start->server_io_timeout, timeout) : timeout;
        }
    }
    return start;
}

// One ping-pong run: connects, agrees on the test with the server and
// measures into `recorder`; `transport` gets the connection's counters.
// --one-way: both ends' clocks, the client's read now and the server's as
// its settings state them.
one_way_clocks one_way_clocks_of(const nlohmann::json& settings) {
    const auto s = protocol::decode_server_settings(settings);
    return clocks_of(s.boot_id, s.realtime_minus_monotonic_ns);
}

ping_pong_result measure_ping_pong(const client_options& options, run_report& report, bool first,
                                   const client_connector& connect,
                                   const std::optional<start_instant>& start,
                                   latency_recorder& recorder, one_way_split* split,
                                   std::optional<transport_counters>& transport) {
    client_connection connection = connect(options, 0);
    run_report later;
    run_report& described = described_run(report, first, later);
    describe_connection(described, options, connection);
    message_channel& channel = *connection.channel;
    // With --duration the server is told 0: serve until the client closes.
    const std::uint32_t total =
        options.duration ? 0 : options.iterations + options.primer_iterations;
    protocol::test_header header{options.payload_bytes(), total, options.mode};
    header.reply_bytes = options.reply_bytes;
    header.server_timestamps = options.one_way;
    described.server_settings = negotiate_test(channel, header);
    check_stream_counts(options, described);
    ping_pong_plan plan{options.payload_bytes(), options.iterations, options.duration};
    if (split != nullptr) {
        plan.one_way = one_way_clocks_of(described.server_settings);
        plan.split = split;
    }
    plan.primer_iterations = options.primer_iterations;
    plan.warmup = options.warmup;
    plan.reply_bytes = options.reply_size();
    plan.streams = options.common.sctp.streams;
    plan.unordered = options.common.sctp.unordered;
    plan.start = with_server_timeout(start, described.server_settings);
    failure_watch watch(options, described.program, {&channel});
    plan.watch = &watch;
    const interrupt_scope interrupts;
    plan.stop = &interrupt_flag();
    const auto result = run_ping_pong(channel, plan, recorder);
    described.path_failure = watch.finish({}, {described.server_settings});
    transport = read_transport_counters(channel.native_handle(), options.common.transport);
    connection.channel.reset();  // close before reporting, as the server expects
    return result;
}

// Counters summed over the runs' connections (see add_counters).
void add_transport(std::optional<transport_counters>& total,
                   const std::optional<transport_counters>& more) {
    if (!more) {
        return;
    }
    if (!total) {
        total = more;
    } else {
        add_counters(*total, *more);
    }
}

int run_ping_pong_test(const client_options& options, run_report& report,
                       const client_connector& connect, const std::optional<start_instant>& start,
                       std::ofstream& json_file) {
    // The first run's recorder becomes the pool; later runs merge into it,
    // their iteration numbers following on (repeat_report.hpp).
    std::optional<latency_recorder> pooled;
    std::optional<one_way_split> pooled_split;
    repeat_account account;
    account.asked = options.repeat;
    bool stopped = false;
    report.duration_s = 0.0;
    const auto failure = repeat_runs(options, report.program, [&](unsigned run) {
        latency_recorder recorder(options.histogram);
        std::optional<one_way_split> split;
        if (options.one_way) {
            split.emplace();
        }
        std::optional<transport_counters> transport;
        const auto result = measure_ping_pong(options, report, run == 0, connect, start, recorder,
                                              split ? &*split : nullptr, transport);
        if (run == 0) {
            report.measurement_began = result.began;
        }
        const double duration_s = std::chrono::duration<double>(result.elapsed).count();
        auto figures = figures_of_run(recorder, duration_s);
        figures.interrupted = result.stopped;
        account.runs.push_back(figures);
        stopped = result.stopped;
        report.duration_s += duration_s;
        report.warmup_round_trips += result.warmup_iterations;
        report.client_cpu_user_s += result.cpu_user_s;
        report.client_cpu_system_s += result.cpu_system_s;
        add_transport(report.transport, transport);
        if (split && !pooled_split) {
            pooled_split.emplace(std::move(*split));
        } else if (split) {
            pooled_split->merge(*split);
        }
        if (!pooled) {
            pooled.emplace(std::move(recorder));
        } else {
            pooled->merge(recorder, pooled->summary().count());
        }
    });
    account.failure = failure;
    report.interrupted_by = stopped || options.repeat > 1 ? interrupt_flag().load() : 0;
    report.recorder = &*pooled;
    report.one_way = pooled_split ? &*pooled_split : nullptr;
    report.repeats = options.repeat > 1 ? &account : nullptr;
    const interrupt_scope while_writing;  // a signal now is noted, and the report finished
    write_reports(options, report, json_file);
    return exit_status_after_failed_runs(report.program, report);
}

// A seed for a poisson schedule that --seed did not give: 64 bits from the
// system's entropy, reported so that the run can be repeated.
std::uint64_t random_seed() {
    std::random_device entropy;
    return (std::uint64_t{entropy()} << 32) ^ entropy();
}

// How the program connects one flow, and the flows after the first.
struct client_connectors {
    const client_connector& connect;
    const flows_connector& connect_rest;
};

// Fan-out: flow `flow` (< the number of servers) alone, the first of its
// server, whose settings it reads for the report; its failure names the
// server.
void connect_first_of_server(const client_options& options, run_report& described,
                             const client_connectors& connectors,
                             const protocol::test_header& header, unsigned flow,
                             std::vector<std::unique_ptr<message_channel>>& channels) {
    const auto& server = options.servers[flow];
    try {
        client_connection connection = connectors.connect(options, flow);
        if (flow == 0) {
            describe_connection(described, options, connection);
        }
        fan_out_server seen{endpoint_text(server), connection.peer_addresses,
                            negotiate_test(*connection.channel, header)};
        if (flow == 0) {
            described.server_settings = seen.settings;
            check_stream_counts(options, described);
        } else if (options.common.transport == transport_protocol::sctp) {
            check_stream_counts(options, described.program,
                                read_sctp_features(connection.channel->native_handle()),
                                seen.settings);
        }
        described.servers.push_back(std::move(seen));
        channels.push_back(std::move(connection.channel));
    } catch (...) {
        rethrow_flow_failure(flow, options.flows, flow, options.servers);
    }
}

// Connects every flow and agrees on the test with the server on each: the
// first one alone, since it is the one the report describes and a failure
// there is the server's (not running, refusing), then the others, at once
// where the program can (`connect_rest`). With several servers each
// server's first flow connects alone (connect_first_of_server).
std::vector<std::unique_ptr<message_channel>> connect_flows(const client_options& options,
                                                            run_report& described,
                                                            const client_connectors& connectors,
                                                            const protocol::test_header& header) {
    std::vector<std::unique_ptr<message_channel>> channels;
    channels.reserve(options.flows);
    if (options.fan_out()) {
        // Each server's first flow alone: each says what it is, and each
        // one's failure is that server's (validation ensures flows >= servers).
        for (unsigned flow = 0; flow < options.servers.size(); ++flow) {
            connect_first_of_server(options, described, connectors, header, flow, channels);
        }
    } else {
        client_connection connection = connectors.connect(options, 0);
        describe_connection(described, options, connection);
        described.server_settings = negotiate_test(*connection.channel, header);
        check_stream_counts(options, described);
        channels.push_back(std::move(connection.channel));
    }
    if (options.flows > channels.size() && connectors.connect_rest) {
        connectors.connect_rest(options, header, channels);
        return channels;
    }
    for (auto flow = static_cast<unsigned>(channels.size()); flow < options.flows; ++flow) {
        try {
            client_connection connection = connectors.connect(options, flow);
            negotiate_test(*connection.channel, header);
            channels.push_back(std::move(connection.channel));
        } catch (...) {
            rethrow_flow_failure(flow, options.flows, flow, options.servers);
        }
    }
    return channels;
}

// One load run: connects the flows and runs the load engine over them.
load_result measure_load(const client_options& options, run_report& report, bool first,
                         const client_connectors& connect,
                         const std::optional<start_instant>& start) {
    const auto setup_began = std::chrono::steady_clock::now();
    // A load test ends with its end-of-test message, whatever the count.
    protocol::test_header header{options.payload_bytes(), 0, options.mode};
    header.reply_bytes = options.reply_bytes;
    header.server_timestamps = options.one_way;
    // The server waits this much longer for a flow's next request than its
    // --io-timeout, so that a slow schedule is not cut off between two
    // messages; the closed loops have no schedule.
    if (options.mode == protocol::test_mode::rate) {
        header.max_gap_ms =
            longest_gap_ms(options.rate_per_s, options.arrivals, options.tick_rate_per_s);
    }
    run_report later;
    run_report& described = described_run(report, first, later);
    auto channels = connect_flows(options, described, connect, header);
    load_plan plan;
    plan.mode = options.mode;
    plan.payload_bytes = options.payload_bytes();
    plan.reply_bytes = options.reply_size();
    plan.rate_per_s = options.mode == protocol::test_mode::rate ? options.rate_per_s : 0.0;
    plan.arrivals = options.arrivals;
    plan.seed = options.seed.value_or(random_seed());
    plan.flow_count = options.flows;
    plan.echo_every = options.echo_every;
    plan.batch = options.batch;
    plan.tick_rate_per_s = options.tick_rate_per_s;
    plan.messages = options.iterations;
    plan.primer_iterations = options.primer_iterations;
    plan.duration = options.duration;
    plan.warmup = options.warmup;
    plan.threads = options.threads;
    plan.cpus = options.common.cpus;
    plan.interval = options.interval;
    plan.io_timeout = options.common.io_timeout;
    plan.setup_began = setup_began;
    plan.transport = options.common.transport;
    plan.streams = options.common.sctp.streams;
    plan.unordered = options.common.sctp.unordered;
    plan.pr = options.common.sctp.pr;
    plan.server_pr = server_pr_sctp(described.server_settings);
    plan.start = with_server_timeout(start, described.server_settings);
    for (const auto& server : described.servers) {
        plan.start = with_server_timeout(plan.start, server.settings);
    }
    for (unsigned s = 0; options.fan_out() && s < options.servers.size(); ++s) {
        plan.servers.push_back(endpoint_text(options.servers[s]));
    }
    if (options.one_way) {
        plan.one_way = one_way_clocks_of(described.server_settings);
    }
    load_outputs outputs;
    outputs.progress = &std::cerr;
    outputs.interval_csv = options.interval_csv;
    outputs.histogram_log = options.histogram_log;
    outputs.latency_file = options.latency_file;
    failure_watch watch(options, described.program, channels_of(channels));
    plan.watch = &watch;
    const interrupt_scope interrupts;
    plan.stop = &interrupt_flag();
    auto result = run_load_test(std::move(channels), plan, outputs);
    described.path_failure = watch.finish(server_paths_of(result), server_settings_of(described));
    return result;
}

int run_load(const client_options& options, run_report& report, const client_connectors& connect,
             const std::optional<start_instant>& start, std::ofstream& json_file,
             std::ofstream& flow_csv) {
    // The first run's result becomes the pool; later runs add to it.
    std::optional<load_result> pooled;
    repeat_account account;
    account.asked = options.repeat;
    const auto failure = repeat_runs(options, report.program, [&](unsigned run) {
        auto result = measure_load(options, report, run == 0, connect, start);
        auto figures = figures_of_run(result);
        figures.interrupted = interrupt_flag().load() != 0;
        account.runs.push_back(figures);
        if (!pooled) {
            pooled.emplace(std::move(result));
        } else {
            pool_load_run(*pooled, result, account.runs.size() - 1);
        }
    });
    account.failure = failure;
    report.interrupted_by = interrupt_flag().load();
    report.load = &*pooled;
    report.one_way = pooled->one_way.get();
    report.measurement_began = pooled->began;
    report.duration_s = pooled->duration_s;
    report.repeats = options.repeat > 1 ? &account : nullptr;
    const interrupt_scope while_writing;  // a signal now is noted, and the report finished
    write_reports(options, report, json_file);
    if (flow_csv.is_open()) {
        write_flow_csv(flow_csv, *pooled);
        close_output_file(flow_csv, options.flow_csv, "--flow-csv file");
    }
    return exit_status_after_failed_runs(report.program, report);
}

// With --start-at: the instant on the steady clock, once the time to
// connect has come (start_setup_lead before it; see client/start_wait.hpp).
// Ctrl-C while this sleeps ends the program at once, as while connecting:
// nothing has been measured. A --warmup runs before the instant, so that on
// every host the measurement, not the warm-up, begins at it: the steady
// instant the run waits for is that much earlier.
std::optional<start_instant> wait_to_connect(const client_options& options) {
    if (!options.start_at) {
        return std::nullopt;
    }
    auto start = start_on_steady_clock(*options.start_at);
    start.steady -= options.warmup;
    check_start_ahead(start, std::chrono::steady_clock::now(), "it had not yet connected");
    wait_until(start.steady - start_setup_lead, nullptr);
    return start;
}

// The machine-dependent defaults, decided here and not in validation, so
// that a command line means the same options wherever it is read. Without
// --threads: one thread per CPU the client may run on (its --cpu list, or
// the affinity it was started with, as taskset sets it), up to one per flow.
// Online CPUs are not the bound: two busy workers on one allowed CPU take
// turns by time slices, and the report then measures that queue (64 flows
// at 64,000 messages/s, client on one CPU: a corrected p50 of 457 us with
// two workers, 22 us with one).
client_options with_machine_defaults(client_options options) {
    if (options.threads == 0) {
        // Before pin_process: the --cpu list is what the client will run on.
        const auto cpus = options.common.cpus.empty()
                              ? usable_cpu_count()
                              : static_cast<unsigned>(options.common.cpus.size());
        options.threads = std::max(1u, std::min(options.flows, cpus));
    }
    return options;
}

// In a load mode, a warning on stderr when more worker threads than CPUs
// would take turns on one; the default thread count never asks for that
// (with_machine_defaults), an explicit --threads may. Before pin_process:
// without --cpu, the affinity read is the one the client was started with.
void warn_of_shared_cpus(const client_options& options, const program_info& program) {
    if (!options.load_mode()) {
        return;
    }
    const unsigned workers = std::max(1u, std::min(options.threads, options.flows));
    const bool listed = !options.common.cpus.empty();
    const unsigned cpus =
        listed ? static_cast<unsigned>(options.common.cpus.size()) : usable_cpu_count();
    if (const auto warning = shared_cpus_warning(workers, cpus, listed)) {
        std::cerr << program.name << ": warning: " << *warning << '\n';
    }
}

// A limit too low for the flows is the command line's mistake, and it
// should not surface at flow 1019 of 5000: checked before anything else, by
// a run and by --check alike. The ports first (towards each server, with
// several): more descriptors are of no use without them.
void check_run_limits(const client_options& options, const program_info& program) {
    check_port_budget(options, program.service != socket_service::seqpack);
    check_descriptor_limit(options);
}

int run(const client_options& options, const program_info& program,
        const client_connectors& connect) {
    check_run_limits(options, program);
    // --check ends here, before anything is pinned, opened, resolved or
    // connected: every usage error a run can meet has been met.
    if (options.check_only) {
        return exit_success;
    }
    warn_of_shared_cpus(options, program);
    pin_process(options.common.cpus);  // before the environment, which reports the affinity
    run_report report;
    report.program = program;
    report.options = options;
    report.environment =
        describe_environment(read_host_environment(), std::chrono::system_clock::now());
    report.clock = measure_clock();
    std::ofstream json_file = open_output_file(options.json_file, "JSON report file");
    std::ofstream flow_csv = open_output_file(options.flow_csv, "--flow-csv file");
    if (!options.csv_summary.empty()) {
        check_csv_summary_file(options.csv_summary);  // appended to, never truncated
    }
    const auto start = wait_to_connect(options);
    if (options.load_mode()) {
        return run_load(options, report, connect, start, json_file, flow_csv);
    }
    return run_ping_pong_test(options, report, connect.connect, start, json_file);
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
                const client_connector& connect, const flows_connector& connect_rest) {
    // A reader of stdout that went away is an error to report (EPIPE), not
    // a death by SIGPIPE; the sockets pass MSG_NOSIGNAL already.
    std::signal(SIGPIPE, SIG_IGN);
    try {
        if (asks_check_lines(argc, argv)) {
            // Each line as --check takes it; the first refusal is answered below,
            // as --check's is. A line's --help or --version would run: its text
            // is no answer of the check.
            std::ostringstream discarded;
            check_lines(std::cin, std::cout, argv[0], [&](int words, const char* const* line) {
                if (const auto options = parse_client_options(words, line, program, discarded)) {
                    check_run_limits(with_machine_defaults(*options), program);
                }
            });
            return exit_success;
        }
        const auto options = parse_client_options(argc, argv, program, std::cout);
        if (!options) {
            return exit_success;
        }
        return run(with_machine_defaults(*options), program,
                   client_connectors{connect, connect_rest});
    } catch (const usage_error& e) {
        const auto* list = dynamic_cast<const usage_error_list*>(&e);
        return fail(program, json_requested(argc, argv), e.what(), exit_usage_error,
                    fmt::format("Try '{} --help' for the options.\n", program.name),
                    list != nullptr ? fmt::format("{}", fmt::join(list->sentences(), "\n"))
                                    : std::string());
    } catch (const std::exception& e) {  // connection, refused, peer failures, kernel errors
        return fail(program, json_requested(argc, argv), failure_sentence(e, program),
                    exit_runtime_failure);
    }
}

}  // namespace sctp_perf
