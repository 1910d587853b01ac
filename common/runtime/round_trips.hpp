#pragma once
// The two halves of a test, over any message_channel.
//
// Client: send the test header, wait for the verdict, run the primer
// iterations unrecorded, then time each measured iteration:
//     start clock -> send 2^s bytes -> receive the 2-byte reply -> stop clock.
// Server: read and check the header, answer with a verdict, then answer each
// request with a reply that echoes the iteration number.

#include <chrono>
#include <cstdint>
#include <string>

#include "protocol/wire_protocol.hpp"
#include "stats/latency_recorder.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// The server said no before the test began; what() carries its reason.
class test_refused : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Sends the header and waits for the verdict. Throws test_refused, or
// peer_error when the peer is not an sctp-perf server.
void negotiate_test(message_channel& channel, const protocol::test_header& header);

// Runs the primer and the measured iterations, recording into `recorder`.
// Returns the wall time of the measured iterations. Throws peer_error naming
// the iteration at which the peer failed.
std::chrono::nanoseconds run_round_trips(message_channel& channel, std::uint32_t payload_bytes,
                                         std::uint32_t measured_iterations,
                                         latency_recorder& recorder);

// Serves one test on a connected channel, or with `refuse_as_busy` reads the
// header and answers "busy"; returns how it ended, for the log. Never throws
// for anything the peer does.
struct session_outcome {
    bool completed = false;
    std::uint32_t iterations_done = 0;
    std::string reason;  // why it ended early, for the log
};
session_outcome serve_test(message_channel& channel, bool refuse_as_busy = false);

}  // namespace sctp_perf
