// SPDX-License-Identifier: Apache-2.0
// SOCK_SEQPACK_clt: round-trip latency over SCTP associations on
// SOCK_SEQPACKET sockets, one SCTP message per request and per reply; the
// association may be multi-homed. Glue only: everything else lives in common/.

#include "client/client_main.hpp"
#include "client/seqpack_client.hpp"
#include "client/seqpack_flow_setup.hpp"

int main(int argc, char** argv) {
    const sctp_perf::program_info program{
        "SOCK_SEQPACK_clt",
        "measures round-trip latency of request/reply messaging over an SCTP SOCK_SEQPACKET "
        "socket, one SCTP message per request",
        sctp_perf::socket_service::seqpack, false};
    return sctp_perf::client_main(argc, argv, program, sctp_perf::connect_seqpack_client,
                                  sctp_perf::connect_seqpack_flows, sctp_perf::seqpack_flow_dialer);
}
