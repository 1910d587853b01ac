// SPDX-License-Identifier: Apache-2.0
#include "client/stream_client.hpp"

#include "client/sctp_path_setup.hpp"
#include "transport/sctp_delivery.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {

connect_request stream_connect_request(const client_options& options, unsigned flow) {
    connect_request request;
    request.transport = options.common.transport;
    // Fan-out: flow k to server k modulo their number.
    if (!options.servers.empty()) {
        const auto& server = options.servers[server_of_flow(flow, options.servers.size())];
        request.server_host = server.host;
        request.server_port = server.port;
    } else {
        request.server_host = options.server_hosts.front();
        request.server_port = options.server_port;
    }
    const auto& addresses = options.client_addresses;
    request.client_address = addresses.empty() ? "" : addresses[flow % addresses.size()];
    request.client_port = options.client_port;
    request.timeout = options.common.io_timeout;
    request.sctp_rto = options.common.sctp_rto;
    request.sctp_features = options.common.sctp;
    request.sctp_paths = options.common.sctp_paths;
    request.bind_device = options.common.bind_device;
    request.max_seg_bytes = options.common.max_seg_bytes;
    return request;
}

client_connection stream_connection(unique_fd fd, const client_options& options) {
    set_blocking(fd.get());
    set_nagle(fd.get(), options.common.transport, options.common.nagle);
    set_io_timeout(fd.get(), options.common.io_timeout);
    apply_socket_buffers(fd.get(), options.common.buffers);
    if (options.common.transport == transport_protocol::sctp && options.common.sctp.streams > 1) {
        enable_receive_info(fd.get());  // the client checks the stream of every reply
    }

    client_connection connection;
    connection.local_addresses = {local_address_of(fd.get())};
    connection.peer_addresses = {peer_address_of(fd.get())};
    connection.channel = std::make_unique<stream_channel>(std::move(fd));
    connection.channel->set_message_timeout(options.common.io_timeout);
    connection.channel->set_spin(options.common.spin);
    connection.channel->set_poll_before_sleep(options.common.poll_before_sleep);
    // A SOCK_STREAM client's -H and -i lists deal its flows over servers
    // and local addresses: no association of it is multi-homed on request.
    prepare_client_paths(*connection.channel, 0, options, 0, /*multi_homed=*/false);
    return connection;
}

client_connection connect_stream_client(const client_options& options, unsigned flow) {
    return stream_connection(connect_stream(stream_connect_request(options, flow)), options);
}

}  // namespace sctp_perf
