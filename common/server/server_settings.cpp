// SPDX-License-Identifier: Apache-2.0
#include "server/server_settings.hpp"

#include <nlohmann/json.hpp>

#include "protocol/wire_protocol.hpp"
#include "report/transport_json.hpp"
#include "runtime/host_environment.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_tuning.hpp"
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
    identity.sctp = options.common.sctp;
    identity.header_timeout = options.header_timeout;
    identity.io_timeout = options.common.io_timeout;
    identity.threads = options.threads;
    identity.data_path = serves_one_to_many(options, program) ? "one-to-many, one socket"
                         : program.service == socket_service::seqpack
                             ? "one-to-many, each association peeled off"
                             : "one-to-one";
    return identity;
}

std::string server_settings_json(const server_identity& identity, int fd, std::int32_t assoc_id) {
    using json = nlohmann::ordered_json;
    const auto buffers = read_socket_buffers(fd);
    json settings = {
        {"protocol_version", protocol::version},
        {"version", version_string},
        {"program", identity.program},
        {"host", identity.host},
        {"kernel", identity.kernel},
        {"cpu_count", identity.cpu_count},
        {"cpu_affinity", identity.cpu_affinity},
        {"spin", identity.spin},
        {"threads", identity.threads},
        {"data_path", identity.data_path},
        {"transport", std::string(name_of(identity.transport))},
        {"nagle", identity.nagle},
        {"io_timeout_ms", identity.io_timeout.count()},
        {"sndbuf_bytes", buffers.send_bytes},
        {"rcvbuf_bytes", buffers.receive_bytes},
        {"sctp_rto", nullptr},
        {"sctp", nullptr},
    };
    if (identity.transport == transport_protocol::sctp) {
        const auto rto = read_sctp_rto(fd, assoc_id);
        settings["sctp_rto"] = {
            {"initial_ms", rto.initial_ms}, {"min_ms", rto.min_ms}, {"max_ms", rto.max_ms}};
        settings["sctp"] = sctp_features_json(identity.sctp, read_sctp_features(fd, assoc_id));
    }
    return settings.dump();
}

}  // namespace sctp_perf
