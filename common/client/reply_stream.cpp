// SPDX-License-Identifier: Apache-2.0
#include "client/reply_stream.hpp"

#include <fmt/format.h>

namespace sctp_perf {

void check_reply_stream(std::string_view reply, std::uint16_t came_on, std::uint16_t sent_on) {
    if (came_on != sent_on) {
        throw reply_on_wrong_stream(fmt::format(
            "{} came on stream {}, its request went on stream {} (the server must answer each "
            "request on the stream it came on)",
            reply, came_on, sent_on));
    }
}

}  // namespace sctp_perf
