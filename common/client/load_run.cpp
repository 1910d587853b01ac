// SPDX-License-Identifier: Apache-2.0
#include "client/load_run.hpp"

#include <chrono>
#include <iostream>
#include <utility>

#include "client/connection_checks.hpp"
#include "client/failure_watch.hpp"
#include "client/failure_watch_inputs.hpp"
#include "client/flow_setup_loop.hpp"
#include "client/load/load_engine.hpp"
#include "client/load/load_plan.hpp"
#include "client/load/pooled_load.hpp"
#include "client/load/send_schedule.hpp"
#include "client/repeated_runs.hpp"
#include "errors.hpp"
#include "runtime/interrupt.hpp"

namespace sctp_perf {
namespace {

// One run: connects the flows and runs the load engine over them.
load_result measure_load(const client_options& options, run_report& report, bool first,
                         const client_connectors& connect,
                         const std::optional<start_instant>& start) {
    const auto setup_began = std::chrono::steady_clock::now();
    // A load test ends with its end-of-test message, whatever the count.
    protocol::test_header header{options.payload_bytes(), 0, options.mode};
    header.reply_bytes = options.reply_bytes;
    header.server_timestamps = options.one_way;
    header.server_receive_stamps = options.server_receive_stamps();
    header.server_transmit_stamps = options.server_transmit_stamps();
    // The server waits this much longer for a flow's next request than its
    // --io-timeout, so that a slow schedule is not cut off between two
    // messages; the closed loops have no schedule.
    if (options.mode == protocol::test_mode::rate) {
        header.max_gap_ms =
            longest_gap_ms(options.rate_per_s, options.arrivals, options.tick_rate_per_s);
    }
    run_report later;
    run_report& described = described_run(report, first, later);
    auto flows = connect_flows(options, described, connect, header);
    const auto& server = described.decoded_server_settings;
    auto plan = load_plan_of(options);
    plan.setup_began = setup_began;
    plan.server_pr = server_pr_sctp(server);
    plan.start = with_server_timeout(start, flows.shortest_server_io_timeout);
    if (options.one_way) {
        plan.one_way = one_way_clocks_of(server);
    }
    load_outputs outputs;
    outputs.progress = &std::cerr;
    outputs.interval_csv = options.interval_csv;
    outputs.histogram_log = options.histogram_log;
    outputs.latency_file = options.latency_file;
    outputs.program = described.program.name;
    failure_watch watch(options, described.program, channels_of(flows.channels));
    plan.watch = &watch;
    std::unique_ptr<flow_dialer> redial;
    if (plan.reconnect.enabled) {
        if (!connect.redial) {
            throw usage_error("--reconnect: this program cannot set a flow up again");
        }
        redial = connect.redial(options);
        plan.redial = redial.get();
        plan.header = &header;
    }
    const interrupt_scope interrupts;
    plan.stop = &interrupt_flag();
    auto result = run_load_test(std::move(flows.channels), plan, outputs);
    described.path_failure = watch.finish(server_paths_of(result), server_settings_of(described));
    return result;
}

}  // namespace

int run_load(const client_options& options, run_report& report, const client_connectors& connect,
             const std::optional<start_instant>& start, client_output_files& files) {
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
    report.kernel_split = pooled->split.get();
    report.measurement_began = pooled->began;
    report.duration_s = pooled->duration_s;
    report.repeats = options.repeat > 1 ? &account : nullptr;
    const interrupt_scope while_writing;  // a signal now is noted, and the report finished
    write_reports(options, report, files);
    write_flow_csv_file(options, *pooled, files);
    return exit_status_after_failed_runs(report.program, report);
}

}  // namespace sctp_perf
