#pragma once
// The server's half of one test, over any message_channel: read and check the
// header, answer with a verdict and the server's settings, then serve the
// test in the mode the header names.
//
//  - ping-pong: answer each of `iterations` requests with its 2-byte reply
//    (or, with iterations 0, every request until the client closes);
//  - rate and throughput: read requests as they come, reply to those that
//    ask for it, and after the one marked end-of-test send the server's own
//    account of the test (counts, CPU, RSS) as a blob.
//
// The server is a mirror: the client decides the rate and which requests get
// replies, so one server serves every mode.

#include <cstdint>
#include <string>
#include <string_view>

#include "server/server_settings.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// How a session ended, for the log.
struct session_outcome {
    bool completed = false;
    std::uint64_t messages_done = 0;       // requests answered or read
    std::string_view unit = "iterations";  // what messages_done counts: round trips, or
                                           // "messages" in rate and throughput mode
    std::string reason;                    // why it ended early
};

// Serves one test on a connected channel. Never throws for anything the peer does.
session_outcome serve_test(message_channel& channel, const server_identity& identity);

}  // namespace sctp_perf
