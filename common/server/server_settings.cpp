// SPDX-License-Identifier: Apache-2.0
#include "server/server_settings.hpp"

#include "protocol/server_settings_blob.hpp"
#include "protocol/wire_protocol.hpp"
#include "runtime/clock_relation.hpp"
#include "runtime/cpu_affinity.hpp"
#include "runtime/host_environment.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_features_blob.hpp"
#include "transport/sctp_path_settings.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/socket_device.hpp"
#include "transport/socket_setup.hpp"
#include "version.hpp"

namespace sctp_perf {
namespace {

// The session's path settings as read back, with the system settings they
// act with.
protocol::sctp_paths_blob sctp_paths_of(const sctp_path_values& in_use,
                                        const server_identity& identity) {
    protocol::sctp_paths_blob paths;
    paths.hb_interval_ms = in_use.hb_interval_ms;
    paths.hb_enabled = in_use.hb_enabled;
    paths.path_max_retrans = in_use.path_max_retrans;
    paths.assoc_max_retrans = in_use.assoc_max_retrans;
    paths.pf_threshold = in_use.pf_threshold;
    paths.pf_exposed = in_use.pf_exposed;
    paths.primary = in_use.primary;
    paths.pf_enable = identity.sctp_pf_enable;
    paths.pf_expose = identity.sctp_pf_expose;
    return paths;
}

}  // namespace

server_identity read_server_identity(const server_options& options, const program_info& program) {
    const auto host = read_host_environment();
    server_identity identity;
    identity.program = program.name;
    identity.host = host.hostname;
    identity.kernel = host.kernel;
    identity.cpu_affinity = host.cpu_affinity;
    identity.cpu_count = host.cpu_count;
    identity.spin = options.common.spin;
    identity.poll_before_sleep = options.common.poll_before_sleep;
    identity.transport = options.common.transport;
    identity.nagle = options.common.nagle;
    identity.max_seg_bytes = options.common.max_seg_bytes;
    identity.sctp = options.common.sctp;
    identity.header_timeout = options.header_timeout;
    identity.io_timeout = options.common.io_timeout;
    identity.threads = options.threads;
    identity.boot_id = read_boot_id();
    if (identity.transport == transport_protocol::sctp) {
        const auto system = read_sctp_path_system();
        identity.sctp_pf_enable = system.pf_enable;
        identity.sctp_pf_expose = system.pf_expose;
        identity.watches_paths =
            options.common.sctp_paths.any_socket_setting() || options.bind_addresses.size() > 1;
    }
    identity.worker_cpus = worker_cpus(options.common.cpus, options.threads);
    identity.test_reply_delay = options.test_reply_delay;
    identity.test_wake_delay = options.test_wake_delay;
    identity.data_path = serves_one_to_many(options, program) ? "one-to-many, one socket"
                         : program.service == socket_service::seqpack
                             ? "one-to-many, each association peeled off"
                             : "one-to-one";
    return identity;
}

std::string server_settings_json(const server_identity& identity, int fd, std::int32_t assoc_id) {
    const auto buffers = read_socket_buffers(fd);
    protocol::server_settings_blob settings;
    settings.protocol_version = protocol::version;
    settings.version = version_string;
    settings.program = identity.program;
    settings.host = identity.host;
    settings.kernel = identity.kernel;
    settings.cpu_count = identity.cpu_count;
    settings.cpu_affinity = identity.cpu_affinity;
    settings.spin = identity.spin;
    settings.poll_before_sleep_us = static_cast<std::uint64_t>(identity.poll_before_sleep.count());
    settings.threads = identity.threads;
    if (!identity.worker_cpus.empty()) {
        settings.worker_cpus = identity.worker_cpus;
    }
    settings.data_path = identity.data_path;
    settings.transport = std::string(name_of(identity.transport));
    settings.nagle = identity.nagle;
    settings.io_timeout_ms = static_cast<std::uint64_t>(identity.io_timeout.count());
    settings.sndbuf_bytes = static_cast<std::uint64_t>(buffers.send_bytes);
    settings.rcvbuf_bytes = static_cast<std::uint64_t>(buffers.receive_bytes);
    settings.bind_device = bound_device_of(fd);
    settings.max_seg_requested_bytes = identity.max_seg_bytes;
    settings.max_seg_bytes = read_max_segment(fd, identity.transport, assoc_id);
    if (identity.transport == transport_protocol::sctp) {
        const auto rto = read_sctp_rto(fd, assoc_id);
        settings.sctp_rto = protocol::sctp_rto_blob{rto.initial_ms, rto.min_ms, rto.max_ms};
        settings.sctp = sctp_features_of(identity.sctp, read_sctp_features(fd, assoc_id));
        settings.sctp_paths = sctp_paths_of(read_sctp_path_settings(fd, assoc_id), identity);
    }
    if (identity.test_reply_delay.count() != 0) {
        settings.test_reply_delay_us =
            static_cast<std::uint64_t>(identity.test_reply_delay.count());
    }
    if (identity.test_wake_delay.count() != 0) {
        settings.test_wake_delay_us = static_cast<std::uint64_t>(identity.test_wake_delay.count());
    }
    settings.boot_id = identity.boot_id;
    // Sampled now: NTP may have moved the realtime clock since the start.
    settings.realtime_minus_monotonic_ns = realtime_minus_monotonic_ns();
    return protocol::encode_server_settings(settings);
}

}  // namespace sctp_perf
