// SPDX-License-Identifier: Apache-2.0
#include "server/server_settings.hpp"

#include "protocol/server_settings_blob.hpp"
#include "protocol/wire_protocol.hpp"
#include "runtime/clock_relation.hpp"
#include "runtime/cpu_affinity.hpp"
#include "runtime/host_environment.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_features_blob.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/socket_device.hpp"
#include "transport/socket_setup.hpp"
#include "version.hpp"

namespace sctp_perf {

server_identity read_server_identity(const server_options& options, const program_info& program) {
    const auto host = read_host_environment();
    server_identity identity;
    identity.program = program.name;
    identity.host = host.hostname;
    identity.kernel = host.kernel;
    identity.cpu_affinity = host.cpu_affinity;
    identity.cpu_count = host.cpu_count;
    identity.spin = options.common.spin;
    identity.transport = options.common.transport;
    identity.nagle = options.common.nagle;
    identity.max_seg_bytes = options.common.max_seg_bytes;
    identity.sctp = options.common.sctp;
    identity.header_timeout = options.header_timeout;
    identity.io_timeout = options.common.io_timeout;
    identity.threads = options.threads;
    identity.boot_id = read_boot_id();
    identity.worker_cpus = worker_cpus(options.common.cpus, options.threads);
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
    }
    settings.boot_id = identity.boot_id;
    // Sampled now: NTP may have moved the realtime clock since the start.
    settings.realtime_minus_monotonic_ns = realtime_minus_monotonic_ns();
    return protocol::encode_server_settings(settings);
}

}  // namespace sctp_perf
