// SPDX-License-Identifier: Apache-2.0
// The client's opening as a hostile server sees it: after the test header,
// the input is everything the server sends (verdict, settings blob length,
// settings text), read by the client's own negotiate_test. It may refuse,
// with peer_error or test_refused as its header says; anything else escapes
// and fails the run.

#include "client/test_negotiation.hpp"
#include "protocol/wire_protocol.hpp"
#include "replay_channel.hpp"

using namespace sctp_perf;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto input = fuzz::as_bytes(data, size);
    if (input.size() >= protocol::verdict_size) {
        protocol::verdict_bytes bytes{};
        std::copy_n(input.begin(), bytes.size(), bytes.begin());
        const auto verdict = protocol::decode_verdict(bytes);
        if (verdict.well_formed && verdict.server_version == protocol::version &&
            protocol::encode_verdict(static_cast<protocol::status>(verdict.raw_status)) != bytes) {
            fuzz::broken("a verdict of this version is exactly what encode_verdict makes of it");
        }
        (void)protocol::describe(static_cast<protocol::status>(verdict.raw_status));
    }

    fuzz::replay_channel server(input);
    try {
        const auto settings = negotiate_test(server, {7, 1100, protocol::test_mode::ping_pong});
        if (!settings.is_object()) {
            fuzz::broken("negotiate_test returns settings that are a JSON object");
        }
    } catch (const peer_error&) {
    } catch (const test_refused&) {
    }
    return 0;
}
