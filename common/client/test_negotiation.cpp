// SPDX-License-Identifier: Apache-2.0
#include "client/test_negotiation.hpp"

#include <fmt/format.h>

#include "errors.hpp"

namespace sctp_perf {

peer_error no_test_answer(const std::string& reason) {
    return peer_error("no answer to the test header: " + reason +
                      " (is the server an sctp-perf server of the same kind?)");
}

void send_test_header(message_channel& channel, const protocol::test_header& header) {
    channel.send_message(protocol::encode_header(header));
}

nlohmann::json negotiate_test(message_channel& channel, const protocol::test_header& header) {
    send_test_header(channel, header);
    return read_test_answer(channel);
}

nlohmann::json read_test_answer(message_channel& channel) {
    protocol::verdict_bytes verdict{};
    try {
        channel.receive_message(verdict);
    } catch (const peer_error& e) {
        throw no_test_answer(e.what());
    }
    const auto decoded = protocol::decode_verdict(verdict);
    if (!decoded.well_formed) {
        throw peer_error("the peer is not an sctp-perf server (wrong magic number in its answer)");
    }
    const auto status = static_cast<protocol::status>(decoded.raw_status);
    if (status == protocol::status::unsupported_version ||
        decoded.server_version != protocol::version) {
        // A version 1 server left the field 0.
        throw test_refused(fmt::format(
            "the server speaks protocol version {} and this client version {}: use a client and "
            "server of the same sctp-perf release",
            decoded.server_version == 0 ? 1 : decoded.server_version, protocol::version));
    }
    if (status != protocol::status::accepted) {
        throw test_refused(
            fmt::format("the server refused the test: {}", protocol::describe(status)));
    }
    auto settings =
        nlohmann::json::parse(receive_blob(channel), nullptr, /*allow_exceptions=*/false);
    if (!settings.is_object()) {
        throw peer_error("the server's settings are not a JSON object");
    }
    return settings;
}

}  // namespace sctp_perf
