// SPDX-License-Identifier: Apache-2.0
#include "client/load/load_plan.hpp"

#include <random>

#include "options/server_list.hpp"

namespace sctp_perf {
namespace {

std::uint64_t random_seed() {
    std::random_device entropy;
    return (std::uint64_t{entropy()} << 32) ^ entropy();
}

// Fan-out: each server as the report and a failure name it.
std::vector<std::string> fan_out_servers(const client_options& options) {
    std::vector<std::string> servers;
    for (unsigned s = 0; options.fan_out() && s < options.servers.size(); ++s) {
        servers.push_back(endpoint_text(options.servers[s]));
    }
    return servers;
}

}  // namespace

load_plan load_plan_of(const client_options& options) {
    const bool rate = options.mode == protocol::test_mode::rate;
    return {
        .mode = options.mode,
        .payload_bytes = options.payload_bytes(),
        .reply_bytes = options.reply_size(),
        .rate_per_s = rate ? options.rate_per_s : 0.0,
        .arrivals = options.arrivals,
        .seed = options.seed.value_or(random_seed()),
        .batch = options.batch,
        .tick_rate_per_s = options.tick_rate_per_s,
        .flow_count = options.flows,
        .echo_every = options.echo_every,
        .messages = options.iterations,
        .primer_iterations = options.primer_iterations,
        .duration = options.duration,
        .warmup = options.warmup,
        .threads = options.threads,
        .cpus = options.common.cpus,
        .interval = options.interval,
        .io_timeout = options.common.io_timeout,
        .timestamps = options.timestamps,
        .server_receive_stamps = options.server_receive_stamps(),
        .server_transmit_stamps = options.server_transmit_stamps(),
        .transport = options.common.transport,
        .streams = options.common.sctp.streams,
        .unordered = options.common.sctp.unordered,
        .pr = options.common.sctp.pr,
        .servers = fan_out_servers(options),
        .reconnect = options.faults.reconnect,
    };
}

}  // namespace sctp_perf
