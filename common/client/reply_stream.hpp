// SPDX-License-Identifier: Apache-2.0
#pragma once
// With several SCTP streams the server must answer each request on the stream
// it came on; both clients check every reply against its request's stream.

#include <cstdint>
#include <string_view>

#include "errors.hpp"

namespace sctp_perf {

// Throws reply_on_wrong_stream, naming the reply (`reply`, e.g. "the reply to
// request 7") and both streams, when `came_on` is not `sent_on`.
void check_reply_stream(std::string_view reply, std::uint16_t came_on, std::uint16_t sent_on);

}  // namespace sctp_perf
