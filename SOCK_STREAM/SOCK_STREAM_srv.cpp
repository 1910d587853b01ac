// SPDX-License-Identifier: Apache-2.0
// SOCK_STREAM_srv: answers SOCK_STREAM_clt's requests over TCP or SCTP
// one-to-one connections, one thread per client. Glue only.

#include "server/server_main.hpp"
#include "server/stream_server.hpp"

int main(int argc, char** argv) {
    const sctp_perf::program_info program{
        "SOCK_STREAM_srv",
        "answers SOCK_STREAM_clt's round-trip latency tests over SOCK_STREAM sockets (SCTP or TCP)",
        sctp_perf::socket_service::stream, true};
    return sctp_perf::server_main(argc, argv, program, sctp_perf::run_stream_server);
}
