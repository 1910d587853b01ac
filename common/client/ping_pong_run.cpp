// SPDX-License-Identifier: Apache-2.0
#include "client/ping_pong_run.hpp"

#include <chrono>
#include <iostream>
#include <utility>

#include "client/connection_checks.hpp"
#include "client/failure_watch.hpp"
#include "client/ping_pong.hpp"
#include "client/repeated_runs.hpp"
#include "runtime/interrupt.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {
namespace {

// How long a run that has just turned the kernel's stamps on waits for the
// kernel to stamp arrivals (transport/kernel_timestamps.hpp): it takes
// microseconds, or a few milliseconds on a busy machine.
constexpr std::chrono::milliseconds receive_stamping_bound{2000};

// One run: connects, agrees on the test with the server and measures into
// `recorder` (and `split`, with --one-way); `transport` gets the
// connection's counters.
ping_pong_result measure_ping_pong(const client_options& options, run_report& report, bool first,
                                   const client_connector& connect,
                                   const std::optional<start_instant>& start,
                                   latency_recorder& recorder, one_way_split* split,
                                   round_trip_split* kernel_split,
                                   std::optional<transport_counters>& transport) {
    client_connection connection = connect(options, 0);
    run_report later;
    run_report& described = described_run(report, first, later);
    // With --duration the server is told 0: serve until the client closes.
    // With the server's transmit stamps, one round trip more brings the last
    // measured one's (client/ping_pong.cpp).
    const std::uint32_t trailing = options.server_transmit_stamps() ? 1 : 0;
    const std::uint32_t total =
        options.duration ? 0 : options.iterations + options.primer_iterations + trailing;
    protocol::test_header header{options.payload_bytes(), total, options.mode};
    header.reply_bytes = options.reply_bytes;
    header.server_timestamps = options.one_way;
    header.server_receive_stamps = options.server_receive_stamps();
    header.server_transmit_stamps = options.server_transmit_stamps();
    open_described_test(described, options, connection, header);
    const auto& server = described.decoded_server_settings;
    ping_pong_plan plan{options.payload_bytes(), options.iterations, options.duration};
    if (split != nullptr) {
        plan.one_way = one_way_clocks_of(server);
        plan.split = split;
    }
    plan.primer_iterations = options.primer_iterations;
    plan.warmup = options.warmup;
    plan.reply_bytes = options.reply_size();
    plan.streams = options.common.sctp.streams;
    plan.unordered = options.common.sctp.unordered;
    plan.start = with_server_timeout(start, server_io_timeout(server));
    message_channel& channel = *connection.channel;
    std::optional<round_trip_stamps> stamps;
    if (kernel_split != nullptr) {
        stamps.emplace(channel, *kernel_split);  // nothing in flight yet: see its header
        plan.stamps = &*stamps;
        if (const auto unseen = await_receive_stamping(receive_stamping_bound)) {
            std::cerr << described.program.name << ": warning: " << *unseen
                      << "; a round trip whose reply arrives unstamped is counted missing\n";
        }
    }
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

}  // namespace

int run_ping_pong_test(const client_options& options, run_report& report,
                       const client_connector& connect, const std::optional<start_instant>& start,
                       client_output_files& files) {
    // The first run's recorder becomes the pool; later runs merge into it,
    // their iteration numbers following on (repeat_report.hpp).
    std::optional<latency_recorder> pooled;
    std::optional<one_way_split> pooled_split;
    std::optional<round_trip_split> pooled_kernel_split;
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
        std::optional<round_trip_split> kernel_split;
        if (options.timestamps) {
            // Only TCP's kernel stamps what it sends, and the server's stamps
            // come with --one-way (stats/round_trip_split.hpp).
            kernel_split.emplace(options.common.transport == transport_protocol::tcp,
                                 options.one_way, options.server_transmit_stamps());
        }
        std::optional<transport_counters> transport;
        const auto result = measure_ping_pong(options, report, run == 0, connect, start, recorder,
                                              split ? &*split : nullptr,
                                              kernel_split ? &*kernel_split : nullptr, transport);
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
        add_counters(report.transport, transport);
        if (split && !pooled_split) {
            pooled_split.emplace(std::move(*split));
        } else if (split) {
            pooled_split->merge(*split);
        }
        if (kernel_split && !pooled_kernel_split) {
            pooled_kernel_split.emplace(std::move(*kernel_split));
        } else if (kernel_split) {
            pooled_kernel_split->merge(*kernel_split);
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
    report.kernel_split = pooled_kernel_split ? &*pooled_kernel_split : nullptr;
    report.repeats = options.repeat > 1 ? &account : nullptr;
    const interrupt_scope while_writing;  // a signal now is noted, and the report finished
    write_reports(options, report, files);
    return exit_status_after_failed_runs(report.program, report);
}

}  // namespace sctp_perf
