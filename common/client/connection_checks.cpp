// SPDX-License-Identifier: Apache-2.0
#include "client/connection_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "client/test_negotiation.hpp"
#include "errors.hpp"
#include "transport/network_interface.hpp"
#include "transport/socket_device.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {

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

void open_described_test(run_report& report, const client_options& options,
                         const client_connection& connection, const protocol::test_header& header) {
    describe_connection(report, options, connection);
    report.server_settings = negotiate_test(*connection.channel, header);
    report.decoded_server_settings = protocol::decode_server_settings(report.server_settings);
    check_stream_counts(options, report.program, report.sctp_features,
                        report.decoded_server_settings);
}

void check_stream_counts(const client_options& options, const program_info& program,
                         const std::optional<sctp_feature_state>& features,
                         const protocol::server_settings_blob& settings) {
    const auto streams = options.common.sctp.streams;
    const auto server_program = server_program_name(program);
    if (streams <= 1 || !features) {
        return;
    }
    // SCTP negotiates fewer streams without a word when the peer allows
    // fewer inbound.
    if (features->outbound_streams < streams) {
        throw test_refused(fmt::format(
            "--streams {}: the association has only {} outbound streams, since the server "
            "allows that many inbound; start {} with --streams {} too",
            streams, features->outbound_streams, server_program, streams));
    }
    const auto server_streams = settings.sctp ? settings.sctp->outbound_streams : 0;
    if (server_streams < streams) {
        throw test_refused(fmt::format(
            "--streams {}: the server has only {} outbound streams to answer on; start {} with "
            "--streams {} too",
            streams, server_streams, server_program, streams));
    }
}

pr_sctp server_pr_sctp(const protocol::server_settings_blob& settings) {
    return settings.sctp ? parse_pr_sctp(settings.sctp->pr_sctp).value_or(pr_sctp{}) : pr_sctp{};
}

std::optional<std::chrono::milliseconds> server_io_timeout(
    const protocol::server_settings_blob& settings) {
    if (!settings.io_timeout_ms) {
        return std::nullopt;
    }
    // A day at most, as the server's option is; no overflow from a stray value.
    return std::chrono::milliseconds(std::min<std::uint64_t>(*settings.io_timeout_ms, 86'400'000));
}

one_way_clocks one_way_clocks_of(const protocol::server_settings_blob& settings) {
    return clocks_of(settings.boot_id, settings.realtime_minus_monotonic_ns);
}

}  // namespace sctp_perf
