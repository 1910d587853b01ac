// SPDX-License-Identifier: Apache-2.0
// SOCK_SEQPACK_srv: answers SOCK_SEQPACK_clt's requests on an SCTP one-to-many
// socket, possibly bound to several addresses, one thread per association.
// Glue only.

#include "server/seqpack_server.hpp"
#include "server/server_main.hpp"

int main(int argc, char** argv) {
    const sctp_perf::program_info program{
        "SOCK_SEQPACK_srv",
        "answers SOCK_SEQPACK_clt's round-trip latency tests on an SCTP SOCK_SEQPACKET "
        "(one-to-many) socket",
        sctp_perf::socket_service::seqpack, false};
    return sctp_perf::server_main(argc, argv, program, sctp_perf::run_seqpack_server);
}
