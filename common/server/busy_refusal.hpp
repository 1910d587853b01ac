// SPDX-License-Identifier: Apache-2.0
#pragma once
// Tells a client beyond --max-clients that the server is busy, without a
// thread and without holding up anyone else: on the server's event loop it
// waits, at most the header timeout, for the client's header, answers
// status 5 (server busy) and closes. Even a refused client's header is read
// first: closing with it unread would make TCP reset the connection and
// SCTP abort the association, and the client would report that instead of
// why. A thousand silent connections cost a thousand timers, not a thousand
// threads or a blocked accept loop.

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <memory>
#include <string>

#include "transport/message_channel.hpp"

namespace sctp_perf {

// Starts the refusal of `channel` on `io` and returns at once; the outcome
// is logged ("client C refused: too many clients at once").
void refuse_as_busy(boost::asio::io_context& io, std::unique_ptr<message_channel> channel,
                    std::string client, std::chrono::milliseconds header_timeout);

}  // namespace sctp_perf
