// SPDX-License-Identifier: Apache-2.0
#pragma once
// The opening of every test, client side: send the test header, read the
// verdict, and read the server's settings that follow an accepted one.

#include <nlohmann/json.hpp>
#include <string>

#include "errors.hpp"
#include "protocol/wire_protocol.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// Returns the server's settings (a JSON object, see README.SCTP_PERF_TEST
// section 12). Throws test_refused with the server's reason, or peer_error
// when the peer is not an sctp-perf server, speaks another protocol version,
// or sends settings that are not a JSON object.
nlohmann::json negotiate_test(message_channel& channel, const protocol::test_header& header);

// The two halves of negotiate_test, for a client that sends the headers of
// many flows and reads each answer once it has come.
void send_test_header(message_channel& channel, const protocol::test_header& header);
nlohmann::json read_test_answer(message_channel& channel);

// The peer_error of a flow whose answer did not come within --io-timeout,
// worded as negotiate_test's.
peer_error no_test_answer(const std::string& reason);

}  // namespace sctp_perf
