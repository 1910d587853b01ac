// SPDX-License-Identifier: Apache-2.0
// SOCK_STREAM_clt: round-trip latency over one TCP or SCTP one-to-one
// connection. Glue only: everything else lives in common/.

#include "client/client_main.hpp"
#include "client/stream_client.hpp"
#include "client/stream_flow_setup.hpp"

int main(int argc, char** argv) {
    const sctp_perf::program_info program{
        "SOCK_STREAM_clt",
        "measures round-trip latency of request/reply messaging over a SOCK_STREAM socket "
        "(SCTP or TCP)",
        sctp_perf::socket_service::stream, true};
    return sctp_perf::client_main(argc, argv, program, sctp_perf::connect_stream_client,
                                  sctp_perf::connect_stream_flows, sctp_perf::stream_flow_dialer);
}
