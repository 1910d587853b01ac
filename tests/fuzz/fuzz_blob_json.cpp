// SPDX-License-Identifier: Apache-2.0
// The JSON blobs a server sends, read as the client reads them: its settings
// through negotiate_test (nlohmann::json, parsed without exceptions, then
// required to be an object), then protocol::decode_server_settings, the
// report's line about the server's SCTP features, its placement and Nagle,
// and its PR-SCTP policy; a load test's final account through
// load_flow::finish (protocol::decode_server_account).
// The input is the blob's text; both readers get it after a well-formed blob
// length. Only the client's own refusal, peer_error, may escape a reader.

#include <netinet/in.h>
#include <sys/socket.h>

#include <memory>
#include <sstream>
#include <vector>

#include "client/load/load_flow.hpp"
#include "client/test_negotiation.hpp"
#include "protocol/server_settings_blob.hpp"
#include "protocol/wire_protocol.hpp"
#include "replay_channel.hpp"
#include "report/run_notes.hpp"
#include "report/sctp_report.hpp"
#include "transport/sctp_features.hpp"

using namespace sctp_perf;

namespace {

template <typename Bytes>
void append(std::vector<std::byte>& out, const Bytes& bytes) {
    out.insert(out.end(), bytes.begin(), bytes.end());
}

// finish() reads TCP_INFO from the flow's socket after the account; an
// unconnected TCP socket has one to read.
int tcp_socket() {
    static const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        fuzz::broken("a TCP socket for TCP_INFO (socket() failed)");
    }
    return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size > protocol::max_blob_bytes) {
        return -1;  // receive_blob refuses these lengths before any parsing
    }
    const auto text = fuzz::as_bytes(data, size);
    std::vector<std::byte> blob;
    append(blob, protocol::encode_blob_length(static_cast<std::uint32_t>(size)));
    append(blob, text);

    std::vector<std::byte> opening;
    append(opening, protocol::encode_verdict(protocol::status::accepted));
    append(opening, blob);
    fuzz::replay_channel server(opening);
    run_report report;
    try {
        report.server_settings = negotiate_test(server, {16, 0, protocol::test_mode::rate});
    } catch (const peer_error&) {
        // Not a JSON object: the client stops with that message.
    }
    std::ostringstream out;
    write_sctp_and_transport_lines(out, report);
    // Every member of the settings, through the one reader that the reports
    // and the client use (protocol/server_settings_blob.hpp), and the
    // server's PR-SCTP policy from it, as client/connection_checks' server_pr_sctp reads it.
    const auto settings = protocol::decode_server_settings(report.server_settings);
    if (settings.sctp) {
        (void)parse_pr_sctp(settings.sctp->pr_sctp);
    }
    (void)server_placement(report);
    (void)run_warnings(report);

    const load_plan plan;  // TCP, as a server over SCTP sends the same account
    load_flow flow(0, std::make_unique<fuzz::replay_channel>(blob, tcp_socket()), plan);
    try {
        (void)flow.finish();
    } catch (const peer_error&) {
    }
    return 0;
}
