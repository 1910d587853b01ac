// SPDX-License-Identifier: Apache-2.0
#include "client/seqpack_client.hpp"

#include "client/sctp_path_setup.hpp"
#include "transport/sctp_addresses.hpp"
#include "transport/sctp_delivery.hpp"
#include "transport/seqpacket_channel.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {

seqpacket_connect_request seqpack_connect_request(const client_options& options) {
    seqpacket_connect_request request;
    request.server_hosts = options.server_hosts;
    request.server_port = options.server_port;
    request.client_addresses = options.client_addresses;
    request.client_port = options.client_port;
    request.timeout = options.common.io_timeout;
    request.sctp_rto = options.common.sctp_rto;
    request.sctp_features = options.common.sctp;
    request.sctp_paths = options.common.sctp_paths;
    request.nagle = options.common.nagle;
    request.bind_device = options.common.bind_device;
    request.max_seg_bytes = options.common.max_seg_bytes;
    return request;
}

client_connection seqpack_connection(seqpacket_association association,
                                     const client_options& options) {
    const int fd = association.socket.get();
    set_blocking(fd);
    set_nagle(fd, transport_protocol::sctp, options.common.nagle);
    set_io_timeout(fd, options.common.io_timeout);
    apply_socket_buffers(fd, options.common.buffers);
    if (options.common.sctp.streams > 1) {
        enable_receive_info(fd);  // the client checks the stream of every reply
    }

    // Every address of the association, so the report says which addresses
    // each end bound, not just the primary path.
    client_connection connection;
    connection.local_addresses = association_local_addresses(fd, association.id);
    connection.peer_addresses = association_peer_addresses(fd, association.id);
    if (connection.local_addresses.empty()) {
        connection.local_addresses = {local_address_of(fd)};
    }
    if (connection.peer_addresses.empty()) {
        connection.peer_addresses = {peer_address_of(fd)};
    }
    connection.channel = std::make_unique<seqpacket_channel>(std::move(association.socket));
    connection.channel->set_message_timeout(options.common.io_timeout);
    connection.channel->set_spin(options.common.spin);
    connection.channel->set_poll_before_sleep(options.common.poll_before_sleep);
    prepare_client_paths(*connection.channel, association.id, options, options.server_port,
                         options.server_hosts.size() > 1 || options.client_addresses.size() > 1);
    return connection;
}

client_connection connect_seqpack_client(const client_options& options, unsigned /*flow*/) {
    return seqpack_connection(connect_seqpacket(seqpack_connect_request(options)), options);
}

}  // namespace sctp_perf
